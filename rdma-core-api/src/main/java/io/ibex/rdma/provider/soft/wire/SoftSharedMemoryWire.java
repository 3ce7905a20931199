package io.ibex.rdma.provider.soft.wire;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A link to a QP of another process on this host (or of this device, with {@code ibex.soft.localLinks=shm}): the
 * frames go through two {@link SoftByteRing}s in a file both processes map (see {@link SoftSharedMemoryDescriptor}),
 * so a frame costs two copies and no system call, as with a {@link SoftMemoryWire}. The TCP connection the link
 * was negotiated on stays open beside it, as the side channel for what memory cannot do: it rings the peer's
 * progress thread awake (one byte, only while that thread waits for the link), and its end tells of the peer's
 * death at once. A peer that hangs instead stops its heartbeat in the file, which {@link #tend} notices.
 * <p>
 * The connecting side {@link #offer}s the file in its HELLO and sends nothing more until the answer: accepted, the
 * rings carry the frames; declined, the connection does, as for a plain {@link SoftSocketWire}.
 * <p>
 * Not thread-safe, as every wire: the owning QP's lock guards it, except {@link #tend}, which the progress thread
 * calls. One class, though over 500 lines: the negotiation, the rings and the liveness checks all act on the one
 * mapped file and its state word.
 */
public final class SoftSharedMemoryWire implements SoftWire
{
    private static final int NEGOTIATING = 0;
    private static final int SHARED = 1;
    private static final int SOCKET = 2;
    /** Tending reads the connection (a system call): once a millisecond is enough for a 500 ms timeout. */
    private static final long TEND_INTERVAL_NANOS = 1_000_000L;
    /** {@link #processState} of a process that does not exist. */
    static final char GONE = '-';
    /** {@link #processState} of a process stopped by a signal (SIGSTOP, SIGTSTP). */
    private static final char STOPPED = 'T';
    /** {@link #processState} of a process a debugger stopped. */
    private static final char TRACING_STOPPED = 't';

    private final SoftSocketWire socket;
    private final Path file; // the connecting side's until answered: deleted then, or at close
    private final MappedByteBuffer mapping;
    private final UnsafeBuffer header;
    private final SoftByteRing in;
    private final SoftByteRing out;
    private final int ownHeartbeatOffset;
    private final int peerHeartbeatOffset;
    private final int ownGateOffset;
    private final int peerGateOffset;
    private final Path directory;
    private final ByteBuffer hello;
    private final ByteBuffer answer = ByteBuffer.allocate(SoftFrameDescriptor.SHM_ANSWER_LENGTH)
        .order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer doorbell = ByteBuffer.allocateDirect(1);
    private final ByteBuffer drained = ByteBuffer.allocateDirect(64); // the progress thread's reads of the doorbells
    private volatile int mode;
    private volatile boolean closed;
    private volatile String peerGone; // why the peer is gone, or null while it lives
    // progress thread only
    private Thread watcher; // while it watches the link: the only thread whose reads drain the doorbells (others
                            // compare it with themselves, never equal whatever they see)
    private boolean unmapped;
    private long heartbeat;
    private long tendedNanos;
    private long peerHeartbeat;
    private long peerHeartbeatSeenNanos;
    private long peerPid; // set before the mode turns SHARED, which publishes it
    // the owning QP's thread only (under its lock)
    private long ownGate;
    private SoftPeerRegions peerRegions;

    private SoftSharedMemoryWire(
        final SoftSocketWire socket, final boolean connecting, final Path directory, final Path file,
        final MappedByteBuffer mapping, final ByteBuffer hello, final int mode)
    {
        this.socket = socket;
        this.directory = directory;
        this.file = file;
        this.mapping = mapping;
        this.hello = hello;
        this.mode = mode;
        header = new UnsafeBuffer(mapping);
        final SoftByteRing toAcceptor = new SoftByteRing(mapping, SoftSharedMemoryDescriptor.TO_ACCEPTOR_RING_OFFSET);
        final SoftByteRing toConnector =
            new SoftByteRing(mapping, SoftSharedMemoryDescriptor.TO_CONNECTOR_RING_OFFSET);
        in = connecting ? toConnector : toAcceptor;
        out = connecting ? toAcceptor : toConnector;
        final int connectorHeartbeat = SoftSharedMemoryDescriptor.CONNECTOR_HEARTBEAT_OFFSET;
        final int acceptorHeartbeat = SoftSharedMemoryDescriptor.ACCEPTOR_HEARTBEAT_OFFSET;
        ownHeartbeatOffset = connecting ? connectorHeartbeat : acceptorHeartbeat;
        peerHeartbeatOffset = connecting ? acceptorHeartbeat : connectorHeartbeat;
        ownGateOffset = connecting ? SoftSharedMemoryDescriptor.CONNECTOR_GATE_OFFSET :
            SoftSharedMemoryDescriptor.ACCEPTOR_GATE_OFFSET;
        peerGateOffset = connecting ? SoftSharedMemoryDescriptor.ACCEPTOR_GATE_OFFSET :
            SoftSharedMemoryDescriptor.CONNECTOR_GATE_OFFSET;
    }

    /**
     * Creates the file {@code ibex-<pid>-<link>.shm} in {@code directory} and completes {@code hello} (whose first
     * fields are written) to offer it.
     *
     * @throws IOException if the file cannot be created or mapped: the caller links over the connection alone.
     */
    public static SoftSharedMemoryWire offer(
        final SoftSocketWire socket, final ByteBuffer hello, final Path directory, final long link, final long[] bootId)
        throws IOException
    {
        final long pid = ProcessHandle.current().pid();
        final long nonce = ThreadLocalRandom.current().nextLong();
        final Path file = directory.resolve(SoftSharedMemoryDescriptor.fileName(pid, link));
        final MappedByteBuffer mapping;
        try (FileChannel channel = FileChannel.open(file,
            EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))))
        {
            mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, SoftSharedMemoryDescriptor.FILE_LENGTH);
        }
        catch (final IOException | RuntimeException ex)
        {
            Files.deleteIfExists(file);
            throw ex;
        }
        SoftSharedMemoryDescriptor.initialise(new UnsafeBuffer(mapping), nonce, pid);
        hello.putInt(SoftFrameDescriptor.HELLO_FLAGS_OFFSET, SoftFrameDescriptor.HELLO_FLAG_SHARED_MEMORY);
        hello.putLong(SoftFrameDescriptor.HELLO_PID_OFFSET, pid);
        hello.putLong(SoftFrameDescriptor.HELLO_LINK_OFFSET, link);
        hello.putLong(SoftFrameDescriptor.HELLO_NONCE_OFFSET, nonce);
        hello.putLong(SoftFrameDescriptor.HELLO_BOOT_ID_OFFSET, bootId[0]);
        hello.putLong(SoftFrameDescriptor.HELLO_BOOT_ID_OFFSET + Long.BYTES, bootId[1]);
        hello.limit(SoftFrameDescriptor.HELLO_LENGTH).position(0);
        return new SoftSharedMemoryWire(socket, true, directory, file, mapping, hello, NEGOTIATING);
    }

    /**
     * Maps the file a HELLO offers, checks it, marks it accepted and deletes its name.
     *
     * @throws IOException naming what is wrong with the file: the caller declines the offer.
     */
    public static SoftSharedMemoryWire accept(final SoftSocketWire socket, final ByteBuffer hello, final Path directory)
        throws IOException
    {
        final long pid = hello.getLong(SoftFrameDescriptor.HELLO_PID_OFFSET);
        final long nonce = hello.getLong(SoftFrameDescriptor.HELLO_NONCE_OFFSET);
        final Path file = directory.resolve(
            SoftSharedMemoryDescriptor.fileName(pid, hello.getLong(SoftFrameDescriptor.HELLO_LINK_OFFSET)));
        final MappedByteBuffer mapping;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final long size = channel.size();
            if (size != SoftSharedMemoryDescriptor.FILE_LENGTH)
            {
                // checked before mapping: a read-write mapping longer than the file would grow it
                throw new IOException("shared-memory file " + file + " is " + size + " bytes long, not " +
                    SoftSharedMemoryDescriptor.FILE_LENGTH + ": not one offered by ibex " + "(corrupt or foreign)");
            }
            mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        }
        catch (final NoSuchFileException ex)
        {
            throw new IOException("shared-memory file " + file + " does not exist: the offering side closed the " +
                "link meanwhile, or its " + SoftSharedMemoryDescriptor.DIRECTORY_PROPERTY + " is another directory", ex);
        }
        final UnsafeBuffer header = new UnsafeBuffer(mapping);
        final String wrong = SoftSharedMemoryDescriptor.check(header, nonce, pid);
        if (wrong != null)
        {
            IoUtil.unmap(mapping);
            throw new IOException("shared-memory file " + file + " rejected (corrupt or foreign): " + wrong);
        }
        header.putLong(SoftSharedMemoryDescriptor.ACCEPTOR_PID_OFFSET, ProcessHandle.current().pid());
        header.putIntVolatile(SoftSharedMemoryDescriptor.STATE_OFFSET, SoftSharedMemoryDescriptor.STATE_ACCEPTED);
        Files.deleteIfExists(file);
        final SoftSharedMemoryWire wire =
            new SoftSharedMemoryWire(socket, false, directory, null, mapping, null, SHARED);
        wire.peerPid = pid;
        return wire;
    }

    @Override
    public int read(final ByteBuffer dst) throws IOException
    {
        if (closed)
        {
            return -1;
        }
        final int current = mode;
        if (current == SOCKET)
        {
            return socket.read(dst);
        }
        if (current == NEGOTIATING)
        {
            return 0;
        }
        final String gone = peerGone; // read before the ring: what the peer wrote before it went is read first
        if (watcher == Thread.currentThread())
        {
            // an application thread that drives the link again leaves the doorbells: they wake the progress thread,
            // which then sees the application back and stops watching (and the peer stops ringing)
            drainSideChannel(drained);
        }
        final int read = in.read(dst);
        if (read == 0 && gone != null && dst.hasRemaining())
        {
            throw new IOException("the link to " + peer() + " is lost: " + gone);
        }
        return read;
    }

    @Override
    public int write(final ByteBuffer src) throws IOException
    {
        if (closed)
        {
            throw new IOException("the link to " + peer() + " is closed");
        }
        final int current = mode;
        if (current == SOCKET)
        {
            return socket.write(src);
        }
        if (current == NEGOTIATING)
        {
            return 0;
        }
        final String gone = peerGone;
        if (gone != null || out.isClosed())
        {
            throw new IOException("the link to " + peer() + " was closed" +
                (gone != null ? ": " + gone : ""));
        }
        final int written = out.write(src);
        if (written > 0 && out.readerWatching())
        {
            doorbell.clear();
            socket.write(doorbell); // the peer's progress thread waits in its selector; if full, it is awake anyway
        }
        return written;
    }

    /**
     * Connects, sends the HELLO and reads the answer to the offer. Reads are 0 until then, and writes take nothing.
     *
     * @return true once frames can flow.
     */
    @Override
    public boolean finishConnect() throws IOException
    {
        final int current = mode;
        if (current != NEGOTIATING)
        {
            return current == SHARED || socket.finishConnect();
        }
        if (!socket.finishConnect())
        {
            return false;
        }
        if (hello.hasRemaining() && (socket.write(hello) == 0 || hello.hasRemaining()))
        {
            return false;
        }
        if (socket.read(answer) < 0)
        {
            throw new IOException(socket.peer() + " closed the connection before answering the shared-memory offer");
        }
        if (answer.hasRemaining())
        {
            return false;
        }
        Files.deleteIfExists(file); // the peer has mapped it, or will not
        final int said = answer.getInt(0);
        if (said == SoftFrameDescriptor.SHM_ACCEPTED)
        {
            final int state = header.getIntVolatile(SoftSharedMemoryDescriptor.STATE_OFFSET);
            if (state != SoftSharedMemoryDescriptor.STATE_ACCEPTED)
            {
                throw new IOException(socket.peer() + " accepted the shared-memory offer but the file's state is " +
                    state + ", not accepted (" + SoftSharedMemoryDescriptor.STATE_ACCEPTED + ")");
            }
            peerPid = header.getLong(SoftSharedMemoryDescriptor.ACCEPTOR_PID_OFFSET);
            mode = SHARED;
            return true;
        }
        if (said == SoftFrameDescriptor.SHM_DECLINED)
        {
            mode = SOCKET; // after the last touch of the mapping by this thread: the progress thread unmaps it
            return true;
        }
        throw new IOException(socket.peer() + " answered the shared-memory offer with 0x" + Integer.toHexString(said) +
            ", neither accepted nor declined");
    }

    @Override
    public void watch(final SoftWireWatcher progress) throws IOException
    {
        socket.watch(progress); // the doorbell and the connection's end wake the thread
        if (mode == SHARED && watcher == null && !closed)
        {
            watcher = Thread.currentThread();
            in.watching(true); // a full fence: what arrived before it is read in the duty cycle that follows
        }
    }

    @Override
    public void unwatch()
    {
        socket.unwatch();
        if (watcher != null)
        {
            watcher = null;
            if (!unmapped)
            {
                in.watching(false);
            }
        }
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        if (mode != SOCKET)
        {
            // the peer reads what was written, then end of stream, and its writes fail; also while this side still
            // negotiates, as the peer may have accepted already: a link reset that early must not look alive there
            out.close();
            in.close();
        }
        if (file != null)
        {
            try
            {
                Files.deleteIfExists(file);
            }
            catch (final IOException ignore)
            {
                // left for the start-up clean-up of the next device, which finds its process gone
            }
        }
        closed = true; // after the last touch of the mapping by this thread: the progress thread unmaps it
        socket.close();
    }

    @Override
    public String peer()
    {
        return socket.peer() + (mode == SHARED ? " (shared memory)" : "");
    }

    /**
     * @return whether the rings carry the frames (false while negotiating and after a decline).
     */
    boolean shared()
    {
        return mode == SHARED;
    }

    /**
     * Publishes this side's responder gate (see {@link SoftSharedMemoryDescriptor}): 0 closes it. Only the thread
     * that owns the link (under its QP's lock) calls it, the one that also closes it, so the mapping is there.
     */
    public void gate(final long value)
    {
        if (value != ownGate && mode == SHARED && !closed)
        {
            ownGate = value;
            header.putLongVolatile(ownGateOffset, value);
        }
    }

    /**
     * @return the peer QP's responder gate, or 0 once the link is closed or lost.
     */
    public long peerGate()
    {
        return closed || peerGone != null || out.isClosed() ? 0 : header.getLongVolatile(peerGateOffset);
    }

    /**
     * @return the shared regions of the peer's process, for direct copies; owner's thread only, while shared.
     */
    public SoftPeerRegions peerRegions()
    {
        if (peerRegions == null)
        {
            peerRegions = new SoftPeerRegions(directory, peerPid);
        }
        return peerRegions;
    }

    /**
     * The progress thread's care, every duty cycle (at most once a millisecond): advances this side's heartbeat, and
     * declares the peer gone when its connection ended, or its heartbeat stood still for
     * {@link SoftSharedMemoryDescriptor#HEARTBEAT_TIMEOUT_NANOS} and its process has ended (see
     * {@link #checkPeerProcess}).
     * Unmaps the file once the wire no longer needs it (the thread that owns the link has let go of it then). The
     * progress thread drives its QPs right after, so one it drives learns of a peer gone in the same duty cycle.
     *
     * @return whether to go on tending it.
     */
    public boolean tend(final long now)
    {
        final int current = mode;
        if (closed || current == SOCKET)
        {
            if (!unmapped)
            {
                unmapped = true;
                IoUtil.unmap(mapping);
            }
            return false;
        }
        if (heartbeat != 0 && now - tendedNanos < TEND_INTERVAL_NANOS)
        {
            return true;
        }
        tendedNanos = now;
        header.putLongOrdered(ownHeartbeatOffset, ++heartbeat);
        if (current == SHARED && peerGone == null)
        {
            final long beat = header.getLongVolatile(peerHeartbeatOffset);
            if (beat != peerHeartbeat || peerHeartbeatSeenNanos == 0)
            {
                peerHeartbeat = beat;
                peerHeartbeatSeenNanos = now;
            }
            else if (now - peerHeartbeatSeenNanos > SoftSharedMemoryDescriptor.HEARTBEAT_TIMEOUT_NANOS)
            {
                checkPeerProcess(now - peerHeartbeatSeenNanos);
            }
            if (peerGone == null && !closed)
            {
                try
                {
                    drainSideChannel(drained);
                }
                catch (final IOException ex)
                {
                    peerGone = "its connection failed: " + ex;
                }
            }
        }
        return true;
    }

    /**
     * The peer's heartbeat has stood still for {@code stillNanos}, past the timeout: its process is lost if it has
     * ended, or, running yet silent, once it has been so for {@link SoftSharedMemoryDescriptor#HUNG_TIMEOUT_NANOS}:
     * a progress thread the scheduler starves on a loaded machine must not cost a live peer its link. A stopped
     * process (a debugger, SIGSTOP) is paused, not hung: the link stays, as over TCP, and RC's transport timer bounds
     * the pause (docs/soft-provider.md, "A paused peer").
     */
    private void checkPeerProcess(final long stillNanos)
    {
        final char state = processState(peerPid);
        final String still = "its heartbeat stood still for " + TimeUnit.NANOSECONDS.toMillis(stillNanos) + " ms";
        if (state == GONE || state == 'Z' || state == 'X')
        {
            peerGone = still + " and its process " + peerPid + " has ended";
        }
        else if (state != STOPPED && state != TRACING_STOPPED &&
            stillNanos > SoftSharedMemoryDescriptor.HUNG_TIMEOUT_NANOS)
        {
            peerGone = still + ": its process " + peerPid + " lives but does not run its progress thread";
        }
    }

    /**
     * @return the state letter {@code /proc/<pid>/stat} gives the process (R, S, D, T, t, Z, ...), {@link #GONE} if
     *         it has none, or R where there is no {@code /proc} and the process is alive.
     */
    public static char processState(final long pid)
    {
        try
        {
            final String stat = new String(Files.readAllBytes(Paths.get("/proc", Long.toString(pid), "stat")),
                StandardCharsets.US_ASCII);
            final int end = stat.lastIndexOf(')'); // the command name in parentheses may hold anything
            return end > 0 && end + 2 < stat.length() ? stat.charAt(end + 2) : GONE;
        }
        catch (final NoSuchFileException ex)
        {
            return GONE;
        }
        catch (final IOException ex)
        {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? 'R' : GONE;
        }
    }

    /**
     * Reads the doorbells off the connection; its end is the peer's (its process's death closes it too).
     */
    private void drainSideChannel(final ByteBuffer buffer) throws IOException
    {
        int read;
        do
        {
            buffer.clear();
            read = socket.read(buffer);
        }
        while (read > 0);
        if (read < 0 && peerGone == null)
        {
            peerGone = "it closed its connection (the process ended, or closed the link)";
        }
    }
}
