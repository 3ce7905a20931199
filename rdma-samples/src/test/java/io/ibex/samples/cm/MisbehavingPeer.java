package io.ibex.samples.cm;

import io.ibex.rdma.Providers;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcOpcode;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * An RC peer on the soft provider that breaks the programs' protocols in one way each: it leaves right after
 * connecting, sends a message of the wrong length, advertises data that is not rping's, or accepts and then
 * stays silent.
 */
final class MisbehavingPeer implements AutoCloseable
{
    private static final long TIMEOUT_MILLIS = 10_000;
    private static final int BUFFER_LENGTH = 4096;
    /** Where the peer's receives land: the start of its buffer. */
    private static final int RECV_LENGTH = 64;
    private static final int INFO_OFFSET = RECV_LENGTH;
    private static final int DATA_OFFSET = INFO_OFFSET + RpingInfo.LENGTH;

    private final ResourceStack resources = new ResourceStack();
    private final CmSequence cm = new CmSequence(
        resources.push(Providers.select("soft").createEventChannel()), TIMEOUT_MILLIS, event -> { });
    private CmId id;
    private QueuePair qp;
    private CompletionWatch watch;
    private MemoryRegion mr;

    /**
     * Connects to a server on the loopback address, with a QP whose receive is posted.
     *
     * @param port the server's port.
     * @return the peer.
     */
    static MisbehavingPeer connect(final int port)
    {
        final MisbehavingPeer peer = new MisbehavingPeer();
        peer.id = peer.resources.push(peer.cm.channel().createId(PortSpace.TCP));
        peer.cm.resolve(peer.id, null, new InetSocketAddress(CmPrograms.LOOPBACK, port));
        peer.createQp();
        peer.cm.connect(peer.id, ConnParam.of(null));
        return peer;
    }

    /**
     * Listens on the loopback address and accepts one client, with a QP whose receive is posted.
     *
     * @param port the port.
     * @return the peer.
     */
    static MisbehavingPeer accept(final int port)
    {
        final MisbehavingPeer peer = new MisbehavingPeer();
        final CmId listener = peer.resources.push(peer.cm.channel().createId(PortSpace.TCP));
        peer.cm.listen(listener, new InetSocketAddress(CmPrograms.LOOPBACK, port), 1);
        peer.id = peer.resources.push(peer.cm.awaitConnectRequest(listener));
        peer.createQp();
        peer.cm.accept(peer.id, ConnParam.of(null));
        return peer;
    }

    /**
     * SENDs {@code length} bytes and awaits the completion.
     *
     * @param length the message's length.
     */
    void send(final int length)
    {
        send(DATA_OFFSET, length);
    }

    private void send(final int offset, final int length)
    {
        final SendWorkRequest send = new SendWorkRequest().wrId(1).opcode(SendOpcode.SEND)
            .sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, offset, length);
        qp.postSend(send);
        watch.await(WcOpcode.SEND, "the peer's send");
    }

    /**
     * Puts {@code data} into the peer's buffer and SENDs an rping advertisement of it.
     *
     * @param data what the buffer holds.
     */
    void advertise(final byte[] data)
    {
        mr.buffer().put(DATA_OFFSET, data);
        new RpingInfo().wrap(mr.buffer(), INFO_OFFSET).set(mr.address() + DATA_OFFSET, mr.rkey(), data.length);
        send(INFO_OFFSET, RpingInfo.LENGTH);
    }

    /**
     * Disconnects, as a peer that leaves in the middle of the protocol.
     */
    void disconnect()
    {
        id.disconnect();
    }

    @Override
    public void close()
    {
        resources.close();
    }

    private void createQp()
    {
        final ProtectionDomain pd = resources.push(id.context().allocPd());
        final CompletionQueue cq = resources.push(id.context().createCq(8, null, 0));
        qp = resources.push(id.createQp(pd, new QpInitAttr(QpType.RC, cq, cq, new QpCapabilities(4, 4, 1, 1, 0),
            false)));
        mr = resources.push(pd.registerMemory(ByteBuffer.allocateDirect(BUFFER_LENGTH),
            AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE));
        watch = new CompletionWatch(qp, cq, cm);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(2);
        recv.sge(0).set(mr, 0, RECV_LENGTH);
        qp.postRecv(recv);
    }
}
