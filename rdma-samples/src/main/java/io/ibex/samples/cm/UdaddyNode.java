package io.ibex.samples.cm;

import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.UdParams;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Gid;
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
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcFlags;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WorkCompletion;

import java.nio.ByteBuffer;

/**
 * One of udaddy's connections ({@code struct cmatest_node}): a connection id of the UDP port space with its
 * protection domain, completion queue, UD queue pair and message buffer, and, once the peer is known, an
 * address handle with the peer's QPN and Q_Key. The buffer holds a receive slot of the 40-byte GRH plus
 * {@code size} bytes, where every message lands, then the client's send slot of {@code size} bytes:
 * <pre>
 *   0         40             40 + size              40 + 2 size
 *   | GRH     | message      | send slot (client)   |
 * </pre>
 * The server replies with the first {@code size} bytes of its receive slot, GRH included, exactly as udaddy
 * does; so a reply carries the last message's first {@code size - 40} bytes 40 bytes further on, which the
 * client checks against what it sent.
 */
final class UdaddyNode
{
    /** The Q_Key rdma_cm gives every QP of the UDP port space (RDMA_UDP_QKEY); udaddy queries its own QP's. */
    static final int RDMA_UDP_QKEY = 0x01234567;
    /** The port rdma_cm uses on RoCE devices. */
    static final int PORT_NUM = 1;

    private static final long RECV_WR_ID = 1;
    private static final long SEND_WR_ID = 2;

    private final int index;
    private final CmId id;
    private final int size;
    private final int count;
    private final ResourceStack resources;
    private ProtectionDomain pd;
    private QueuePair qp;
    private MemoryRegion mr;
    private CompletionWatch watch;
    private AddressHandle ah;
    private int remoteQpn;
    private int remoteQkey;

    /**
     * @param index     the node's number, from 0.
     * @param id        its connection id.
     * @param size      bytes of each message (udaddy's {@code -S}).
     * @param count     messages each way (udaddy's {@code -C}).
     * @param resources where the node's resources go, to be released in reverse order.
     */
    UdaddyNode(final int index, final CmId id, final int size, final int count, final ResourceStack resources)
    {
        this.index = index;
        this.id = id;
        this.size = size;
        this.count = count;
        this.resources = resources;
    }

    /** @return the node's number, from 0. */
    int index()
    {
        return index;
    }

    /** @return the node's connection id. */
    CmId id()
    {
        return id;
    }

    /** @return the node's QP number. */
    int qpNum()
    {
        return qp.qpNum();
    }

    /**
     * Checks the message size against the port's MTU, then creates the verbs resources ({@code init_node}) and
     * posts a receive for every message to come ({@code post_recvs}).
     *
     * @param cm the connection manager of the node's id.
     */
    void init(final CmSequence cm)
    {
        final Context context = id.context();
        final int mtu = context.queryPort(PORT_NUM).activeMtu().bytes();
        if (count > 0 && size > mtu)
        {
            throw new IllegalArgumentException("-S " + size + " is larger than the active MTU " + mtu + " of " +
                context.device().name() + " port " + PORT_NUM);
        }
        pd = resources.push(context.allocPd());
        final CompletionQueue cq = resources.push(context.createCq(count > 0 ? 2 * count : 2, null, 0));
        final int depth = Math.max(count, 1);
        qp = resources.push(id.createQp(pd,
            new QpInitAttr(QpType.UD, cq, cq, new QpCapabilities(depth, depth, 1, 1, 0), false)));
        watch = new CompletionWatch(qp, cq, cm);
        mr = resources.push(pd.registerMemory(ByteBuffer.allocateDirect(GrhDescriptor.LENGTH + 2 * size),
            AccessFlags.LOCAL_WRITE));
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(RECV_WR_ID);
        recv.sge(0).set(mr, 0, GrhDescriptor.LENGTH + size);
        for (int i = 0; i < count; i++)
        {
            qp.postRecv(recv);
        }
    }

    /**
     * The client's node is connected: address the server with the ESTABLISHED event's UD parameters
     * ({@code resolved_handler}).
     *
     * @param ud the server's QPN, Q_Key and address.
     */
    void established(final UdParams ud)
    {
        if (ud == null)
        {
            throw new IllegalStateException("node " + index + ": ESTABLISHED came without the server's UD " +
                "parameters (QPN, Q_Key, address)");
        }
        ah = resources.push(pd.createAh(ud.ahAttr()));
        remoteQpn = ud.qpNum();
        remoteQkey = ud.qkey();
    }

    /**
     * Fills the client's send slot with a pattern of its own, so the echo in the replies can be recognised.
     */
    void fillSendSlot()
    {
        final ByteBuffer buffer = mr.buffer();
        for (int i = 0; i < size; i++)
        {
            buffer.put(sendSlot() + i, (byte)('a' + (index + i) % ('z' - 'a' + 1)));
        }
    }

