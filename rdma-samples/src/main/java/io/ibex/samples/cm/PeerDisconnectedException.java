package io.ibex.samples.cm;

/**
 * The peer went away (a DISCONNECTED event, or the connection's receives flushed) while this side awaited
 * something from it. Whether that ends a program normally depends on where it happens: rping's server, for
 * one, ends when its client disconnects between two pings.
 */
public final class PeerDisconnectedException extends IllegalStateException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was awaited when the peer went away.
     */
    public PeerDisconnectedException(final String message)
    {
        super(message);
    }
}
