package io.ibex.rdma.provider.soft;

import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.Selector;

/**
 * The progress thread's idle strategy: after work, spin briefly on {@link Selector#selectNow()} (a busy exchange
 * continues at once), then block in {@link Selector#select(long)} until a watched socket is ready, a waiter wakes
 * the selector, or the timer tick passes. So the thread sleeps while applications drive their own QPs, yet reacts
 * at once to traffic on the QPs it has taken over.
 * <p>
 * It also tells the agent when a duty cycle has something to look at ({@link #takeScanDue()}): a spin that found
 * no socket ready has not, so spinning costs one system call a round, not the agent's every read and accept.
 */
final class SoftSelectorIdleStrategy implements IdleStrategy
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftSelectorIdleStrategy.class);

    private final Selector selector;
    private final int maxSpins;
    private long tickMillis;
    private int spins;
    private boolean scanDue = true;
    private boolean keepSpinning;

    /**
     * @param selector   the selector the watched channels are registered with.
     * @param maxSpins   idle rounds spent polling the selector before blocking.
     * @param tickMillis longest block, which bounds how late timers (RNR retry, ACK flush) run.
     */
    SoftSelectorIdleStrategy(final Selector selector, final int maxSpins, final long tickMillis)
    {
        this.selector = selector;
        this.maxSpins = maxSpins;
        this.tickMillis = tickMillis;
    }

    /**
     * Sets the longest block from the next idle on; called by the agent on the same thread.
     *
     * @param tickMillis longest block, which bounds how late timers (RNR retry, ACK flush) run.
     */
    void tickMillis(final long tickMillis)
    {
        this.tickMillis = tickMillis;
    }

    /**
     * Spins instead of blocking, however long idle, while set: a timer is due sooner than a block could end.
     *
     * @param keepSpinning whether to go on spinning; set by the agent on the same thread after each scan.
     */
    void keepSpinning(final boolean keepSpinning)
    {
        this.keepSpinning = keepSpinning;
    }

    /**
     * Whether the next duty cycle should look at its sockets and timers: a socket was selected, the selector was
     * woken, or the tick passed. Called by the agent on the same thread; clears the flag.
     *
     * @return whether a scan is due.
     */
    boolean takeScanDue()
    {
        final boolean due = scanDue;
        scanDue = false;
        return due;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        try
        {
            if (spins < maxSpins || keepSpinning)
            {
                spins++;
                scanDue |= selector.selectNow() > 0;
            }
            else
            {
                selector.select(tickMillis);
                scanDue = true; // ready, woken or ticked: each calls for a look
            }
            selector.selectedKeys().clear();
        }
        catch (final IOException ex)
        {
            scanDue = true;
            LOG.warn("soft device progress: select failed", ex);
        }
    }

    @Override
    public void reset()
    {
        spins = 0;
    }

    @Override
    public String alias()
    {
        return "soft-selector";
    }
}
