package io.ibex.rdma.provider.disni;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Where the disni provider's native library comes from and what it refuses: each case runs a JVM of its own
 * ({@link ProbeJvm}) with the library path, property and class path under test.
 */
@Timeout(120)
class NativeLibraryTest
{
    private static final String VERSION = NativeLibrary.expectedVersion();

    @Test
    void anExplicitPathWinsOverJavaLibraryPath(@TempDir final Path dir) throws Exception
    {
        assumeTrue(Files.exists(ProbeJvm.NATIVE.resolve("libdisni.so")), "libdisni.so was not built");
        assumeTrue(ProbeJvm.canBuildFakes(), "needs gcc and the JDK's JNI headers");
        final Path decoy = Files.createDirectory(dir.resolve("path"));
        ProbeJvm.fakeLibrary(decoy.resolve("libdisni.so"), 999, "0.0.0-decoy", null);
        final Path real = Files.copy(ProbeJvm.NATIVE.resolve("libdisni.so"), dir.resolve("ibex-real.so"));

        final String out = ProbeJvm.probe(List.of("-Djava.library.path=" + decoy,
            "-Dibex.native.library=" + real));

        assertTrue(out.contains("loaded=" + real), out);
        assertFalse(out.contains("decoy") || out.contains("999"), out);
    }

    @Test
    void javaLibraryPathIsUsedWithoutTheProperty(@TempDir final Path dir) throws Exception
    {
        assumeTrue(ProbeJvm.canBuildFakes(), "needs gcc and the JDK's JNI headers");
        final Path library = ProbeJvm.fakeLibrary(dir.resolve("libdisni.so"), IbexNative.VERSION, "0.0.0-other", null);

        final String out = ProbeJvm.probe(List.of("-Djava.library.path=" + dir));

        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains(library + " was built for ibex 0.0.0-other, this is ibex " + VERSION), out);
        assertTrue(out.contains("auto=soft"), out);
    }

    @Test
    void anotherIbexNativeVersionIsRefusedWithBothVersions(@TempDir final Path dir) throws Exception
    {
        assumeTrue(ProbeJvm.canBuildFakes(), "needs gcc and the JDK's JNI headers");
        final Path library = ProbeJvm.fakeLibrary(dir.resolve("old.so"), IbexNative.VERSION - 1, null, null);

        final String out = ProbeJvm.probe(List.of("-Dibex.native.library=" + library));

        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains(library + " implements IbexNative version " + (IbexNative.VERSION - 1)), out);
        assertTrue(out.contains("this ibex " + VERSION + " needs version " + IbexNative.VERSION), out);
    }

    @Test
    void theClassPathResourceIsCopiedLoadedAndDeleted(@TempDir final Path dir) throws Exception
    {
        assumeTrue(ProbeJvm.canBuildFakes(), "needs gcc and the JDK's JNI headers");
        final Path jarRoot = dir.resolve("jar");
        final Path resource = jarRoot.resolve(NativeLibrary.resourceName());
        Files.createDirectories(resource.getParent());
        ProbeJvm.fakeLibrary(resource, IbexNative.VERSION, "0.0.0-in-jar", null);

        final String out = ProbeJvm.probe(List.of("-Djava.library.path=" + dir.resolve("empty")), jarRoot);

        final Matcher copied = Pattern.compile("copied to (\\S+\\.so)\\)").matcher(out);
        assertTrue(copied.find(), out);
        final Path copy = Path.of(copied.group(1));
        assertTrue(out.contains("was built for ibex 0.0.0-in-jar, this is ibex " + VERSION), out);
        assertTrue(copy.getParent().getFileName().toString().startsWith("ibex-native"), out);
        assertFalse(Files.exists(copy), "the copy is deleted once loaded: " + copy);
        assertFalse(Files.exists(copy.getParent()), "its directory too: " + copy.getParent());
    }

    @Test
    void extractionUsesADirectoryOnlyTheOwnerCanUse(@TempDir final Path dir) throws Exception
    {
        final Path source = Files.writeString(dir.resolve("libibex-rdma-test.so"), "not a library");

        final Path copy = NativeLibrary.extract(source.toUri().toURL());
        try
        {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(copy.getParent())));
            assertEquals("libibex-rdma-test.so", copy.getFileName().toString());
            assertEquals("not a library", Files.readString(copy));
        }
        finally
        {
            NativeLibrary.delete(copy);
        }
        assertFalse(Files.exists(copy.getParent()));
    }

    @Test
    void withoutAnyLibraryNamesTheClassifierDependency(@TempDir final Path dir) throws Exception
    {
        final String out = ProbeJvm.probe(List.of("-Djava.library.path=" + dir));

        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains("no native library for " + NativeLibrary.platform() + ": add the dependency " +
            "io.ibex:rdma-core-api:" + VERSION + ":" + NativeLibrary.platform()), out);
        assertTrue(out.contains("-Dibex.native.library=FILE"), out);
        assertFalse(out.contains("mvn package"), out);
        assertTrue(out.contains("auto=soft"), out);
    }

    @Test
    void aMissingVerbsLibraryNamesThePackagesToInstall(@TempDir final Path dir) throws Exception
    {
        assumeTrue(ProbeJvm.canBuildFakes(), "needs gcc and the JDK's JNI headers");
        // A dependency whose soname the dynamic linker cannot find, named as libibverbs is.
        final Path absent = dir.resolve("build").resolve("libibverbs.so.0-absent");
        Files.createDirectories(absent.getParent());
        final Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-Wl,-soname,libibverbs.so.0-absent",
            "-o", absent.toString(), "-x", "c", "/dev/null").redirectErrorStream(true).start();
        assertEquals(0, gcc.waitFor(), new String(gcc.getInputStream().readAllBytes()));
        final Path library = ProbeJvm.fakeLibrary(dir.resolve("needs-verbs.so"), IbexNative.VERSION, VERSION, absent);
        Files.delete(absent);

        final String out = ProbeJvm.probe(List.of("-Dibex.native.library=" + library));

        assertTrue(out.contains(library + " needs libibverbs.so.1 and librdmacm.so.1, which this machine lacks"), out);
        assertTrue(out.contains("apt-get install libibverbs1 librdmacm1 ibverbs-providers"), out);
        assertTrue(out.contains("dnf install rdma-core libibverbs librdmacm"), out);
        assertTrue(out.contains("auto=soft"), out);
    }

    @Test
    void theMessageBuilderTellsAMissingDependencyFromOtherFailures()
    {
        final String missing = NativeLibrary.loadFailure("/x/lib.so",
            "/x/lib.so: librdmacm.so.1: cannot open shared object file: No such file or directory");
        final String other = NativeLibrary.loadFailure("/x/lib.so", "/x/lib.so: invalid ELF header");

        assertTrue(missing.contains("which this machine lacks") && missing.contains("libibverbs1 librdmacm1"),
            missing);
        assertTrue(other.startsWith("/x/lib.so does not load: /x/lib.so: invalid ELF header"), other);
    }
}
