package io.ibex.transport.thread;

/**
 * A {@link ThreadPlacement} that could not be applied; the message names the placement and why.
 */
public final class ThreadPlacementException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    ThreadPlacementException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
