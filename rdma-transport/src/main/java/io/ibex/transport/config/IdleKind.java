package io.ibex.transport.config;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * Which Agrona idle strategy a channel's waits use when a poll finds nothing ({@code idle_strategy}).
 */
public enum IdleKind
{
    /** Spin without yielding the core: lowest latency, one core per waiting thread. */
    BUSY_SPIN("busy-spin"),
    /** Yield the core between polls: the default, leaving the core to other threads when cores are few. */
    YIELDING("yielding"),
    /** Spin, then yield, then park with growing periods. */
    BACKOFF("backoff"),
    /** Park for a microsecond between polls. */
    SLEEPING("sleeping");

    private final String configName;

    IdleKind(final String configName)
    {
        this.configName = configName;
    }

    /** @return the name in a config. */
    public String configName()
    {
        return configName;
    }

    /** @return a new idle strategy of this kind (idle strategies keep state: one per waiting thread). */
    public IdleStrategy newStrategy()
    {
        return switch (this)
        {
            case BUSY_SPIN -> new BusySpinIdleStrategy();
            case YIELDING -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy();
            case SLEEPING -> new SleepingIdleStrategy();
        };
    }

    /**
     * @param text "busy-spin", "yielding", "backoff" or "sleeping", in any case.
     * @return the kind.
     * @throws IllegalArgumentException naming the value and the accepted ones.
     */
    public static IdleKind fromConfigName(final String text)
    {
        return ConfigNames.parse(values(), text, IdleKind::configName);
    }
}
