package io.ibex.transport.channel;

import org.slf4j.Logger;

import java.util.concurrent.TimeUnit;

/**
 * A warning that a peer can make repeat as often as it likes (a flood of connection requests): logged at once,
 * then at most once a second with how many times it happened since. One thread only.
 */
final class ThrottledWarning
{
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Logger log;
    private final String channelName;
    private final String text;
    private long count;
    private long loggedNanos;

    /**
     * @param log         where to.
     * @param channelName the channel, first in the line.
     * @param text        what happened, with one {} for the latest case.
     */
    ThrottledWarning(final Logger log, final String channelName, final String text)
    {
        this.log = log;
        this.channelName = channelName;
        this.text = text;
    }

    /** @param latest what names this case (a peer's address, a connection). */
    void warn(final Object latest)
    {
        count++;
        final long now = System.nanoTime();
        if (count == 1 || now - loggedNanos >= INTERVAL_NANOS)
        {
            log.warn("{}: {} time(s) since the last such line: " + text, channelName, count, latest);
            count = 0;
            loggedNanos = now;
        }
    }
}
