package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftFaults;
/**
 * The soft provider's fault injection ({@link SoftFaults}, package-private) for tests of other packages: injects
 * faults into what the device receives from now on and counts them by kind.
 */
public final class SoftFaultInjection
{
    private final SoftFaults faults;

    private SoftFaultInjection(final SoftFaults faults)
    {
        this.faults = faults;
    }

    /**
     * @param spec the faults, as {@code -Dibex.soft.faults} gives them.
     * @return the injection, to count what it did.
     */
    public static SoftFaultInjection inject(final String spec)
    {
        return new SoftFaultInjection(SoftProvider.injectFaults(spec));
    }

    /** Stops injecting faults. */
    public static void stop()
    {
        SoftProvider.injectFaults(null);
    }

    /**
     * @param fault a fault's name: NONE, DROP, DUPLICATE, REORDER, DELAY, TRUNCATE, ...
     * @return how many frames it was decided for.
     */
    public long count(final String fault)
    {
        return faults.count(SoftFaults.Fault.valueOf(fault));
    }

    /** @return how many frames a fault (or none) was decided for. */
    public long decided()
    {
        long all = 0;
        for (final SoftFaults.Fault fault : SoftFaults.Fault.values())
        {
            all += faults.count(fault);
        }
        return all;
    }

    @Override
    public String toString()
    {
        return faults.toString();
    }
}
