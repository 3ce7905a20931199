package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftSharedRegionDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The start-up removal of the shared-memory files that ended processes left behind ({@link SoftSharedMemory}).
 */
class SoftSharedMemoryTest
{
    @TempDir
    Path directory;

    @Test
    void staleFilesOfEndedProcessesAreRemovedAndNoOthers() throws Exception
    {
        final Process ended = new ProcessBuilder("true").start();
        assertEquals(0, ended.waitFor());
        final Path stale = Files.createFile(directory.resolve(SoftSharedMemoryDescriptor.fileName(ended.pid(), 3)));
        final Path live = Files.createFile(
            directory.resolve(SoftSharedMemoryDescriptor.fileName(ProcessHandle.current().pid(), 4)));
        final Path staleRegion =
            Files.createFile(directory.resolve(SoftSharedRegionDescriptor.fileName(ended.pid(), 0x1201)));
        final Path liveRegion = Files.createFile(
            directory.resolve(SoftSharedRegionDescriptor.fileName(ProcessHandle.current().pid(), 0x1301)));
        final Path other = Files.createFile(directory.resolve("ibex-notes.shm"));
        final Path almost = Files.createFile(directory.resolve("ibex-" + ended.pid() + "-mr-x.shm"));
        SoftSharedMemory.removeStaleFiles(directory);
        assertFalse(Files.exists(stale));
        assertFalse(Files.exists(staleRegion));
        assertTrue(Files.exists(live));
        assertTrue(Files.exists(liveRegion));
        assertTrue(Files.exists(other));
        assertTrue(Files.exists(almost));
        for (final Path kept : new Path[]{ live, liveRegion, other, almost })
        {
            Files.delete(kept);
        }
    }
}
