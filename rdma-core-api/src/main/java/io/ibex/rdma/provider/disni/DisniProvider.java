package io.ibex.rdma.provider.disni;

import com.ibm.disni.verbs.RdmaVerbs;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.VerbsException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code disni} provider: the kernel's verbs (InfiniBand, RoCE, Soft-RoCE) through DiSNI 2.1's Java
 * classes and ibex's own JNI class over the same native library, {@code libdisni.so} (see
 * docs/disni-provider.md for which call goes where). Its priority is above soft's, so automatic choice picks
 * it wherever the library loads and an RDMA port is active.
 * <p>
 * The JVM needs the library on {@code java.library.path} (or {@code LD_LIBRARY_PATH}) and, for DiSNI,
 * {@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED}; {@link #availability()} says which is missing and
 * how to fix it. Devices are the ones librdmacm opens for the process ({@code rdma_get_devices}), so the
 * contexts opened here and those of rdma_cm ids are the same.
 */
public final class DisniProvider implements RdmaProvider
{
    /** The provider name. */
    public static final String NAME = "disni";
    /** The automatic-choice priority: above the soft provider's. */
    public static final int PRIORITY = 20;
    /** The JVM flag DiSNI needs on Java 17 and later. */
    public static final String ADD_EXPORTS = "--add-exports java.base/sun.nio.ch=ALL-UNNAMED";

    /** The count of open disni objects, for {@link #liveResources()}. */
    static final AtomicInteger LIVE = new AtomicInteger();

    private static final String LIBRARY = "disni";
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
     * Available when libdisni.so of this ibex's version loads, the JVM exports sun.nio.ch to DiSNI, librdmacm
     * finds a device, and some device has an ACTIVE port (a port that is down would only show as a timeout
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
                return Availability.yes("kernel verbs through libdisni.so: " + active);
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
            final String problem = libraryProblem();
            setup = problem != null ? new Setup(List.of(), problem) : listDevices();
        }
        return setup;
    }

    private static String libraryProblem()
    {
        final String path = System.getProperty("java.library.path");
        try
        {
            System.loadLibrary(LIBRARY);
        }
        catch (final UnsatisfiedLinkError ex)
        {
            if (String.valueOf(ex.getMessage()).startsWith("no " + LIBRARY + " in java.library.path"))
            {
                return "the native library " + System.mapLibraryName(LIBRARY) + " is not on java.library.path (" +
                    path + "). Build it with `mvn package` on a machine with libibverbs-dev and librdmacm-dev " +
                    "installed (it is written to rdma-core-api/target/native), then start the JVM with " +
                    "-Djava.library.path=DIR or add DIR to LD_LIBRARY_PATH";
            }
            return System.mapLibraryName(LIBRARY) + " was found but does not load: " + ex.getMessage() +
                " (it needs libibverbs and librdmacm: apt-get install libibverbs1 librdmacm1 ibverbs-providers)";
        }
        final int version;
        try
        {
            version = IbexNative.version();
        }
        catch (final UnsatisfiedLinkError ex)
        {
            return "the " + System.mapLibraryName(LIBRARY) + " on java.library.path (" + path + ") is not ibex's " +
                "(it lacks IbexNative, e.g. DiSNI's own build): point java.library.path at ibex's " +
                "rdma-core-api/target/native";
        }
        if (version != IbexNative.VERSION)
        {
            return "the " + System.mapLibraryName(LIBRARY) + " on java.library.path (" + path + ") implements " +
                "IbexNative version " + version + ", this ibex needs version " + IbexNative.VERSION + ": rebuild it " +
                "from this ibex's sources with `mvn package` and point java.library.path at its " +
                "rdma-core-api/target/native";
        }
        if (!Object.class.getModule().isExported("sun.nio.ch", DisniProvider.class.getModule()))
        {
            return "DiSNI reads direct-buffer addresses through sun.nio.ch, which Java " + Runtime.version().feature() +
                " does not export: start the JVM with " + ADD_EXPORTS + " (an executable jar can carry " +
                "'Add-Exports: java.base/sun.nio.ch' in its manifest instead)";
        }
        try
        {
            RdmaVerbs.open(); // DiSNI's own start-up: checks the library's NativeDispatcher version and layouts
        }
        catch (final IOException ex)
        {
            return "DiSNI refuses " + System.mapLibraryName(LIBRARY) + ": " + ex.getMessage();
        }
        return null;
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
