package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.DeviceAttributes;
import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.BufferUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Misuse through the public API gives an exception that names the problem, never a crash (on the disni provider,
 * never a native call with a dead handle or a size the C would trust): every call on every closed object, and
 * sizes no device takes. Each test ends by using the provider again.
 */
class MisuseConformanceTest extends LoopbackTest
{
    private static final int SIZE = 4096;

    /**
     * Every call that reaches the device, on an object closed before (and, where it must be, its children):
     * IllegalStateException naming the object, before any native call.
     */
    @Test
    void everyCallOnAClosedObjectIsIllegalState()
    {
        final Context other = Loopback.findDevice(loopback.provider()).open();
        final ProtectionDomain pd = other.allocPd();
        final CompletionChannel channel = other.createCompChannel();
        final CompletionQueue cq = other.createCq(Loopback.DEPTH, channel, 0);
        final QueuePair qp = pd.createQp(new QpInitAttr(QpType.RC, cq, cq, Loopback.CAPS, false));
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        final Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("QP modify", () -> qp.modify(QpAttr.to(QpState.ERR)));
        calls.put("QP query", qp::query);
        calls.put("QP postSend", () -> qp.postSend(buffer.send(1, 0, 8)));
        calls.put("QP postRecv", () -> qp.postRecv(buffer.recv(1, 0, 8)));
        calls.put("QP state", qp::state);
        calls.put("CQ poll", () -> cq.poll(new WorkCompletion[]{new WorkCompletion()}));
        calls.put("CQ poll with max", () -> cq.poll(new WorkCompletion[]{new WorkCompletion()}, 1));
        calls.put("CQ requestNotify", () -> cq.requestNotify(false));
        calls.put("channel getEvent", () -> channel.getEvent(0));
        calls.put("PD registerMemory(buffer)", () -> pd.registerMemory(ByteBuffer.allocateDirect(SIZE),
            AccessFlags.LOCAL_WRITE));
        calls.put("PD registerMemory(address)", () -> pd.registerMemory(buffer.mr().address(), SIZE,
            AccessFlags.LOCAL_WRITE));
        calls.put("PD createQp", () -> pd.createQp(new QpInitAttr(QpType.RC, cq, cq, Loopback.CAPS, false)));
        calls.put("PD createAh", () -> pd.createAh(loopback.address()));
        calls.put("context queryDevice", other::queryDevice);
        calls.put("context queryPort", () -> other.queryPort(Loopback.PORT));
        calls.put("context queryGid", () -> other.queryGid(Loopback.PORT, Loopback.GID_INDEX));
        calls.put("context allocPd", other::allocPd);
        calls.put("context createCompChannel", other::createCompChannel);
        calls.put("context createCq", () -> other.createCq(Loopback.DEPTH, null, 0));
        calls.put("context getAsyncEvent", () -> other.getAsyncEvent(0));

        qp.close();
        cq.close();
        channel.close();
        pd.close();
        other.close();
        other.close();
        calls.forEach((name, call) ->
        {
            final IllegalStateException thrown = assertThrows(IllegalStateException.class, call, name);
            assertTrue(thrown.getMessage().contains("closed"), name + ": " + thrown.getMessage());
        });
        assertEquals(QpState.RESET, loopback.qp(QpType.RC).state(), "the provider still works");
    }

