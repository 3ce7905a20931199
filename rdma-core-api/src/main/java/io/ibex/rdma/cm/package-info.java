/**
 * The connection manager, as librdmacm: an {@link io.ibex.rdma.cm.EventChannel} creates
 * {@link io.ibex.rdma.cm.CmId}s, which resolve, connect, listen and accept; every step is answered by a
 * {@link io.ibex.rdma.cm.CmEvent} from the channel.
 */
package io.ibex.rdma.cm;
