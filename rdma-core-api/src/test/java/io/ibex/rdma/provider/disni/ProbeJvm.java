package io.ibex.rdma.provider.disni;

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

/**
 * Runs {@link AvailabilityProbe} in a JVM of its own (how a library loads is per JVM), and builds fake native
 * libraries with gcc, for the tests of how the disni provider finds its library.
 */
final class ProbeJvm
{
    /** Where the Maven build puts libdisni.so: target/native beside target/classes. */
    static final Path NATIVE = nativeDirectory();
    /** The JDK's JNI headers. */
    static final Path JNI_INCLUDE = Path.of(System.getProperty("java.home"), "include");

    private ProbeJvm()
    {
    }

    /**
     * @param jvmArgs   the JVM flags under test.
     * @param classPath extra class-path entries (none: the provider's own classes only).
     * @return the probe's output: available=, reason=, loaded=, auto=.
     */
    static String probe(final List<String> jvmArgs, final Path... classPath) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        final List<String> entries = new ArrayList<>();
        for (final Class<?> type : List.of(AvailabilityProbe.class, DisniProvider.class, org.slf4j.Logger.class,
            org.agrona.BufferUtil.class))
        {
            entries.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        for (final Path entry : classPath)
        {
            entries.add(entry.toString());
        }
        command.add(String.join(File.pathSeparator, entries));
        command.add(AvailabilityProbe.class.getName());
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("LD_LIBRARY_PATH");
        builder.environment().remove("IBEX_PROVIDER");
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    /** @return true when gcc and the JNI headers are there to build a fake library. */
    static boolean canBuildFakes()
    {
        if (!Files.isDirectory(JNI_INCLUDE))
        {
            return false;
        }
        for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        {
            if (Files.isExecutable(Path.of(dir, "gcc")))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Builds a library whose IbexNative.version and projectVersion return the given values.
     *
     * @param file           the .so to write.
     * @param version        what IbexNative.version returns.
     * @param projectVersion what IbexNative.projectVersion returns, or null to leave it out.
     * @param extraLibrary   a library to link against (its soname becomes a dependency), or null.
     * @return file.
     */
    static Path fakeLibrary(final Path file, final int version, final String projectVersion, final Path extraLibrary)
        throws Exception
    {
        final String prefix = "JNIEXPORT %s JNICALL Java_io_ibex_rdma_provider_disni_IbexNative_%s(JNIEnv *e, " +
            "jclass c)\n";
        String code = "#include <jni.h>\n" + String.format(prefix, "jint", "version") +
            "{ (void)e; (void)c; return " + version + "; }\n";
        if (projectVersion != null)
        {
            code += String.format(prefix, "jstring", "projectVersion") + "{ (void)c; return (*e)->NewStringUTF(e, \"" +
                projectVersion + "\"); }\n";
        }
        final Path source = file.resolveSibling(file.getFileName() + ".c");
        Files.writeString(source, code);
        final List<String> gcc = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-I" + JNI_INCLUDE,
            "-I" + JNI_INCLUDE.resolve("linux"), "-o", file.toString(), source.toString()));
        if (extraLibrary != null)
        {
            gcc.add("-Wl,--no-as-needed"); // keep the dependency although no symbol of it is used
            gcc.add(extraLibrary.toString());
        }
        final Process process = new ProcessBuilder(gcc).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, "gcc: " + output);
        return file;
    }

    private static Path nativeDirectory()
    {
        try
        {
            return Path.of(DisniProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolveSibling("native");
        }
        catch (final java.net.URISyntaxException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
