package io.ibex.rdma.cm;

import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.RdmaResource;

import java.net.InetSocketAddress;

/**
 * A connection id, as {@code struct rdma_cm_id}. Asynchronous steps (resolve, connect, accept, disconnect)
 * return at once; their outcome arrives as a {@link CmEvent} on the {@link EventChannel}. Closing an id
 * destroys the queue pair created on it.
 * <p>
 * A client: {@link #resolveAddr} then ADDR_RESOLVED, {@link #resolveRoute} then ROUTE_RESOLVED,
 * {@link #createQp}, {@link #connect} then ESTABLISHED (or REJECTED, UNREACHABLE, CONNECT_ERROR). A server:
 * {@link #bindAddr}, {@link #listen}, then CONNECT_REQUEST with a new id, on which it calls
 * {@link #createQp} and {@link #accept} (then ESTABLISHED) or {@link #reject}.
 */
public interface CmId extends RdmaResource
{
    /** @return the channel events for this id arrive on. */
    EventChannel channel();

    /** @return the port space. */
    PortSpace portSpace();

    /**
     * @return the device context this id is bound to (after bind to a device address, address resolution,
     *         or for ids from CONNECT_REQUEST); null before.
     */
    Context context();

    /** @return the queue pair created on this id, or null. */
    QueuePair qp();

    /** @return the local address, or null before bind/resolve. */
    InetSocketAddress localAddress();

    /** @return the remote address, or null before resolve/connect request. */
    InetSocketAddress remoteAddress();

    /**
     * Binds to a local address, as {@code rdma_bind_addr}. Port 0 picks a free port.
     *
     * @param address local address.
     */
    void bindAddr(InetSocketAddress address);

    /**
     * Starts listening, as {@code rdma_listen}; requests arrive as CONNECT_REQUEST events.
     *
     * @param backlog pending requests to queue.
     */
    void listen(int backlog);

    /**
     * Resolves the destination to a local device, as {@code rdma_resolve_addr}: ADDR_RESOLVED or ADDR_ERROR.
     *
     * @param src           local address to use, or null for any.
     * @param dst           destination.
     * @param timeoutMillis time limit.
     */
    void resolveAddr(InetSocketAddress src, InetSocketAddress dst, int timeoutMillis);

    /**
     * Resolves the route, as {@code rdma_resolve_route}: ROUTE_RESOLVED or ROUTE_ERROR.
     *
     * @param timeoutMillis time limit.
     */
    void resolveRoute(int timeoutMillis);

    /**
     * Creates the id's queue pair, as {@code rdma_create_qp}: the type must match the port space; the QP is
     * moved to the state the CM needs (INIT for connected QPs, RTS for UD).
     *
     * @param pd       protection domain of the id's context.
     * @param initAttr creation attributes.
     * @return the queue pair.
     */
    QueuePair createQp(ProtectionDomain pd, QpInitAttr initAttr);

    /**
     * Connects, as {@code rdma_connect} (a SIDR request in the UDP port space).
     *
     * @param param connection parameters and private data.
     */
    void connect(ConnParam param);

    /**
     * Accepts a connection request on the id from CONNECT_REQUEST, as {@code rdma_accept}.
     *
     * @param param connection parameters and private data.
     */
    void accept(ConnParam param);

    /**
     * Rejects a connection request, as {@code rdma_reject}; the peer gets REJECTED with this data.
     *
     * @param privateData bytes for the peer, or null.
     */
    void reject(byte[] privateData);

    /**
     * Disconnects, as {@code rdma_disconnect}: the QP moves to ERR (flushing outstanding requests) and both
     * sides get DISCONNECTED.
     */
    void disconnect();
}