    /**
     * A UD send through an address handle closed before: the post refuses it (the device would follow a freed
     * ibv_ah).
     */
    @Test
    void aUdSendThroughAClosedAddressHandleIsEinval()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.UD);
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        final AddressHandle ah = loopback.ah();
        ah.close();
        final SendWorkRequest wr = buffer.send(1, 0, 8).ud(ah, pair.b().qpNum(), Loopback.QKEY);

        final PostException thrown = assertThrows(PostException.class, () -> pair.a().postSend(wr));
        assertEquals(VerbsException.EINVAL, thrown.errno(), thrown.getMessage());
        Await.noCompletion(pair.a().sendCq(), 50);
    }

    /**
     * Sizes and numbers no device takes: EINVAL (or the errno the device gives) with the value in the message.
     */
    @Test
    void sizesNoDeviceTakesAreRefused()
    {
        final DeviceAttributes device = loopback.context().queryDevice();
        final long address = BufferUtil.address(ByteBuffer.allocateDirect(SIZE));
        final Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("register a negative length", () -> loopback.pd().registerMemory(address, -1,
            AccessFlags.LOCAL_WRITE));
        calls.put("register 2^62 bytes", () -> loopback.pd().registerMemory(address, 1L << 62,
            AccessFlags.LOCAL_WRITE));
        calls.put("register at address 0", () -> loopback.pd().registerMemory(0, SIZE, AccessFlags.LOCAL_WRITE));
        calls.put("register unknown access flags", () -> loopback.pd().registerMemory(address, SIZE, 1 << 20));
        calls.put("CQ of 0 entries", () -> loopback.context().createCq(0, null, 0));
        calls.put("CQ of -1 entries", () -> loopback.context().createCq(-1, null, 0));
        calls.put("CQ of 2^31-1 entries", () -> loopback.context().createCq(Integer.MAX_VALUE, null, 0));
        calls.put("QP of max_qp_wr + 1", () -> qp(device.maxQpWr() + 1, 1, 1, 0));
        calls.put("QP of -1 receives", () -> qp(1, -1, 1, 0));
        calls.put("QP of max_sge + 1", () -> qp(1, 1, device.maxSge() + 1, 0));
        calls.put("QP of 2^31-1 inline bytes", () -> qp(1, 1, 1, Integer.MAX_VALUE));
        calls.put("port 0", () -> loopback.context().queryPort(0));
        calls.put("port 99", () -> loopback.context().queryPort(99));
        calls.put("GID index -1", () -> loopback.context().queryGid(Loopback.PORT, -1));
        calls.put("GID index 2^31-1", () -> loopback.context().queryGid(Loopback.PORT, Integer.MAX_VALUE));
        calls.forEach((name, call) ->
        {
            final RuntimeException thrown = assertThrows(RuntimeException.class, call, name);
            assertTrue(thrown instanceof VerbsException || thrown instanceof IllegalArgumentException,
                name + " threw " + thrown);
        });

        final WorkCompletion[] wcs = {new WorkCompletion()};
        final CompletionQueue cq = loopback.cq(Loopback.DEPTH);
        assertThrows(IllegalArgumentException.class, () -> cq.poll(wcs, -1), "poll max -1");
        assertThrows(IllegalArgumentException.class, () -> cq.poll(wcs, 2), "poll max beyond the array");
        assertEquals(0, cq.poll(wcs), "the CQ still polls");
    }

    /**
     * Creates an RC QP with the capabilities on a CQ of {@link Loopback#DEPTH} (not one sized by them, which would
     * fail first, or take long to make).
     */
    private void qp(final int sendWr, final int recvWr, final int sge, final int inline)
    {
        final CompletionQueue cq = loopback.cq(Loopback.DEPTH);
        loopback.qp(new QpInitAttr(QpType.RC, cq, cq, new QpCapabilities(sendWr, recvWr, sge, sge, inline), false));
    }

    /**
     * A work request list that loops back on itself is cut where the send queue ends (ENOMEM at its depth), not
     * followed forever.
     */
    @Test
    void aCircularListEndsAtTheQueuesDepth()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final RegisteredBuffer local = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        final RegisteredBuffer remote = loopback.register(SIZE, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        final SendWorkRequest wr = local.remote(SendOpcode.RDMA_WRITE, 1, 0, 8, remote, 0).sendFlags(0);
        wr.next(wr);
        final int depth = pair.a().capabilities().maxSendWr();

        final PostException thrown = assertThrows(PostException.class, () -> pair.a().postSend(wr));
        assertEquals(VerbsException.ENOMEM, thrown.errno(), thrown.getMessage());
        assertEquals(depth, thrown.badIndex(), thrown.getMessage());
    }
}
