package io.ibex.rdma.provider.disni;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Properties;

/**
 * Finds, loads and checks the disni provider's native library, the first of: the file named by
 * {@code -Dibex.native.library} (an explicit path always wins), {@code libdisni.so} on
 * {@code java.library.path}, or the class-path resource {@link #resourceName()} (the classifier jar), copied
 * into a fresh 0700 temporary directory, loaded and deleted. A library of another ibex version is refused.
 */
final class NativeLibrary
{
    /** The system property naming the library file to load. */
    static final String PATH_PROPERTY = "ibex.native.library";
    /** The name on java.library.path: libdisni.so, as DiSNI's own Java loads it too. */
    static final String LIBRARY = "disni";

    private static final String INSTALL = "install them: Debian/Ubuntu `apt-get install libibverbs1 librdmacm1 " +
        "ibverbs-providers`, RHEL/Fedora `dnf install rdma-core libibverbs librdmacm`";
    private static String problem;
    private static String loaded;
    private static boolean attempted;

    private NativeLibrary()
    {
    }

    /**
     * Loads and checks the library, once per JVM.
     *
     * @return null when the library of this ibex's version is loaded, else what is wrong and how to fix it.
     */
    static synchronized String load()
    {
        if (!attempted)
        {
            attempted = true;
            problem = loadAndCheck();
        }
        return problem;
    }

    /**
     * @return the file the library was loaded from (or how it was found), null before {@link #load()}.
     */
    static synchronized String loaded()
    {
        return loaded;
    }

    /**
     * @return the class-path resource of this machine's library, e.g.
     *         {@code META-INF/native/libibex-rdma-linux-x86_64.so}.
     */
    static String resourceName()
    {
        return "META-INF/native/libibex-rdma-" + platform() + ".so";
    }

    /**
     * @return this machine's classifier: {@code linux-x86_64}, {@code linux-aarch_64}, or os.name-os.arch.
     */
    static String platform()
    {
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).replace(" ", "");
        final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return (os.startsWith("linux") ? "linux" : os) + "-" + switch (arch)
        {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch_64";
            default -> arch;
        };
    }

    /**
     * @return the ibex version this jar was built as, from {@code ibex-native.properties}.
     */
    static String expectedVersion()
    {
        final Properties properties = new Properties();
        try (InputStream in = NativeLibrary.class.getResourceAsStream("ibex-native.properties"))
        {
            if (in != null)
            {
                properties.load(in);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read ibex-native.properties", ex);
        }
        return properties.getProperty("version", "unknown");
    }

    /**
     * @param file  the library file (or how it was found).
     * @param error the UnsatisfiedLinkError's message.
     * @return why the library does not load, naming the packages to install when libibverbs or librdmacm is
     *         missing.
     */
    static String loadFailure(final String file, final String error)
    {
        if (error != null && (error.contains("libibverbs.so") || error.contains("librdmacm.so")))
        {
            return file + " needs libibverbs.so.1 and librdmacm.so.1, which this machine lacks (" + error + "): " +
                INSTALL;
        }
        return file + " does not load: " + error + " (it needs libibverbs.so.1 and librdmacm.so.1: " + INSTALL + ")";
    }

    /**
     * Copies a library resource into a fresh directory only the owner may use.
     *
     * @param resource the resource.
     * @return the copy, in a new 0700 directory; the caller deletes both.
     * @throws IOException when the copy fails.
     */
    static Path extract(final URL resource) throws IOException
    {
        final Path dir = Files.createTempDirectory("ibex-native",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path file = dir.resolve(resource.getPath().substring(resource.getPath().lastIndexOf('/') + 1));
        try (InputStream in = resource.openStream())
        {
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            delete(file);
            throw ex;
        }
        return file;
    }

    /**
     * Deletes an extracted library and its directory; the loaded mapping stays valid.
     *
     * @param file what {@link #extract(URL)} returned.
     */
    static void delete(final Path file)
    {
        try
        {
            Files.deleteIfExists(file);
            Files.deleteIfExists(file.getParent());
        }
        catch (final IOException ex)
        {
            file.toFile().deleteOnExit();
        }
    }

    private static String loadAndCheck()
    {
        final String explicit = System.getProperty(PATH_PROPERTY);
        if (explicit != null && !explicit.isBlank())
        {
            final File file = new File(explicit).getAbsoluteFile();
            if (!file.isFile())
            {
                return "-D" + PATH_PROPERTY + "=" + explicit + " names no file";
            }
            return loadFile(file.getPath(), file.getPath());
        }
        final String onPath = onLibraryPath();
        if (onPath != null)
        {
            return loadFile(null, onPath);
        }
        final URL resource = NativeLibrary.class.getClassLoader().getResource(resourceName());
        if (resource == null)
        {
            return "no native library for " + platform() + ": add the dependency io.ibex:rdma-core-api:" +
                expectedVersion() + ":" + platform() + " (the classifier jar holding " + resourceName() + "), or " +
                "name a library file with -D" + PATH_PROPERTY + "=FILE";
        }
        final Path file;
        try
        {
            file = extract(resource);
        }
        catch (final IOException ex)
        {
            return "cannot copy " + resource + " to a temporary directory: " + ex;
        }
        try
        {
            return loadFile(file.toString(), resource + " (copied to " + file + ")");
        }
        finally
        {
            delete(file);
        }
    }

    /**
     * @param path      the file to load, or null for {@link #LIBRARY} on java.library.path.
     * @param described the file, or where it came from, for {@link #loaded()} and the messages.
     */
    private static String loadFile(final String path, final String described)
    {
        try
        {
            if (path == null)
            {
                System.loadLibrary(LIBRARY);
            }
            else
            {
                System.load(path);
            }
        }
        catch (final UnsatisfiedLinkError ex)
        {
            return loadFailure(described, ex.getMessage());
        }
        loaded = described;
        return check(described);
    }

    /**
     * @return the java.library.path entry's libdisni.so, or null when none holds one.
     */
    private static String onLibraryPath()
    {
        final String name = System.mapLibraryName(LIBRARY);
        for (final String dir : System.getProperty("java.library.path", "").split(File.pathSeparator))
        {
            final File file = new File(dir.isEmpty() ? "." : dir, name);
            if (file.isFile())
            {
                return file.getAbsolutePath();
            }
        }
        return null;
    }

    private static String check(final String described)
    {
        final int version;
        try
        {
            version = IbexNative.version();
        }
        catch (final UnsatisfiedLinkError ex)
        {
            return described + " is not ibex's native library (it lacks IbexNative, e.g. DiSNI's own libdisni.so): " +
                "remove it or name ibex's with -D" + PATH_PROPERTY + "=FILE";
        }
        final String expected = expectedVersion();
        if (version != IbexNative.VERSION)
        {
            return described + " implements IbexNative version " + version + " (an ibex other than " + expected +
                "), this ibex " + expected + " needs version " + IbexNative.VERSION + ": use the native library " +
                "of ibex " + expected;
        }
        final String built = IbexNative.projectVersion();
        if (!expected.equals(built))
        {
            return described + " was built for ibex " + built + ", this is ibex " + expected + ": use the native " +
                "library of ibex " + expected + " (the classifier jar of the same version)";
        }
        return null;
    }
}
