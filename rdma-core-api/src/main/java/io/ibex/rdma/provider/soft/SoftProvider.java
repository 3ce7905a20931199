package io.ibex.rdma.provider.soft;

import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.provider.soft.cm.SoftEventChannel;
import io.ibex.rdma.provider.soft.wire.SoftFaults;
import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.Device;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code soft} provider: a software RDMA device in pure Java that behaves like a verbs device (rxe is
 * the reference). Connected QPs talk over TCP between processes and hosts, and in memory within one JVM; UD over
 * UDP. Always available, at a priority below real hardware.
 * <p>
 * System properties: {@code ibex.soft.address} (IPv4 address of the device's endpoint, default
 * 127.0.0.1), {@code ibex.soft.port} (its TCP and UDP port, default 0 = ephemeral), {@code ibex.soft.mtu}
 * (active MTU of the port, default 4096), {@code ibex.soft.localLinks} ({@code memory}, the default, or
 * {@code tcp}: how two QPs of the same JVM are linked).
 */
public final class SoftProvider implements RdmaProvider
{
    /** The provider name. */
    public static final String NAME = "soft";
    /** The automatic-choice priority: below any hardware provider. */
    public static final int PRIORITY = 10;

    /** The count of open soft verbs objects, for {@link #liveResources()}. */
    static final AtomicInteger LIVE = new AtomicInteger();

    private static SoftDevice device;

    /**
     * Creates the provider; does no I/O (the device binds its endpoint on first use).
     */
    public SoftProvider()
    {
    }

    /**
     * Counts the soft verbs objects (contexts, PDs, MRs, CQs, channels, QPs, AHs) open in this JVM, for
     * leak tests: take it before, close everything, compare after.
     *
     * @return the number of open soft resources.
     */
    public static int liveResources()
    {
        return LIVE.get();
    }

    /**
     * Injects faults into what the device receives from now on (UD datagrams, RC and UC frames), as
     * {@code -Dibex.soft.faults} does at start; for tests.
     *
     * @param spec the faults ({@link SoftFaults}), or null for none.
     * @return the injector, which counts the faults it made; null for none.
     * @throws IllegalArgumentException naming what is wrong in the spec.
     */
    static SoftFaults injectFaults(final String spec)
    {
        final SoftFaults faults = spec == null ? null : SoftFaults.parse(spec);
        device().faults(faults);
        return faults;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public int priority()
    {
        return PRIORITY;
    }

    /**
     * Available unless the device cannot bind its endpoint (for example a bad {@code ibex.soft.address}).
     */
    @Override
    public Availability availability()
    {
        try
        {
            device();
            return Availability.yes("pure Java software device, always available");
        }
        catch (final RuntimeException ex)
        {
            return Availability.no(ex.getCause() == null ? ex.getMessage() : ex.getMessage() + ": " + ex.getCause());
        }
    }

    @Override
    public List<Device> devices()
    {
        return List.of(device());
    }

    @Override
    public EventChannel createEventChannel()
    {
        return new SoftEventChannel(this);
    }

    /**
     * The one device of the JVM, bound when first needed. A failure to bind is thrown to every caller with
     * its reason (a static holder would turn it into NoClassDefFoundError after the first).
     */
    private static synchronized SoftDevice device()
    {
        if (device == null)
        {
            device = new SoftDevice();
        }
        return device;
    }
}
