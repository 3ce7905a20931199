package io.ibex.rdma.provider.disni;

import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.VerbsException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code disni} provider: the kernel's verbs (InfiniBand, RoCE, Soft-RoCE) through ibex's own JNI class
 * over a native library that also fulfils DiSNI 2.1's native contract (see docs/disni-provider.md). Its
 * priority is above soft's, so automatic choice picks it wherever the library loads and an RDMA port is
 * active.
 * <p>
 * The library comes from the classifier jar ({@code io.ibex:rdma-core-api:VERSION:linux-x86_64}), or
 * {@code -Dibex.native.library=FILE}, or {@code java.library.path} ({@link NativeLibrary}); no JVM flag is
 * needed. {@link #availability()} says what is missing and how to fix it. Devices are the ones librdmacm opens for the process ({@code rdma_get_devices}), so the
 * contexts opened here and those of rdma_cm ids are the same.
 */
public final class DisniProvider implements RdmaProvider
{
    /** The provider name. */
    public static final String NAME = "disni";
    /** The automatic-choice priority: above the soft provider's. */
    public static final int PRIORITY = 20;
    /** The count of open disni objects, for {@link #liveResources()}. */
    static final AtomicInteger LIVE = new AtomicInteger();

    private static final int ENODEV = 19;
    private static Setup setup;

    /**
     * What the one-time set-up found: the devices, or why there are none.
     *
     * @param devices the devices (empty when the set-up failed).
     * @param problem null, or why the provider cannot work, in words a user can act on.
     */
    private record Setup(List<DisniDevice> devices, String problem)
    {
    }

    /**
     * Creates the provider; does no I/O (the library is loaded by {@link #availability()} or first use).
     */
    public DisniProvider()
    {
    }

    /**
     * Counts the disni objects (contexts, PDs, MRs, CQs, channels, QPs, AHs, event channels, ids) open in this
     * JVM, for leak tests.
     *
     * @return the number of open disni objects.
     */
    public static int liveResources()
    {
        return LIVE.get();
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
     * Available when the native library of this ibex's version loads, librdmacm finds a device, and some device has an ACTIVE port (a port that is down would only show as a timeout
     * later). Otherwise the reason names what is missing and how to fix it.
     */
    @Override
    public Availability availability()
    {
        final Setup found = setup();
        if (found.problem() != null)
        {
            return Availability.no(found.problem());
        }
        final StringBuilder down = new StringBuilder();
        for (final DisniDevice device : found.devices())
        {
            final String active = device.firstActivePort();
            if (active != null)
            {
                return Availability.yes("kernel verbs through " + NativeLibrary.loaded() + ": " + active);
            }
            down.append(down.length() > 0 ? "; " : "").append(device.portProblems());
        }
        return Availability.no("no RDMA port is active: " + down);
    }

    @Override
    public List<Device> devices()
    {
        return List.copyOf(requireSetUp().devices());
    }

    @Override
    public EventChannel createEventChannel()
    {
        requireSetUp();
        return ProviderResource.opened(new DisniEventChannel(this));
    }

    /**
     * @param context an ibv_context* librdmacm reported (an rdma_cm id's device).
     * @return the device it belongs to.
     */
    DisniDevice device(final long context)
    {
        for (final DisniDevice device : requireSetUp().devices())
        {
            if (device.handle() == context)
            {
                return device;
            }
        }
        throw new IllegalStateException("librdmacm reported a device context 0x" + Long.toHexString(context) +
            " that rdma_get_devices did not list");
    }

    private static Setup requireSetUp()
    {
        final Setup found = setup();
        if (found.problem() != null)
        {
            throw new IllegalStateException("RDMA provider '" + NAME + "' is not available: " + found.problem());
        }
        return found;
    }

    /**
     * Loads and checks the library and lists the devices, once per JVM: librdmacm too lists its devices once.
     */
    private static synchronized Setup setup()
    {
        if (setup == null)
        {
            final String problem = NativeLibrary.load();
            setup = problem != null ? new Setup(List.of(), problem) : listDevices();
        }
        return setup;
    }

    private static Setup listDevices()
    {
        final long[] contexts;
        try
        {
            contexts = IbexNative.contexts();
        }
        catch (final VerbsException ex)
        {
            return new Setup(List.of(), noDevice(ex.errno() == ENODEV ? "librdmacm finds no RDMA device (ENODEV)" :
                "librdmacm cannot list RDMA devices: " + ex.getMessage()));
        }
        if (contexts.length == 0)
        {
            return new Setup(List.of(), noDevice("librdmacm lists no RDMA device"));
        }
        final List<DisniDevice> devices = new ArrayList<>();
        for (final long context : contexts)
        {
            devices.add(new DisniDevice(context));
        }
        return new Setup(List.copyOf(devices), null);
    }

    private static String noDevice(final String what)
    {
        return what + ". List devices with `ibv_devices` or `rdma link show`; without RDMA hardware, create a " +
            "Soft-RoCE device on an Ethernet interface IF with `rdma link add rxe0 type rxe netdev IF` (module " +
            "rdma_rxe), or use the soft provider (-Dibex.provider=soft)";
    }
}
