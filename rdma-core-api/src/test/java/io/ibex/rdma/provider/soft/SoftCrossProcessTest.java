package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.qp.SoftQueuePair;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryWire;
import io.ibex.rdma.provider.soft.wire.SoftSharedRegionDescriptor;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RC between two JVMs (the peer is {@link SoftPeerProcess}), over TCP and over shared memory, and detection of the
 * peer's death (or hang).
 */
@Timeout(60)
class SoftCrossProcessTest
{
    private static final int ROUNDS = 100;

    private final SoftFixture fixture = new SoftFixture();
    private Process peer;
    private BufferedReader fromPeer;
    private Writer toPeer;
    private int peerRkey;
    private long peerAddress;
    private MemoryRegion mr;
    private SendWorkRequest send;
    private ReceiveWorkRequest recv;

    @AfterEach
    void close()
    {
        if (peer != null)
        {
            peer.destroyForcibly();
        }
        fixture.close();
    }

    @Test
    void rcPingPongWithAnotherProcessOverTcpThenItsDeathIsDetectedWithinTwoSeconds() throws Exception
    {
        final QueuePair qp = pingPong("off");
        assertFalse(((SoftQueuePair)qp).linkPeer().contains("shared memory"), ((SoftQueuePair)qp).linkPeer());
        assertPeerLossDetected(qp, () -> peer.destroyForcibly(), 2000);
    }

    @Test
    void rcPingPongWithAnotherProcessOfThisHostGoesThroughSharedMemoryAndItsDeathIsDetectedWithinOneSecond()
        throws Exception
    {
        final QueuePair qp = pingPong("auto");
        assertTrue(((SoftQueuePair)qp).linkPeer().contains("shared memory"), ((SoftQueuePair)qp).linkPeer());
        assertPeerLossDetected(qp, () -> peer.destroyForcibly(), 1000);
    }

    @Test
    void aStoppedPeerProcessKeepsItsSharedMemoryLink() throws Exception
    {
        final QueuePair qp = pingPong("auto");
        assertTrue(((SoftQueuePair)qp).linkPeer().contains("shared memory"), ((SoftQueuePair)qp).linkPeer());
        // a stopped process is paused, not dead (an HCA would go on acknowledging for it): its heartbeat stands
        // still past the timeout, yet the link must outlive the pause, as it does over TCP
        signal("STOP");
        final long until = System.nanoTime() + 3 * SoftSharedMemoryDescriptor.HEARTBEAT_TIMEOUT_NANOS;
        final WorkCompletion[] none = {new WorkCompletion()};
        final IdleStrategy idle = new SleepingMillisIdleStrategy(1);
        while (System.nanoTime() < until)
        {
            assertEquals(0, qp.recvCq().poll(none), () -> "while the peer is stopped: " + none[0]);
            idle.idle();
        }
        assertEquals(QpState.RTS, qp.state());
        signal("CONT");
        echo(qp, ROUNDS, 2 * ROUNDS);
    }

    @Test
    void oneSidedOperationsIntoASharedRegionOfAnotherProcessAreCopiesThatNeedNoThreadOfIt() throws Exception
    {
        final SoftQueuePair qp = (SoftQueuePair)pingPong("auto");
        final Path regionFile = sharedRegionFile();
        assertTrue(Files.exists(regionFile), regionFile + " holds the region the peer allocated");
        signal("STOP"); // no thread of the peer runs: over a link, a request would wait for the peer's responder
        try
        {
            for (int i = 0; i < SoftPeerProcess.MESSAGE; i++)
            {
                mr.buffer().put(i, (byte)(0x40 + i));
            }
            assertEquals(WcStatus.SUCCESS, oneSided(qp, SendOpcode.RDMA_WRITE, 0, SoftPeerProcess.MESSAGE));
            assertEquals(WcStatus.SUCCESS,
                oneSided(qp, SendOpcode.RDMA_READ, SoftPeerProcess.MESSAGE, SoftPeerProcess.MESSAGE));
            for (int i = 0; i < SoftPeerProcess.MESSAGE; i++)
            {
                assertEquals((byte)(0x40 + i), mr.buffer().get(SoftPeerProcess.MESSAGE + i), "byte read back");
            }
            assertEquals(2, qp.directCopies());
        }
        finally
        {
            signal("CONT");
        }
        echo(qp, ROUNDS, 2 * ROUNDS); // and the link goes on, in order
    }

    @Test
    void aSharedRegionItsOwnerDeregisteredIsGoneAndRefusesWritesWithRemAccessErr() throws Exception
    {
        final SoftQueuePair qp = (SoftQueuePair)pingPong("auto");
        toPeer.write(SoftPeerProcess.DEREGISTER + "\n");
        toPeer.flush();
        assertEquals(SoftPeerProcess.DEREGISTERED, fromPeer.readLine());
        assertFalse(Files.exists(sharedRegionFile()), "the file goes with the region");
        assertEquals(WcStatus.REM_ACCESS_ERR, oneSided(qp, SendOpcode.RDMA_WRITE, 0, 0));
        assertEquals(0, qp.directCopies());
    }

    @Test
    void overTcpOneSidedOperationsGoThroughTheLink() throws Exception
    {
        final SoftQueuePair qp = (SoftQueuePair)pingPong("off");
        assertFalse(Files.exists(sharedRegionFile()), "a device without shared memory allocates in its own memory");
        assertEquals(WcStatus.SUCCESS, oneSided(qp, SendOpcode.RDMA_WRITE, 0, 0));
        assertEquals(0, qp.directCopies());
    }

