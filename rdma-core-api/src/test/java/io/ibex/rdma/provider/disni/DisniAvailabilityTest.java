package io.ibex.rdma.provider.disni;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the disni provider tells a user whose JVM cannot use it, on a machine without RDMA devices (the
 * host): each case runs {@link AvailabilityProbe} in a JVM of its own, with the flags under test, and
 * automatic choice must fall back to soft.
 */
@Timeout(120)
class DisniAvailabilityTest
{
    /** Where the Maven build puts libdisni.so. */
    private static final Path NATIVE = Path.of("target", "native");

    @Test
    void withoutTheLibrarySaysHowToBuildItAndPointTheJvmAtIt() throws Exception
    {
        final String out = probe("/nonexistent/ibex-native", true);

        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains("libdisni.so is not on java.library.path (/nonexistent/ibex-native)"), out);
        assertTrue(out.contains("`mvn package`") && out.contains("libibverbs-dev and librdmacm-dev"), out);
        assertTrue(out.contains("rdma-core-api/target/native"), out);
        assertTrue(out.contains("-Djava.library.path=DIR") && out.contains("LD_LIBRARY_PATH"), out);
        assertTrue(out.contains("auto=soft"), out);
    }

    @Test
    void withoutAddExportsNamesTheFlagAndTheManifestEntry() throws Exception
    {
        assumeTrue(Files.exists(NATIVE.resolve("libdisni.so")), "libdisni.so was not built (no verbs headers)");

        final String out = probe(NATIVE.toAbsolutePath().toString(), false);

        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains("start the JVM with --add-exports java.base/sun.nio.ch=ALL-UNNAMED"), out);
        assertTrue(out.contains("'Add-Exports: java.base/sun.nio.ch'"), out);
        assertTrue(out.contains("auto=soft"), out);
    }

    @Test
    void withoutADeviceSaysHowToListAndCreateOne() throws Exception
    {
        assumeTrue(Files.exists(NATIVE.resolve("libdisni.so")), "libdisni.so was not built (no verbs headers)");
        assumeTrue(!hasRdmaDevices(), "this machine has RDMA devices");

        final String out = probe(NATIVE.toAbsolutePath().toString(), true);

        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains("librdmacm finds no RDMA device (ENODEV)"), out);
        assertTrue(out.contains("`ibv_devices`") && out.contains("`rdma link show`"), out);
        assertTrue(out.contains("`rdma link add rxe0 type rxe netdev IF`"), out);
        assertTrue(out.contains("auto=soft"), out);
    }

    @Test
    void aLibraryOfAnotherVersionIsRefusedWithBothVersions(@TempDir final Path dir) throws Exception
    {
        final Path jdkInclude = Path.of(System.getProperty("java.home"), "include");
        assumeTrue(Files.isDirectory(jdkInclude) && onPath("gcc"), "needs gcc and the JDK's JNI headers");
        final Path source = dir.resolve("fake.c");
        Files.writeString(source, "#include <jni.h>\n" +
            "JNIEXPORT jint JNICALL Java_io_ibex_rdma_provider_disni_IbexNative_version(JNIEnv *e, jclass c)\n" +
            "{ (void)e; (void)c; return 999; }\n");
        assertEquals(0, run(List.of("gcc", "-shared", "-fPIC", "-I" + jdkInclude, "-I" + jdkInclude.resolve("linux"),
            "-o", dir.resolve("libdisni.so").toString(), source.toString())).exitValue, "gcc");

        final String out = probe(dir.toString(), true);

        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains("implements IbexNative version 999, this ibex needs version " +
            IbexNative.VERSION), out);
        assertTrue(out.contains("rebuild it from this ibex's sources"), out);
        assertTrue(out.contains("auto=soft"), out);
    }

    private static String probe(final String libraryPath, final boolean exports) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (exports)
        {
            command.add("--add-exports");
            command.add("java.base/sun.nio.ch=ALL-UNNAMED");
        }
        command.add("-Djava.library.path=" + libraryPath);
        command.add("-cp");
        command.add(classPath(AvailabilityProbe.class, DisniProvider.class, com.ibm.disni.verbs.RdmaVerbs.class,
            org.slf4j.Logger.class, org.agrona.BufferUtil.class));
        command.add(AvailabilityProbe.class.getName());
        final Result result = run(command);
        assertEquals(0, result.exitValue, result.output);
        return result.output;
    }

    /**
     * @return where the classes were loaded from (surefire's java.class.path is a manifest-only jar, the JUnit
     *         console launcher's is its own jar).
     */
    private static String classPath(final Class<?>... classes) throws Exception
    {
        final List<String> entries = new ArrayList<>();
        for (final Class<?> type : classes)
        {
            entries.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    private record Result(int exitValue, String output)
    {
    }

    private static Result run(final List<String> command) throws IOException, InterruptedException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("LD_LIBRARY_PATH");
        builder.environment().remove("IBEX_PROVIDER");
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        return new Result(process.exitValue(), output);
    }

    private static boolean onPath(final String tool)
    {
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        {
            if (Files.isExecutable(Path.of(dir, tool)))
            {
                return true;
            }
        }
        return false;
    }

    private static boolean hasRdmaDevices() throws IOException
    {
        final Path devices = Path.of("/sys/class/infiniband");
        if (!Files.isDirectory(devices))
        {
            return false;
        }
        try (var list = Files.list(devices))
        {
            return list.findAny().isPresent();
        }
    }
}
