package io.ibex.rdma.provider.soft.wire;

import org.agrona.IoUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared-memory wire between two processes, both ends in this one over a loopback connection: the stream
 * contract, the negotiation (accepted, declined), the checks of the offered file, its clean-up, and the peer's
 * death or hang.
 */
class SoftSharedMemoryWireTest extends SoftWireContract
{
    private static final long[] BOOT_ID = {1, 2};

    private final Path directory;
    private final ServerSocketChannel server;
    private SoftSharedMemoryWire connector;
    private SoftSocketWire acceptorSocket;
    private SocketChannel acceptedChannel;
    private ByteBuffer hello;

    SoftSharedMemoryWireTest() throws IOException
    {
        directory = Files.createTempDirectory("ibex-shm-test");
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterEach
    void deleteDirectory() throws IOException
    {
        server.close();
        try (Stream<Path> files = Files.list(directory))
        {
            assertEquals(0, files.count(), "no file left behind");
        }
        Files.delete(directory);
    }

    @Override
    SoftWire[] open() throws IOException
    {
        offer();
        final SoftSharedMemoryWire acceptor = SoftSharedMemoryWire.accept(acceptorSocket, hello, directory);
        answer(SoftFrameDescriptor.SHM_ACCEPTED);
        assertTrue(connector.shared());
        return new SoftWire[]{ connector, acceptor };
    }

    @Test
    void theFileIsDeletedOnceAcceptedAndTheHeartbeatsAdvance() throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            assertEquals(0, files.count(), "only the mappings hold the file");
        }
        final SoftSharedMemoryWire acceptor = (SoftSharedMemoryWire)ends[1];
        final long start = System.nanoTime();
        for (int i = 1; i <= 10; i++)
        {
            final long now = start + TimeUnit.MILLISECONDS.toNanos(100) * i;
            assertTrue(connector.tend(now));
            assertTrue(acceptor.tend(now));
        }
        final ByteBuffer in = ByteBuffer.allocateDirect(8);
        assertEquals(0, connector.read(in), "a live peer: nothing to read, no end");
        assertEquals(0, acceptor.read(in));
    }

    @Test
    void aPeerWhoseHeartbeatStandsStillWhileItsProcessRunsIsLostOnlyAsHung() throws IOException
    {
        // both ends are this process, which runs: past the 500 ms timeout, only a still heartbeat of 10 s loses it
        final long start = System.nanoTime();
        assertTrue(connector.tend(start));
        assertTrue(connector.tend(start + TimeUnit.MILLISECONDS.toNanos(600)));
        assertEquals(0, connector.read(ByteBuffer.allocateDirect(8)), "a starved progress thread is no death");
        assertTrue(connector.tend(start + TimeUnit.MILLISECONDS.toNanos(10_100)));
        final IOException lost = assertThrows(IOException.class, () -> connector.read(ByteBuffer.allocateDirect(8)));
        assertTrue(lost.getMessage().contains("heartbeat stood still for 10100 ms"), lost.getMessage());
        assertTrue(lost.getMessage().contains("does not run its progress thread"), lost.getMessage());
        assertThrows(IOException.class, () -> connector.write(ByteBuffer.allocateDirect(8)));
    }

    @Test
    void theStateOfAProcessThatEndedIsGoneAndOfOneThatRunsIsNot() throws Exception
    {
        final Process ended = new ProcessBuilder("true").start();
        assertEquals(0, ended.waitFor());
        assertEquals(SoftSharedMemoryWire.GONE, SoftSharedMemoryWire.processState(ended.pid()));
        final char own = SoftSharedMemoryWire.processState(ProcessHandle.current().pid());
        assertTrue(own == 'R' || own == 'S', "this process is running or sleeping: " + own);
    }

    @Test
    void onlyTheWatchingThreadDrainsTheDoorbellsSoTheyWakeItOnceTheApplicationReadsAgain() throws Exception
    {
        acceptedChannel.configureBlocking(false); // as the progress thread's accept leaves it
        final ExecutorService progressThread = Executors.newSingleThreadExecutor();
        try (Selector selector = Selector.open())
        {
            final SoftWireWatcher progress = new SoftWireWatcher()
            {
                @Override
                public Selector selector()
                {
                    return selector;
                }

                @Override
                public void wakeUp()
                {
                    selector.wakeup();
                }
            };
            final SoftWire acceptor = ends[1];
            progressThread.submit(() ->
            {
                acceptor.watch(progress);
                return null;
            }).get();
            assertEquals(8, connector.write(ByteBuffer.allocateDirect(8)), "the peer writes, and rings");
            final ByteBuffer in = ByteBuffer.allocateDirect(64);
            assertEquals(8, acceptor.read(in), "an application thread reads what came");
            final SelectionKey doorbells = acceptedChannel.keyFor(progress.selector());
            assertEquals(1, progress.selector().select(10_000), "and leaves the doorbell to the watching thread");
            assertTrue(progress.selector().selectedKeys().remove(doorbells));
            in.clear();
            assertEquals(0, progressThread.submit(() -> acceptor.read(in)).get(), "whose read drains it");
            assertEquals(0, progress.selector().selectNow(), "nothing left to wake it");
            progressThread.submit(acceptor::unwatch).get();
        }
        finally
        {
            progressThread.shutdownNow();
        }
    }

    @Test
    void aPeerWhoseConnectionEndsIsLostAfterWhatItWroteIsRead() throws IOException
    {
        final SoftWire acceptor = ends[1];
        assertEquals(5, acceptor.write(ByteBuffer.allocateDirect(5)));
        acceptorSocket.close(); // as the kernel does for a process that dies: the rings are not closed
        assertTrue(connector.tend(System.nanoTime()));
        final ByteBuffer in = ByteBuffer.allocateDirect(64);
        assertEquals(5, connector.read(in), "what the peer wrote before it went");
        final IOException lost = assertThrows(IOException.class, () -> connector.read(in));
        assertTrue(lost.getMessage().contains("closed its connection"), lost.getMessage());
    }

    @Test
    void aDeclinedOfferLinksOverTheConnectionAndDeletesTheFile() throws IOException
    {
        closeWire(); // the accepted wire of this test's set-up
        offer();
        answer(SoftFrameDescriptor.SHM_DECLINED);
        assertFalse(connector.shared());
        assertFalse(connector.tend(System.nanoTime()), "no file to tend");
        final ByteBuffer frame = ByteBuffer.allocateDirect(3);
        assertEquals(3, connector.write(frame));
        final ByteBuffer in = ByteBuffer.allocateDirect(8);
        while (in.position() < 3)
        {
            acceptorSocket.read(in);
        }
        connector.close();
        acceptorSocket.close();
    }

    @Test
    void anAnswerThatIsNeitherAcceptedNorDeclinedFailsTheLink() throws IOException
    {
        closeWire();
        offer();
        final IOException failure = assertThrows(IOException.class, () -> answer(0x12345678));
        assertTrue(failure.getMessage().contains("0x12345678"), failure.getMessage());
        connector.close();
        acceptorSocket.close();
    }

    @Test
    void aCorruptOrForeignFileIsRejectedWithWhatIsWrongAndNotMapped() throws IOException
    {
        closeWire();
        assertRejected((file) -> putInt(file, SoftSharedMemoryDescriptor.MAGIC_OFFSET, 0x0BADF00D),
            "magic is 0xbadf00d");
        assertRejected((file) -> putInt(file, SoftSharedMemoryDescriptor.VERSION_OFFSET, 99), "version is 99");
        assertRejected((file) -> putInt(file, SoftSharedMemoryDescriptor.CAPACITY_OFFSET, 64), "rings of 64");
        assertRejected((file) -> putInt(file, SoftSharedMemoryDescriptor.HEADER_LENGTH_OFFSET, 1 << 30),
            "header 1073741824 bytes");
        assertRejected((file) -> putLong(file, SoftSharedMemoryDescriptor.NONCE_OFFSET, 7), "another link");
        assertRejected((file) -> putInt(file, SoftSharedMemoryDescriptor.STATE_OFFSET, 2), "state is 2");
        assertRejected((file) -> truncate(file, 100), "is 100 bytes long");
        assertRejected((file) -> truncate(file, 0), "is 0 bytes long");
        assertRejected(SoftSharedMemoryWireTest::delete, "does not exist");
    }

    private void assertRejected(final Consumer<Path> corrupt, final String expected) throws IOException
    {
        offer();
        final Path file = directory.resolve(SoftSharedMemoryDescriptor.fileName(ProcessHandle.current().pid(),
            hello.getLong(SoftFrameDescriptor.HELLO_LINK_OFFSET)));
        corrupt.accept(file);
        final IOException rejected = assertThrows(IOException.class,
            () -> SoftSharedMemoryWire.accept(acceptorSocket, hello, directory));
        assertTrue(rejected.toString().contains(expected), rejected.toString());
        if (Files.exists(file))
        {
            assertTrue(Files.size(file) <= SoftSharedMemoryDescriptor.FILE_LENGTH, "the check never grew the file");
        }
        answer(SoftFrameDescriptor.SHM_DECLINED);
        connector.close();
        assertFalse(connector.tend(System.nanoTime()));
        acceptorSocket.close();
    }

    /**
     * Connects to the test's server and offers a new file: {@link #connector}, {@link #acceptorSocket} and the
     * {@link #hello} the acceptor read.
     */
    private void offer() throws IOException
    {
        final SoftSocketWire socket = SoftSocketWire.connect((InetSocketAddress)server.getLocalAddress());
        final ByteBuffer offered = ByteBuffer.allocate(SoftFrameDescriptor.HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        connector = SoftSharedMemoryWire.offer(socket, offered, directory, System.nanoTime(), BOOT_ID);
        acceptedChannel = server.accept();
        acceptorSocket = SoftSocketWire.accepted(acceptedChannel);
        hello = ByteBuffer.allocate(SoftFrameDescriptor.HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        while (hello.hasRemaining())
        {
            assertFalse(connector.finishConnect(), "no frames before the answer");
            assertTrue(acceptorSocket.read(hello) >= 0);
        }
        assertEquals(SoftFrameDescriptor.HELLO_FLAG_SHARED_MEMORY,
            hello.getInt(SoftFrameDescriptor.HELLO_FLAGS_OFFSET));
        assertEquals(BOOT_ID[1], hello.getLong(SoftFrameDescriptor.HELLO_BOOT_ID_OFFSET + Long.BYTES));
        assertEquals(0, connector.write(ByteBuffer.allocateDirect(8)), "nothing is sent before the answer");
        final Path offeredFile = directory.resolve(SoftSharedMemoryDescriptor.fileName(ProcessHandle.current().pid(),
            hello.getLong(SoftFrameDescriptor.HELLO_LINK_OFFSET)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(offeredFile)),
            "no other user may open the link's file while it waits for its answer");
    }

    private void answer(final int answer) throws IOException
    {
        final ByteBuffer said =
            ByteBuffer.allocate(SoftFrameDescriptor.SHM_ANSWER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        said.putInt(0, answer);
        assertEquals(SoftFrameDescriptor.SHM_ANSWER_LENGTH, acceptorSocket.write(said));
        while (!connector.finishConnect())
        {
            Thread.onSpinWait();
        }
        assertFalse(Files.exists(directory.resolve(SoftSharedMemoryDescriptor.fileName(ProcessHandle.current().pid(),
            hello.getLong(SoftFrameDescriptor.HELLO_LINK_OFFSET)))), "the file is deleted once answered");
    }

    private static void putInt(final Path file, final int offset, final int value)
    {
        edit(file, (mapped) -> mapped.putInt(offset, value));
    }

    private static void putLong(final Path file, final int offset, final long value)
    {
        edit(file, (mapped) -> mapped.putLong(offset, value));
    }

    private static void edit(final Path file, final Consumer<MappedByteBuffer> edit)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
            mapped.order(ByteOrder.nativeOrder());
            edit.accept(mapped);
            IoUtil.unmap(mapped);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void truncate(final Path file, final long length)
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            channel.truncate(length);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static void delete(final Path file)
    {
        try
        {
            Files.delete(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
