package io.ibex.transport.thread;

import java.util.BitSet;
import java.util.Objects;

/**
 * Where a thread runs and how the kernel schedules it, as VILLASnode's {@code affinity} and {@code priority} say:
 * a set of CPUs to pin it to, and a real-time priority (SCHED_FIFO, 1 to 99). Either may be left unset (no CPUs:
 * wherever the kernel likes; priority 0: the normal scheduler). Applied through the C library's
 * {@code sched_setaffinity} and {@code sched_setscheduler} (JNA), on Linux only; a real-time priority needs
 * CAP_SYS_NICE (or an RLIMIT_RTPRIO that allows it).
 */
public final class ThreadPlacement
{
    /** The highest SCHED_FIFO priority Linux accepts. */
    public static final int MAX_PRIORITY = 99;
    /** No placement: every CPU, the normal scheduler. */
    public static final ThreadPlacement NONE = new ThreadPlacement(new BitSet(), 0);

    private final BitSet cpus;
    private final int priority;

    private ThreadPlacement(final BitSet cpus, final int priority)
    {
        this.cpus = cpus;
        this.priority = priority;
    }

    /**
     * @param cpus     the CPUs to pin to (bit n for CPU n), empty for no pinning.
     * @param priority the SCHED_FIFO priority, 1 to {@link #MAX_PRIORITY}, or 0 for the normal scheduler.
     * @return the placement.
     * @throws IllegalArgumentException if the priority is out of range.
     */
    public static ThreadPlacement of(final BitSet cpus, final int priority)
    {
        if (priority < 0 || priority > MAX_PRIORITY)
        {
            throw new IllegalArgumentException("priority " + priority + " is not a SCHED_FIFO priority: 0 (none) " +
                "or 1 to " + MAX_PRIORITY);
        }
        return new ThreadPlacement((BitSet)Objects.requireNonNull(cpus, "cpus").clone(), priority);
    }

    /**
     * @param mask     VILLASnode's {@code affinity}: bit n for CPU n, 0 for no pinning.
     * @param priority the SCHED_FIFO priority, 1 to {@link #MAX_PRIORITY}, or 0 for the normal scheduler.
     * @return the placement.
     * @throws IllegalArgumentException if the mask is negative or the priority out of range.
     */
    public static ThreadPlacement ofMask(final long mask, final int priority)
    {
        if (mask < 0)
        {
            throw new IllegalArgumentException("affinity " + mask + " is not a CPU mask: bit n for CPU n, 0 for none");
        }
        return of(BitSet.valueOf(new long[] {mask}), priority);
    }

    /** @return the CPUs to pin to; empty for none. */
    public BitSet cpus()
    {
        return (BitSet)cpus.clone();
    }

    /** @return the SCHED_FIFO priority, or 0 for the normal scheduler. */
    public int priority()
    {
        return priority;
    }

    /** @return whether this placement changes nothing. */
    public boolean isNone()
    {
        return cpus.isEmpty() && priority == 0;
    }

    /**
     * @param other a placement.
     * @return this one, with the other's CPUs and priority where this one leaves them unset.
     */
    public ThreadPlacement orElse(final ThreadPlacement other)
    {
        return new ThreadPlacement(cpus.isEmpty() ? other.cpus : cpus, priority == 0 ? other.priority : priority);
    }

    /**
     * Pins the calling thread and sets its scheduling, as far as this placement says.
     *
     * @throws ThreadPlacementException naming what could not be applied and why (the kernel's error, a CPU this
     *                                  machine lacks, a missing privilege, JNA or Linux missing).
     */
    public void applyToCurrentThread()
    {
        if (isNone())
        {
            return;
        }
        final LinuxScheduler scheduler = LinuxScheduler.get(this);
        if (!cpus.isEmpty())
        {
            scheduler.setAffinity(0, cpus, this);
        }
        if (priority > 0)
        {
            scheduler.setFifoPriority(0, priority, this);
        }
    }

    /** @return e.g. "CPUs 2-3, SCHED_FIFO priority 50", "every CPU, the normal scheduler". */
    @Override
    public String toString()
    {
        return (cpus.isEmpty() ? "every CPU" : "CPUs " + cpuList(cpus)) + ", " +
            (priority == 0 ? "the normal scheduler" : "SCHED_FIFO priority " + priority);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ThreadPlacement that && cpus.equals(that.cpus) && priority == that.priority;
    }

    @Override
    public int hashCode()
    {
        return cpus.hashCode() * 31 + priority;
    }

    /** @return the CPUs as Linux lists them: "0,2-3". */
    static String cpuList(final BitSet cpus)
    {
        final StringBuilder list = new StringBuilder();
        for (int first = cpus.nextSetBit(0); first >= 0; first = cpus.nextSetBit(first + 1))
        {
            final int last = cpus.nextClearBit(first) - 1;
            list.append(list.length() == 0 ? "" : ",").append(first);
            if (last > first)
            {
                list.append('-').append(last);
            }
            first = last;
        }
        return list.toString();
    }
}
