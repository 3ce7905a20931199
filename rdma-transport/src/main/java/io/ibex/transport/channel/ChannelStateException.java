package io.ibex.transport.channel;

/**
 * An operation called in a state that does not allow it: the message names the operation, the states it needs
 * and the state the channel is in.
 */
public final class ChannelStateException extends IllegalStateException
{
    private static final long serialVersionUID = 1L;

    /** The state the channel was in. */
    private final ChannelState state;

    /**
     * @param channel   the channel's name.
     * @param operation what was called.
     * @param state     the state the channel is in.
     * @param needed    what the operation needs, e.g. "CHECKED or STOPPED".
     */
    public ChannelStateException(final String channel, final String operation, final ChannelState state,
        final String needed)
    {
        super(operation + " needs the channel in state " + needed + ", but channel '" + channel + "' is " + state);
        this.state = state;
    }

    /** @return the state the channel was in. */
    public ChannelState state()
    {
        return state;
    }
}
