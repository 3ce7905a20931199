package io.ibex.transport.channel;

/**
 * A channel could not do what it was asked: the message says what failed and with which values (a connection
 * that could not be set up, a post the provider refused, a peer that broke the protocol).
 */
public final class ChannelException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong.
     */
    public ChannelException(final String message)
    {
        super(message);
    }

    /**
     * @param message what went wrong.
     * @param cause   the error underneath.
     */
    public ChannelException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
