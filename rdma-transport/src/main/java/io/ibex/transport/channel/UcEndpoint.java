package io.ibex.transport.channel;

import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One side of a UC connection, as the private data of the rdma_cm handshake carries it. rdma_cm connects RC
 * queue pairs only (librdmacm's RDMA_PS_IB creates RC ids), so a UC channel connects an RC id for the
 * handshake and for hearing about disconnects, and moves its own UC queue pair through INIT, RTR and RTS with
 * what the peer sent, the way {@code ibv_uc_pingpong} does out of band: QP number, first PSN, LID and GID.
 * The target's reply adds a link token it drew for the connection, which both ends bind to their UC queue pair
 * ({@link QueuePair#bindLinkToken}), so that on the soft provider no other process can attach to it.
 * <p>
 * Layout (32 bytes, little-endian): magic "IBXU", QP number, PSN, LID (u16), 2 reserved, GID (16); in the reply
 * the link token (16) follows.
 */
record UcEndpoint(int qpNum, int psn, int lid, Gid gid)
{
    static final int PORT = 1;
    static final int LENGTH = 32;
    static final int REPLY_LENGTH = LENGTH + QueuePair.LINK_TOKEN_LENGTH;
    private static final int MAGIC = 0x55584249;
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * Describes a local UC queue pair with a random first PSN, on the port's GID for the channel's IP address
     * (RoCE's IPv4-mapped GID), else GID index 1 (rxe's and the soft device's convention).
     *
     * @param qp      the UC queue pair.
     * @param context its device.
     * @param ip      in.address's IP.
     * @return the endpoint.
     */
    static UcEndpoint local(final QueuePair qp, final Context context, final InetAddress ip)
    {
        final PortAttributes port = context.queryPort(PORT);
        final int gidIndex = gidIndex(context, port, ip);
        return new UcEndpoint(qp.qpNum(), ThreadLocalRandom.current().nextInt(1 << 24), port.lid(),
            context.queryGid(PORT, gidIndex));
    }

    /**
     * @param data the peer's private data.
     * @return the peer's endpoint.
     * @throws ChannelException if the data is not an ibex UC endpoint.
     */
    static UcEndpoint decode(final byte[] data)
    {
        final ByteBuffer buffer = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        if (data.length < LENGTH || buffer.getInt(0) != MAGIC)
        {
            throw new ChannelException("the peer's " + data.length + " bytes of connection private data are not" +
                " an ibex UC endpoint: is it a channel with rdma_transport_mode = \"UC\"?");
        }
        final byte[] gid = new byte[Gid.LENGTH];
        buffer.position(16);
        buffer.get(gid);
        return new UcEndpoint(buffer.getInt(4), buffer.getInt(8) & 0xFFFFFF, buffer.getShort(12) & 0xFFFF,
            Gid.of(gid));
    }

    /** @return the private data describing this endpoint, as a request carries it. */
    byte[] encode()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(MAGIC).putInt(qpNum).putInt(psn).putShort((short)lid).putShort((short)0).put(gid.toBytes());
        return buffer.array();
    }

    /**
     * @param linkToken the connection's link token.
     * @return the private data describing this endpoint and the token, as the target's reply carries them.
     */
    byte[] encodeReply(final byte[] linkToken)
    {
        final byte[] reply = Arrays.copyOf(encode(), REPLY_LENGTH);
        System.arraycopy(linkToken, 0, reply, LENGTH, linkToken.length);
        return reply;
    }

    /** @return a new link token: {@link QueuePair#LINK_TOKEN_LENGTH} bytes of {@link SecureRandom}. */
    static byte[] newLinkToken()
    {
        final byte[] token = new byte[QueuePair.LINK_TOKEN_LENGTH];
        RANDOM.nextBytes(token);
        return token;
    }

    /**
     * @param reply the target's private data.
     * @return the link token it carries.
     * @throws ChannelException if it carries none or all zeros (a target of ibex before 0.2.0).
     */
    static byte[] linkToken(final byte[] reply)
    {
        final byte[] token = reply.length >= REPLY_LENGTH ? Arrays.copyOfRange(reply, LENGTH, REPLY_LENGTH) : null;
        if (token == null || Arrays.equals(token, new byte[token.length]))
        {
            throw new ChannelException("the target's UC reply carries no link token: is it ibex 0.2.0 or later?");
        }
        return token;
    }

    /**
     * Binds the connection's link token to a local UC queue pair (in INIT), then moves it to RTS, sending to this
     * peer.
     *
     * @param qp        the local queue pair.
     * @param local     the local endpoint (its PSN is the first one sent).
     * @param linkToken the connection's link token.
     * @param context   the device.
     */
    void connect(final QueuePair qp, final UcEndpoint local, final byte[] linkToken, final Context context)
    {
        qp.bindLinkToken(linkToken);
        final PortAttributes port = context.queryPort(PORT);
        final AhAttr peer = lid != 0 ? AhAttr.local(PORT, lid) :
            AhAttr.global(PORT, gid, gidIndex(context, port, local.gid));
        qp.modify(QpAttr.rtr(peer, qpNum, psn, port.activeMtu()).forType(QpType.UC));
        qp.modify(QpAttr.rts(local.psn).forType(QpType.UC));
    }

    /** Moves a new UC queue pair to INIT, ready for receives. */
    static void init(final QueuePair qp)
    {
        qp.modify(QpAttr.init(PORT, 0));
    }

    private static int gidIndex(final Context context, final PortAttributes port, final InetAddress ip)
    {
        return gidIndex(context, port, Gid.of(ip));
    }

    private static int gidIndex(final Context context, final PortAttributes port, final Gid wanted)
    {
        for (int index = 0; index < port.gidTblLen(); index++)
        {
            if (wanted.equals(context.queryGid(PORT, index)))
            {
                return index;
            }
        }
        return port.gidTblLen() > 1 ? 1 : 0;
    }
}