    /**
     * Posts a SEND with immediate data (this QP's number) of every message, as {@code post_sends}.
     *
     * @param offset   where the messages start in the buffer: the client's send slot, or 0 for the server's
     *                 echo of its receive slot.
     * @param signaled whether each send is signaled (udaddy's client sends unsignaled, its server signaled).
     */
    void sendAll(final int offset, final boolean signaled)
    {
        final SendWorkRequest send = new SendWorkRequest().wrId(SEND_WR_ID).opcode(SendOpcode.SEND_WITH_IMM)
            .immData(qp.qpNum()).sendFlags(signaled ? SendFlags.SIGNALED : 0).ud(ah, remoteQpn, remoteQkey);
        send.sge(0).set(mr, offset, size);
        for (int i = 0; i < count; i++)
        {
            qp.postSend(send);
        }
    }

    /**
     * Awaits every message from the peer and checks each: a GRH, {@code 40 + size} bytes, and as immediate
     * data the QP number of the sender. The server's node addresses its replies to the first message's sender
     * ({@code create_reply_ah}: from the GRH, the immediate data, and its own Q_Key).
     *
     * @param what the messages, for error messages ("message", "reply").
     * @return the sender's QP number.
     */
    int receiveAll(final String what)
    {
        for (int i = 0; i < count; i++)
        {
            final WorkCompletion wc = watch.await(WcOpcode.RECV, "node " + index + "'s " + what + " " + i + " of " +
                count);
            check(wc, what, i);
            if (ah == null)
            {
                replyTo(wc.immData());
            }
        }
        return remoteQpn;
    }

    /**
     * Awaits the completion of every signaled send.
     */
    void awaitSends()
    {
        for (int i = 0; i < count; i++)
        {
            watch.await(WcOpcode.SEND, "the completion of node " + index + "'s send " + i + " of " + count);
        }
    }

    /**
     * @return how many bytes of the last reply echo what the client sent (see the class comment).
     * @throws IllegalStateException if they differ.
     */
    int checkEcho()
    {
        final ByteBuffer buffer = mr.buffer();
        final int echoed = Math.max(size - GrhDescriptor.LENGTH, 0);
        final int echoAt = 2 * GrhDescriptor.LENGTH;
        for (int i = 0; i < echoed; i++)
        {
            if (buffer.get(echoAt + i) != buffer.get(sendSlot() + i))
            {
                throw new IllegalStateException(String.format("node %d: byte %d of the server's reply is 0x%02x, " +
                    "where udaddy's server echoes byte %d of the message sent, 0x%02x", index,
                    GrhDescriptor.LENGTH + i, buffer.get(echoAt + i) & 0xff, i, buffer.get(sendSlot() + i) & 0xff));
            }
        }
        return echoed;
    }

    /** @return the GID the replies go to (the server's node, once it has received). */
    Gid replyGid()
    {
        return ah == null ? null : GrhDescriptor.sourceGid(mr.buffer(), 0);
    }

    /** @return where the client's send slot starts. */
    int sendSlot()
    {
        return GrhDescriptor.LENGTH + size;
    }

    private void check(final WorkCompletion wc, final String what, final int i)
    {
        final String which = "node " + index + "'s " + what + " " + i;
        if (wc.byteLen() != GrhDescriptor.LENGTH + size)
        {
            throw new IllegalStateException(String.format("%s has %d bytes, expected %d (the 40-byte GRH and -S %d)",
                which, wc.byteLen(), GrhDescriptor.LENGTH + size, size));
        }
        if ((wc.wcFlags() & WcFlags.GRH) == 0 || (wc.wcFlags() & WcFlags.WITH_IMM) == 0)
        {
            throw new IllegalStateException(String.format("%s lacks a GRH or immediate data (wc_flags 0x%x)",
                which, wc.wcFlags()));
        }
        if (wc.immData() != wc.srcQp() || (ah != null && wc.srcQp() != remoteQpn))
        {
            throw new IllegalStateException(String.format("%s came from QPN 0x%06x with immediate data 0x%06x; " +
                "udaddy sends its own QPN%s", which, wc.srcQp(), wc.immData(),
                ah != null ? String.format(", and the peer is QPN 0x%06x", remoteQpn) : ""));
        }
    }

    private void replyTo(final int qpn)
    {
        final ByteBuffer buffer = mr.buffer();
        final Gid local = GrhDescriptor.destinationGid(buffer, 0);
        final AhAttr reply = AhAttr.global(PORT_NUM, GrhDescriptor.sourceGid(buffer, 0), gidIndex(local));
        ah = resources.push(pd.createAh(reply));
        remoteQpn = qpn;
        remoteQkey = RDMA_UDP_QKEY;
    }

    /** The GID-table index of the GID a message was addressed to, as {@code ibv_init_ah_from_wc} finds it. */
    private int gidIndex(final Gid gid)
    {
        final Context context = id.context();
        final int length = context.queryPort(PORT_NUM).gidTblLen();
        for (int i = 0; i < length; i++)
        {
            try
            {
                if (gid.equals(context.queryGid(PORT_NUM, i)))
                {
                    return i;
                }
            }
            catch (final VerbsException ex)
            {
                // an empty entry of the table: keep looking
            }
        }
        throw new IllegalStateException("node " + index + ": the messages were addressed to GID " + gid +
            ", which is not in the GID table of " + context.device().name() + " port " + PORT_NUM);
    }
}
