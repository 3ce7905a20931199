package io.ibex.rdma.provider.disni;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.impl.NatCmaIdPrivate;
import com.ibm.disni.verbs.impl.NatIbvQP;
import com.ibm.disni.verbs.impl.NatRdmaEventChannel;
import com.ibm.disni.verbs.impl.NativeDispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One side of a test connection driven through DiSNI's own Java classes: an event channel, its ids, and per
 * connected id a PD, completion channel, CQ, QP and one registered buffer. Everything created here is
 * destroyed by {@link #close()}, newest first, so that kernel resource hygiene holds after each test.
 */
final class DisniPeer implements AutoCloseable
{
    /** The local RDMA address (rxe0's in the Soft-RoCE guest). */
    static final String ADDRESS = System.getProperty("ibex.test.address", "10.99.0.1");
    /** Bytes in each endpoint's registered buffer. */
    static final int BUFFER_SIZE = 4096;

    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final int POLL_MS = 20;

    /** A destroy call; DiSNI's are all IOException-throwing. */
    private interface Destroy
    {
        void run() throws Exception;
    }

    private final Deque<Destroy> destroys = new ArrayDeque<>();
    /** The channel every id of this peer reports on. */
    final RdmaEventChannel channel;

    /**
     * Opens the device in librdmacm before a test's resource baseline is taken. librdmacm keeps the
     * ibv_context of a device open for the rest of the process once an id has used it (only its PD goes with
     * the last id), which kernel resource hygiene would otherwise count against the first test.
     *
     * @throws IOException if binding to {@link #ADDRESS} fails.
     */
    static void openDevice() throws IOException
    {
        final RdmaEventChannel channel = RdmaEventChannel.createEventChannel();
        final RdmaCmId id = channel.createId(RdmaCm.RDMA_PS_TCP);
        try
        {
            id.bindAddr(new InetSocketAddress(InetAddress.getByName(ADDRESS), 0));
        }
        finally
        {
            id.destroyId();
            channel.destroyEventChannel();
        }
    }

    /**
     * @return a NativeDispatcher of its own (DiSNI keeps its instance private), to call natives with
     *         arguments DiSNI's Java never passes.
     * @throws ReflectiveOperationException if DiSNI's class changed.
     */
    static NativeDispatcher dispatcher() throws ReflectiveOperationException
    {
        final var constructor = NativeDispatcher.class.getDeclaredConstructor();
        constructor.setAccessible(true);
        return constructor.newInstance();
    }

    /**
     * @param channel the channel the id reports on.
     * @param handle  an rdma_cm id made natively (IbexNative.cmCreateId).
     * @return DiSNI's Java object for it, known to the channel so that its events name it.
     * @throws ReflectiveOperationException if DiSNI's class changed.
     * @throws IOException never (DiSNI's constructor declares it).
     */
    static RdmaCmId id(final RdmaEventChannel channel, final long handle)
        throws ReflectiveOperationException, IOException
    {
        final NatCmaIdPrivate id = new NatCmaIdPrivate(handle, channel, dispatcher());
        ((NatRdmaEventChannel)channel).addCmId(id);
        return id;
    }

    /**
     * @param channel a DiSNI event channel.
     * @return its native handle.
     */
    static long handle(final RdmaEventChannel channel)
    {
        return ((NatRdmaEventChannel)channel).getObjId();
    }

    /**
     * @param id a DiSNI rdma_cm id.
     * @return its native handle.
     */
    static long handle(final RdmaCmId id)
    {
        return ((NatCmaIdPrivate)id).getObjId();
    }

    /**
     * @param qp a DiSNI QP.
     * @return its native handle.
     */
    static long handle(final IbvQP qp)
    {
        return ((NatIbvQP)qp).getObjId();
    }

    DisniPeer() throws IOException
    {
        channel = RdmaEventChannel.createEventChannel();
        destroys.push(channel::destroyEventChannel);
    }

    /**
     * @param portSpace RdmaCm.RDMA_PS_*.
     * @return a new id on this peer's channel, destroyed on close unless the test destroyed it.
     * @throws IOException if rdma_create_id fails.
     */
    RdmaCmId createId(final short portSpace) throws IOException
    {
        return own(channel.createId(portSpace));
    }

    /**
     * @param id an id this peer's channel reported (a connection request's), destroyed on close.
     * @return id.
     */
    RdmaCmId own(final RdmaCmId id)
    {
        destroys.push(() ->
        {
            if (id.isOpen())
            {
                id.destroyId();
            }
        });
        return id;
    }

    /**
     * Waits for the next event on this peer's channel and checks its type.
     *
     * @param expected the event type the test expects next.
     * @return the event.
     * @throws IOException if reading the channel fails.
     */
    RdmaCmEvent await(final RdmaCmEvent.EventType expected) throws IOException
    {
        final long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (System.nanoTime() < deadline)
        {
            final RdmaCmEvent event = channel.getCmEvent(POLL_MS);
            if (event != null)
            {
                event.ackEvent();
                assertEquals(expected, RdmaCmEvent.EventType.values()[event.getEvent()], "rdma_cm event");
                return event;
            }
        }
        return fail("no " + expected + " within " + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NANOS) + " s");
    }

    /**
     * Resolves address and route of a fresh id towards the destination.
     *
     * @param id          a new id of this peer.
     * @param destination the listener's address.
     * @throws IOException if a step fails.
     */
    void resolve(final RdmaCmId id, final InetSocketAddress destination) throws IOException
    {
        id.resolveAddr(null, destination, 2000);
        await(RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_RESOLVED);
        id.resolveRoute(2000);
        await(RdmaCmEvent.EventType.RDMA_CM_EVENT_ROUTE_RESOLVED);
    }

    /**
     * Disconnects an RC connection from the active side, in the order rdma_cm needs: the passive side sees
     * DISCONNECTED and disconnects too (its DREP ends the active side's wait), then the active side sees it.
     *
     * @param active    the peer that disconnects first.
     * @param activeId  its connected id.
     * @param passive   the other peer.
     * @param passiveId its connected id.
     * @throws IOException if a step fails.
     */
    static void disconnect(final DisniPeer active, final RdmaCmId activeId, final DisniPeer passive,
        final RdmaCmId passiveId) throws IOException
    {
        activeId.disconnect();
        passive.await(RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED);
        passiveId.disconnect();
        active.await(RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED);
    }

    /**
     * Creates the verbs resources of a connection on the id's device.
     *
     * @param id     an id with a device (bound, resolved, or from a connection request).
     * @param qpType IbvQP.IBV_QPT_*.
     * @return the endpoint.
     * @throws IOException if a verbs call fails.
     */
    Endpoint endpoint(final RdmaCmId id, final byte qpType) throws IOException
    {
        final IbvContext context = id.getVerbs();
        assertNotNull(context, "the id has a device");
        final IbvPd pd = context.allocPd();
        destroys.push(pd::deallocPd);
        final IbvCompChannel compChannel = context.createCompChannel();
        destroys.push(compChannel::destroyCompChannel);
        final IbvCQ cq = context.createCQ(compChannel, 32, 0);
        destroys.push(cq::destroyCQ);
        final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE);
        final IbvMr mr = pd.regMr(buffer, IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE
            | IbvMr.IBV_ACCESS_REMOTE_READ).execute().free().getMr();
        destroys.push(() -> mr.deregMr().execute().free());
        final IbvQPInitAttr attr = new IbvQPInitAttr();
        attr.cap().setMax_send_wr(8);
        attr.cap().setMax_recv_wr(8);
        attr.cap().setMax_send_sge(1);
        attr.cap().setMax_recv_sge(1);
        attr.cap().setMax_inline_data(0);
        attr.setQp_type(qpType);
        attr.setSend_cq(cq);
        attr.setRecv_cq(cq);
        final IbvQP qp = id.createQP(pd, attr);
        assertNotNull(qp, "rdma_create_qp");
        destroys.push(() ->
        {
            if (id.isOpen() && qp.isOpen())
            {
                id.destroyQP();
            }
        });
        return new Endpoint(id, context, pd, compChannel, cq, qp, mr, buffer);
    }

    @Override
    public void close() throws Exception
    {
        Exception first = null;
        while (!destroys.isEmpty())
        {
            try
            {
                destroys.pop().run();
            }
            catch (final Exception e)
            {
                if (first == null)
                {
                    first = e;
                }
                else
                {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null)
        {
            throw first;
        }
    }

    /** The verbs resources of one connection, and work requests over its buffer. */
    static final class Endpoint
    {
        final RdmaCmId id;
        final IbvContext context;
        final IbvPd pd;
        final IbvCompChannel compChannel;
        final IbvCQ cq;
        final IbvQP qp;
        final IbvMr mr;
        final ByteBuffer buffer;
        private final IbvWC[] wcs = {new IbvWC()};
        private final SVCPollCq poll;

        private Endpoint(final RdmaCmId id, final IbvContext context, final IbvPd pd, final IbvCompChannel compChannel,
            final IbvCQ cq, final IbvQP qp, final IbvMr mr, final ByteBuffer buffer) throws IOException
        {
            this.id = id;
            this.context = context;
            this.pd = pd;
            this.compChannel = compChannel;
            this.cq = cq;
            this.qp = qp;
            this.mr = mr;
            this.buffer = buffer;
            this.poll = cq.poll(wcs, 1);
        }

        private IbvSge sge(final int offset, final int length)
        {
            final IbvSge sge = new IbvSge();
            sge.setAddr(mr.getAddr() + offset);
            sge.setLength(length);
            sge.setLkey(mr.getLkey());
            return sge;
        }

        /**
         * Posts one receive into [offset, offset + length) of the buffer.
         *
         * @param wrId   work request id.
         * @param offset buffer offset.
         * @param length bytes.
         * @throws IOException if ibv_post_recv fails.
         */
        void postRecv(final long wrId, final int offset, final int length) throws IOException
        {
            final IbvRecvWR wr = new IbvRecvWR();
            wr.setWr_id(wrId);
            wr.setSg_list(new LinkedList<>(List.of(sge(offset, length))));
            wr.setNum_sge(1);
            qp.postRecv(List.of(wr), null).execute().free();
        }

        /**
         * Posts one signaled send-queue work request from [offset, offset + length) of the buffer.
         *
         * @param wrId       work request id.
         * @param opcode     IbvSendWR.IBV_WR_*.
         * @param offset     buffer offset.
         * @param length     bytes.
         * @param remoteAddr RDMA target address (ignored for SEND).
         * @param rkey       RDMA target key (ignored for SEND).
         * @throws IOException if ibv_post_send fails.
         */
        void postSend(final long wrId, final int opcode, final int offset, final int length, final long remoteAddr,
            final int rkey) throws IOException
        {
            final IbvSendWR wr = new IbvSendWR();
            wr.setWr_id(wrId);
            wr.setSg_list(new LinkedList<>(List.of(sge(offset, length))));
            wr.setNum_sge(1);
            wr.setOpcode(opcode);
            wr.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
            wr.getRdma().setRemote_addr(remoteAddr);
            wr.getRdma().setRkey(rkey);
            qp.postSend(List.of(wr), null).execute().free();
        }

        /**
         * @return the next completion, busy-polled with a deadline.
         * @throws IOException if ibv_poll_cq fails.
         */
        IbvWC awaitCompletion() throws IOException
        {
            final long deadline = System.nanoTime() + TIMEOUT_NANOS;
            while (System.nanoTime() < deadline)
            {
                if (poll.execute().getPolls() > 0)
                {
                    return wcs[0];
                }
                Thread.onSpinWait();
            }
            return fail("no completion within " + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NANOS) + " s");
        }
    }
}
