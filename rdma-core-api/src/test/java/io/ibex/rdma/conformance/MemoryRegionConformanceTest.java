package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcStatus;
import org.agrona.BufferUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;

import static io.ibex.rdma.conformance.Await.assertBadLkey;
import static io.ibex.rdma.conformance.Await.assertStatus;
import static io.ibex.rdma.conformance.Await.completion;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ibv_reg_mr / ibv_dereg_mr: what a region reports, the access-flag rules, and keys that stop working when
 * deregistered or used with a QP of another PD.
 */
class MemoryRegionConformanceTest extends LoopbackTest
{
    private static final int SIZE = 4096;

    @ParameterizedTest(name = "access {0}")
    @ValueSource(ints = {
        0,
        AccessFlags.LOCAL_WRITE,
        AccessFlags.REMOTE_READ,
        AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE,
        AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ,
        AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_ATOMIC,
        AccessFlags.ALL})
    void directBufferRegionReportsAddressLengthAccessAndBuffer(final int access)
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(SIZE);
        final MemoryRegion mr = loopback.track(loopback.pd().registerMemory(buffer, access));
        assertEquals(BufferUtil.address(buffer), mr.address());
        assertEquals(SIZE, mr.length());
        assertEquals(access, mr.access(), () -> "access " + AccessFlags.toString(mr.access()));
        assertSame(buffer, mr.buffer());
        assertSame(loopback.pd(), mr.pd());
    }

    @ParameterizedTest(name = "access {0}")
    @ValueSource(ints = {
        AccessFlags.LOCAL_WRITE, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE, AccessFlags.ALL })
    void allocatedRegionIsItsBufferPageAlignedAndZeroedAndStaysWithItsBufferAfterClose(final int access)
    {
        final MemoryRegion mr = loopback.pd().allocateMemory(SIZE + 100, access);
        final ByteBuffer buffer = mr.buffer();
        assertEquals(BufferUtil.address(buffer), mr.address());
        assertEquals(0, mr.address() % ProtectionDomain.PAGE_SIZE, "page-aligned");
        assertEquals(SIZE + 100, mr.length());
        assertEquals(SIZE + 100, buffer.capacity());
        assertEquals(access, mr.access());
        for (int i = 0; i < buffer.capacity(); i++)
        {
            assertEquals(0, buffer.get(i), "byte " + i);
        }
        mr.close();
        buffer.put(0, (byte)1); // the memory is the buffer's, not the region's
        assertEquals(1, buffer.get(0));
    }

    @ParameterizedTest(name = "length {0}")
    @ValueSource(longs = { 0, -1, Integer.MAX_VALUE, 1L << 40 })
    void allocatingAnImpossibleLengthIsEinval(final long length)
    {
        final VerbsException ex = assertThrows(VerbsException.class,
            () -> loopback.pd().allocateMemory(length, AccessFlags.LOCAL_WRITE));
        assertEquals(VerbsException.EINVAL, ex.errno());
        assertTrue(ex.getMessage().contains(Long.toString(length)), ex.getMessage());
    }

    @Test
    void addressRangeRegionHasNoBuffer()
    {
        final ByteBuffer memory = ByteBuffer.allocateDirect(2 * SIZE);
        final long address = BufferUtil.address(memory) + 100;
        final MemoryRegion mr =
            loopback.track(loopback.pd().registerMemory(address, SIZE, AccessFlags.LOCAL_WRITE));
        assertEquals(address, mr.address());
        assertEquals(SIZE, mr.length());
        assertNull(mr.buffer());
    }

    @Test
    void everyRegionHasItsOwnKeys()
    {
        final int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        final MemoryRegion first = loopback.register(SIZE, access).mr();
        final MemoryRegion second = loopback.register(SIZE, access).mr();
        assertNotEquals(first.lkey(), second.lkey());
        assertNotEquals(first.rkey(), second.rkey());
    }

    @Test
    void remoteWriteWithoutLocalWriteIsEinval()
    {
        // ib_check_mr_access: REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE.
        final VerbsException ex = assertThrows(VerbsException.class,
            () -> loopback.register(SIZE, AccessFlags.REMOTE_WRITE));
        assertEquals(VerbsException.EINVAL, ex.errno());
    }

    @Test
    void remoteAtomicWithoutLocalWriteIsEinval()
    {
        final VerbsException ex = assertThrows(VerbsException.class,
            () -> loopback.register(SIZE, AccessFlags.REMOTE_ATOMIC | AccessFlags.REMOTE_READ));
        assertEquals(VerbsException.EINVAL, ex.errno());
    }

    @Test
    void deregisteredLkeyFailsTheSend()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final RegisteredBuffer source = RegisteredBuffer.allocate(loopback.pd(), SIZE, AccessFlags.LOCAL_WRITE);
        final RegisteredBuffer target = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        pair.b().postRecv(target.recv(1, 0, SIZE));
        final SendWorkRequest send = source.send(2, 0, 64);
        source.mr().close();

        pair.a().postSend(send);

        assertBadLkey(completion(pair.a().sendCq()), 2);
    }

    @Test
    void lkeyOfAnotherPdFailsTheSend()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final ProtectionDomain otherPd = loopback.track(loopback.context().allocPd());
        final RegisteredBuffer foreign = loopback.register(otherPd, SIZE, AccessFlags.LOCAL_WRITE);
        final RegisteredBuffer target = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        pair.b().postRecv(target.recv(1, 0, SIZE));

        pair.a().postSend(foreign.send(2, 0, 64));

        assertBadLkey(completion(pair.a().sendCq()), 2);
    }

    @Test
    void rkeyOfAnotherPdFailsWithRemAccessErrAndLeavesMemoryAlone()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final ProtectionDomain otherPd = loopback.track(loopback.context().allocPd());
        final RegisteredBuffer foreign =
            loopback.register(otherPd, SIZE, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE).fill(0x55);
        final RegisteredBuffer source = loopback.register(SIZE, AccessFlags.LOCAL_WRITE).fill(0x11);

        pair.a().postSend(source.remote(SendOpcode.RDMA_WRITE, 3, 0, 64, foreign, 0));

        assertStatus(completion(pair.a().sendCq()), 3, WcStatus.REM_ACCESS_ERR);
        for (int i = 0; i < SIZE; i++)
        {
            assertEquals(0x55, foreign.buffer().get(i), "byte " + i + " of the foreign region was written");
        }
    }

    @Test
    void deregisterTwiceIsANoOp()
    {
        final MemoryRegion mr = loopback.register(SIZE, AccessFlags.LOCAL_WRITE).mr();
        mr.close();
        assertTrue(mr.isClosed());
        mr.close();
        assertTrue(mr.isClosed());
    }

    @Test
    void qpOfThePdStillWorksAfterAnotherRegionIsDeregistered()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        loopback.register(SIZE, AccessFlags.LOCAL_WRITE).mr().close();
        final RegisteredBuffer source = loopback.register(SIZE, AccessFlags.LOCAL_WRITE).pattern(0, 64, 7);
        final RegisteredBuffer target = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        final QueuePair b = pair.b();
        b.postRecv(target.recv(1, 0, SIZE));

        pair.a().postSend(source.send(2, 0, 64));

        assertEquals(WcStatus.SUCCESS, completion(pair.a().sendCq()).status());
        assertEquals(WcStatus.SUCCESS, completion(b.recvCq()).status());
        assertArrayEquals(source.bytes(0, 64), target.bytes(0, 64));
    }
}
