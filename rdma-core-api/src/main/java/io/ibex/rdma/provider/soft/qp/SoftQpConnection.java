package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.provider.soft.wire.SoftLinkToken;
import io.ibex.rdma.provider.soft.wire.SoftPeerRegions;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryWire;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.WcStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The RC/UC link of a {@link SoftQueuePair}: opened at RTR by the side whose (endpoint, QPN) is lower, adopted by
 * the other from the links its peers offer (checked against the connection's {@link SoftLinkToken}), and closed on
 * reset, destroy, a protocol error or a lost link, which also move the QP to ERR.
 * <p>
 * The public methods, called by the device as links arrive, take the QP lock; every other method runs with it held.
 * Only {@link #link} is read without it, for diagnostics. Owns the link and the pending one: it closes them.
 * Allocates only when a link is opened or lost.
 */
public final class SoftQpConnection
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftQpConnection.class);

    private final SoftQueuePair qp;
    private final SoftDevice device;
    /** Where the remote QP is, from the address vector: its device's UDP endpoint and the key naming it. */
    private InetSocketAddress remoteAddress;
    private long remoteKey;
    /** The RC/UC connection; null until connected and after it failed. */
    SoftLink link;
    /** The QP of this device at the other end, if it is one: a poller of this QP drives it when nobody else does. */
    volatile SoftQueuePair localPeer;
    private SoftLink pendingLink;
    private long pendingSrcKey;
    private int pendingSrcQpn;
    /** The token the pending link's HELLO carried; null for a link this device made (no HELLO). */
    private byte[] pendingToken;
    /** What the HELLO of this QP's link must carry; bound by the connection manager. */
    private final SoftLinkToken token = new SoftLinkToken();

    SoftQpConnection(final SoftQueuePair qp, final SoftDevice device)
    {
        this.qp = qp;
        this.device = device;
    }

    /**
     * Aims the connection at the device whose endpoint GID {@code dgid} is (a modify's address vector).
     */
    void aim(final Gid dgid)
    {
        remoteAddress = SoftGidDescriptor.toSocketAddress(dgid);
        remoteKey = SoftGidDescriptor.endpointKey(SoftGidDescriptor.ipv4(dgid), SoftGidDescriptor.port(dgid));
    }

    InetSocketAddress remoteAddress()
    {
        return remoteAddress;
    }

    void bindToken(final byte[] bytes)
    {
        token.set(bytes);
    }

    /**
     * Whether a HELLO carrying {@code hello} is refused already: a token is bound and this is not it. With none bound
     * yet (a connection manager may bind one before RTR) the check waits for the link's adoption.
     */
    public boolean refuses(final byte[] hello)
    {
        qp.lock.lock();
        try
        {
            return token.bound() && !token.admits(hello);
        }
        finally
        {
            qp.lock.unlock();
        }
    }

    /**
     * At RTR: the side whose (endpoint, QPN) is lower opens the link; the other waits for it.
     */
    void connect()
    {
        final int qpn = qp.qpNum();
        final int destQpn = qp.destQpn();
        final long myKey = device.endpointKey();
        localPeer = myKey == remoteKey ? device.queuePair(destQpn) : null;
        final boolean connector = myKey < remoteKey || (myKey == remoteKey && qpn < destQpn);
        if (!connector)
        {
            adoptPending();
            return;
        }
        final SoftQueuePair peer = localPeer;
        if (peer != null && device.memoryLocalLinks())
        {
            // the peer's lock is taken inside this one's: only ever from the lower QPN to the higher, no cycle
            final SoftLink[] ends = SoftLink.inMemory(qpn, destQpn, device::faults);
            link = ends[0];
            peer.connection().offer(ends[1], myKey, qpn, null);
            return;
        }
        try
        {
            link = SoftLink.connect(remoteAddress, device.ipv4(), device.port(), qpn, destQpn, token,
                device.offersSharedMemoryTo(remoteAddress, peer != null) ? device::offerSharedMemory : null,
                device::faults);
        }
        catch (final IOException ex)
        {
            LOG.warn("{}: cannot connect to {} for QP 0x{}: {}; QP to ERR", qp, remoteAddress,
                Integer.toHexString(destQpn), ex.toString());
            qp.enterError();
        }
    }

    /**
     * Attaches a link a peer opened to this QP (its HELLO named this QP), or keeps it until RTR.
     *
     * @param hello the token the HELLO carried, or null for a link this device made between two of its QPs.
     */
    public void offer(final SoftLink incoming, final long srcKey, final int srcQpn, final byte[] hello)
    {
        qp.lock.lock();
        try
        {
            offerLocked(incoming, srcKey, srcQpn, hello);
        }
        finally
        {
            qp.lock.unlock();
        }
    }

    private void offerLocked(final SoftLink incoming, final long srcKey, final int srcQpn, final byte[] hello)
    {
        final QpState current = qp.state;
        if (qp.isClosed() || current == QpState.ERR)
        {
            LOG.warn("{}: incoming link from {} (QP 0x{}) refused: QP is {}", qp, incoming.peer(),
                Integer.toHexString(srcQpn), qp.isClosed() ? "closed" : current);
            incoming.close();
            return;
        }
        final boolean beforeRtr = current == QpState.RESET || current == QpState.INIT;
        if (beforeRtr && pendingLink != null)
        {
            pendingLink.close();
        }
        pendingLink = incoming;
        pendingSrcKey = srcKey;
        pendingSrcQpn = srcQpn;
        pendingToken = hello;
        if (!beforeRtr)
        {
            adoptPending();
        }
    }

    /**
     * Makes the pending link the QP's if it comes from the QP's remote QP with the connection's token; closes it if
     * not.
     */
    void adoptPending()
    {
        final SoftLink incoming = pendingLink;
        if (incoming == null)
        {
            return;
        }
        pendingLink = null;
        final byte[] hello = pendingToken;
        pendingToken = null;
        if (hello != null && !token.admits(hello))
        {
            LOG.warn("{}: incoming link from {} (QP 0x{}) refused: its HELLO lacks its connection's token; closed",
                qp, incoming.peer(), Integer.toHexString(pendingSrcQpn));
            incoming.close();
        }
        else if (link == null && pendingSrcKey == remoteKey && pendingSrcQpn == qp.destQpn())
        {
            if (incoming.closedByPeer())
            {
                // kept from before the peer's QP was reset: its reconnection is the live link, still to come
                LOG.debug("{}: incoming link from {} was closed by the peer before it was adopted; dropped",
                    qp, incoming.peer());
                incoming.close();
            }
            else
            {
                link = incoming;
            }
        }
        else
        {
            LOG.warn("{}: incoming link from {} (QP 0x{}) does not match its remote QP 0x{} at {}; closed",
                qp, incoming.peer(), Integer.toHexString(pendingSrcQpn), Integer.toHexString(qp.destQpn()),
                remoteAddress);
            incoming.close();
        }
    }

    /**
     * Tells a peer process on a shared-memory link whether it may copy RDMA WRITEs and READs into and out of this
     * QP's shared regions directly, and under which PD and access flags (see {@link SoftPeerRegions}). Nothing
     * without a link.
     */
    void publishGate()
    {
        final SoftSharedMemoryWire shared = link == null ? null : link.sharedMemory();
        if (shared != null)
        {
            shared.gate(SoftQueuePair.isConnected(qp.state) ?
                ((long)qp.pdHandle() << 32) | (qp.responder.accessFlags() & 0xffffffffL) : 0);
        }
    }

    /**
     * The peer sent something this protocol never sends: the link cannot be trusted any more.
     */
    void protocolError(final String what)
    {
        LOG.error("{}: garbage from peer {}: {}; closing the link, QP to ERR", qp,
            link == null ? "?" : link.peer(), what);
        close();
        qp.enterError();
    }

    /**
     * The link broke: RC fails the oldest queued request with RETRY_EXC_ERR, as a real transport would.
     */
    void linkFailed(final String reason)
    {
        LOG.warn("{}: link to QP 0x{} at {} lost ({}); QP to ERR", qp, Integer.toHexString(qp.destQpn()),
            remoteAddress, reason);
        dropLink();
    }

    /**
     * The peer's QP said goodbye (destroyed or reset): the link ends as a lost one does, but that is worth a warning
     * only if requests of this QP were still unanswered, which then fail.
     */
    void peerLeft()
    {
        if (awaitsAnswers())
        {
            LOG.warn("{}: QP 0x{} at {} left (destroyed or reset) before answering this QP's requests; QP to ERR",
                qp, Integer.toHexString(qp.destQpn()), remoteAddress);
        }
        else
        {
            LOG.debug("{}: QP 0x{} at {} left (destroyed or reset); QP to ERR", qp,
                Integer.toHexString(qp.destQpn()), remoteAddress);
        }
        dropLink();
    }

    /** @return whether requests of this QP wait for the peer's answer (RC; UC's complete as they go out). */
    private boolean awaitsAnswers()
    {
        return qp.type() == QpType.RC && qp.sendQueue.hasQueued();
    }

    private void dropLink()
    {
        close();
        if (awaitsAnswers())
        {
            qp.sendQueue.failOldest(WcStatus.RETRY_EXC_ERR);
        }
        else
        {
            qp.enterError();
        }
    }

    /**
     * RESET: the link closes, and the token goes with the connection it was drawn for.
     */
    void reset()
    {
        close();
        localPeer = null;
        token.clear();
    }

    /**
     * Closes the link and the pending one.
     */
    void close()
    {
        if (link != null)
        {
            link.close();
            link = null;
        }
        if (pendingLink != null)
        {
            pendingLink.close();
            pendingLink = null;
            pendingToken = null;
        }
    }
}
