package io.ibex.transport.stats;

/**
 * Event counts of a sample channel, kept by {@link ChannelStats}. Any thread may add to any counter (each add
 * is atomic), and any thread may read them while they change.
 */
public enum Counter
{
    /** Samples handed to the network by write ({@link ChannelStats#onSent} counts them). */
    SENT("sent", "samples handed to the network by write"),
    /** Samples taken in by read ({@link ChannelStats#onReceived} counts them). */
    RECEIVED("received", "samples taken in by read"),
    /** Samples written that never reached the network: e.g. sends a disconnect flushed, or failed completions. */
    DROPPED("dropped", "samples written that never reached the network (flushed or failed sends)"),
    /** Receives whose byte count failed the wire check: dropped and never handed up. */
    INVALID("invalid", "receives whose byte count failed the wire check, dropped"),
    /** Sends posted inline (the sample's bytes copied into the work request, released at once). */
    INLINE_SENDS("inline_sends", "sends posted inline"),
    /** Sends posted signaled (they produce a completion). */
    SIGNALED_SENDS("signaled_sends", "sends posted signaled"),
    /** Receive work requests posted, the initial ones and every re-post. */
    POSTED_RECEIVES("posted_receives", "receive work requests posted, initial and re-posted"),
    /** Connections re-established after the peer was lost (a source reconnecting, a target accepting again). */
    RECONNECTS("reconnects", "connections re-established after the peer was lost"),
    /**
     * Samples a write did not take because the send queue was full, counted at each write that refused them:
     * the caller keeps them and may write them again, so this is back-pressure, not loss.
     */
    BACK_PRESSURED("back_pressured", "samples a write did not take (send queue full), kept by the caller");

    private final String id;
    private final String description;

    Counter(final String id, final String description)
    {
        this.id = id;
        this.description = description;
    }

    /** @return the counter's name in text and JSON output ({@code "inline_sends"}). */
    public String id()
    {
        return id;
    }

    /** @return what the counter counts, in one line. */
    public String description()
    {
        return description;
    }
}