    /**
     * Posts an RDMA WRITE or READ of a message between {@code localOffset} of this side's region and
     * {@code peerOffset} of the peer's, and waits for its completion.
     *
     * @return its status.
     */
    private WcStatus oneSided(final QueuePair qp, final SendOpcode opcode, final int localOffset, final int peerOffset)
    {
        final SendWorkRequest wr = new SendWorkRequest().wrId(3).opcode(opcode).sendFlags(SendFlags.SIGNALED)
            .remote(peerAddress + peerOffset, peerRkey);
        wr.sge(0).set(mr, localOffset, SoftPeerProcess.MESSAGE);
        qp.postSend(wr);
        return SoftFixture.await(qp.sendCq()).status();
    }

    private Path sharedRegionFile()
    {
        return Paths.get(System.getProperty(SoftSharedMemoryDescriptor.DIRECTORY_PROPERTY, "/dev/shm"),
            SoftSharedRegionDescriptor.fileName(peer.pid(), peerRkey));
    }

    private void signal(final String name)
    {
        try
        {
            assertEquals(0, new ProcessBuilder("kill", "-" + name, Long.toString(peer.pid())).inheritIO().start()
                .waitFor());
            final long deadline = System.nanoTime() + SoftFixture.WAIT_NANOS;
            while ("STOP".equals(name) && SoftSharedMemoryWire.processState(peer.pid()) != 'T')
            {
                assertTrue(System.nanoTime() - deadline < 0, "the peer did not stop within 10 s");
                Thread.onSpinWait(); // kill returns once the signal is sent; the process stops a little later
            }
        }
        catch (final Exception ex)
        {
            throw new AssertionError("kill -" + name + " " + peer.pid() + " failed", ex);
        }
    }

    /**
     * Starts the peer process (with {@code ibex.soft.sharedMemory=sharedMemory}), connects an RC QP to its QP and has
     * it echo {@link #ROUNDS} messages.
     */
    private QueuePair pingPong(final String sharedMemory) throws Exception
    {
        final String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        peer = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
            "-D" + SoftDevice.SHARED_MEMORY_PROPERTY + "=" + sharedMemory, SoftPeerProcess.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        fromPeer = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.US_ASCII));
        final String line = fromPeer.readLine();
        assertTrue(line != null && line.startsWith(SoftPeerProcess.QP_LINE), "peer said: " + line);
        final String[] address = line.substring(SoftPeerProcess.QP_LINE.length()).split(" ");
        peerRkey = Integer.parseInt(address[2]);
        peerAddress = Long.parseLong(address[3]);

        final QueuePair qp = fixture.qp(QpType.RC, 16);
        mr = fixture.register(SoftPeerProcess.MESSAGE * 2);
        toPeer = new OutputStreamWriter(peer.getOutputStream(), StandardCharsets.US_ASCII);
        toPeer.write(SoftPeerProcess.QP_LINE + fixture.address().dgid() + " " + qp.qpNum() + "\n");
        toPeer.flush();
        final Gid peerGid = Gid.parse(address[0]);
        assertTrue(SoftGidDescriptor.isSoftEndpoint(peerGid));
        assertTrue(SoftGidDescriptor.port(peerGid) != SoftGidDescriptor.port(fixture.address().dgid()),
            "the two processes have their own endpoints");
        SoftFixture.connect(qp, AhAttr.global(1, peerGid, SoftFixture.GID_INDEX), Integer.parseInt(address[1]), 7);

        send = new SendWorkRequest().wrId(2).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, 0, SoftPeerProcess.MESSAGE);
        recv = new ReceiveWorkRequest().wrId(1);
        recv.sge(0).set(mr, SoftPeerProcess.MESSAGE, SoftPeerProcess.MESSAGE);
        echo(qp, 0, ROUNDS);
        return qp;
    }

    /**
     * Has the peer echo rounds {@code from} to {@code to} (exclusive), each checked.
     */
    private void echo(final QueuePair qp, final int from, final int to)
    {
        for (int round = from; round < to; round++)
        {
            mr.buffer().putInt(0, round);
            qp.postRecv(recv);
            qp.postSend(send); // the peer may not have posted its receive yet: RNR retry covers that
            final WorkCompletion sent = SoftFixture.await(qp.sendCq());
            assertEquals(WcStatus.SUCCESS, sent.status(), sent.toString());
            final WorkCompletion echoed = SoftFixture.await(qp.recvCq());
            assertEquals(WcStatus.SUCCESS, echoed.status(), echoed.toString());
            assertEquals(round, mr.buffer().getInt(SoftPeerProcess.MESSAGE));
        }
    }

    private void assertPeerLossDetected(final QueuePair qp, final Runnable loss, final long withinMillis)
    {
        qp.postRecv(recv);
        loss.run();
        final long lost = System.nanoTime();
        final WorkCompletion flushed = SoftFixture.await(qp.recvCq());
        final long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lost);
        assertEquals(WcStatus.WR_FLUSH_ERR, flushed.status());
        assertEquals(QpState.ERR, qp.state());
        assertTrue(detectedMillis < withinMillis, "peer loss detected after " + detectedMillis + " ms");
    }
}
