package io.ibex.rdma.provider.disni;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the disni provider tells a user whose JVM cannot use it, on a machine without RDMA devices (the
 * host): each case runs {@link AvailabilityProbe} in a JVM of its own ({@link ProbeJvm}), with no JVM flag
 * but the library's location, and automatic choice must fall back to soft. Where the library comes from and
 * which it refuses: {@link NativeLibraryTest}.
 */
@Timeout(120)
class DisniAvailabilityTest
{
    @Test
    void withTheLibraryAndNoOtherFlagReachesTheDevices() throws Exception
    {
        assumeTrue(Files.exists(ProbeJvm.NATIVE.resolve("libdisni.so")), "libdisni.so was not built (no verbs headers)");
        assumeTrue(!hasRdmaDevices(), "this machine has RDMA devices");

        final String out = ProbeJvm.probe(List.of("-Djava.library.path=" + ProbeJvm.NATIVE.toAbsolutePath()));

        assertTrue(out.contains("available=false"), out);
        assertTrue(out.contains("librdmacm finds no RDMA device (ENODEV)"), out);
        assertTrue(out.contains("`ibv_devices`") && out.contains("`rdma link show`"), out);
        assertTrue(out.contains("`rdma link add rxe0 type rxe netdev IF`"), out);
        assertTrue(out.contains("auto=soft"), out);
    }

    @Test
    void disnisOwnLibraryIsRefused() throws Exception
    {
        assumeTrue(ProbeJvm.canBuildFakes(), "needs gcc and the JDK's JNI headers");
        final Path dir = Files.createTempDirectory("disni-own");
        try
        {
            final Path source = Files.writeString(dir.resolve("libdisni.so.c"), "int disni_only;\n");
            final Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-o", dir.resolve("libdisni.so").toString(),
                source.toString()).redirectErrorStream(true).start();
            assertTrue(gcc.waitFor() == 0, new String(gcc.getInputStream().readAllBytes()));

            final String out = ProbeJvm.probe(List.of("-Djava.library.path=" + dir));

            assertTrue(out.contains("available=false"), out);
            assertTrue(out.contains(dir.resolve("libdisni.so") + " is not ibex's native library"), out);
            assertTrue(out.contains("auto=soft"), out);
        }
        finally
        {
            for (final String name : List.of("libdisni.so", "libdisni.so.c"))
            {
                Files.deleteIfExists(dir.resolve(name));
            }
            Files.delete(dir);
        }
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
