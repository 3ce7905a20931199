/**
 * The verbs object model, one type per {@code ibv_*} object, created from its parent as in C: a
 * {@link io.ibex.rdma.verbs.Device} opens a {@link io.ibex.rdma.verbs.Context}, which allocates protection domains,
 * completion queues and channels; a protection domain registers memory and creates queue pairs and address
 * handles. Enums and flags carry the {@code ibv_*} numeric values; failures carry the errno C would return
 * ({@link io.ibex.rdma.verbs.VerbsException}).
 */
package io.ibex.rdma.verbs;
