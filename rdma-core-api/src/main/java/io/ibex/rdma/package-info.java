/**
 * Choosing a verbs implementation: {@link io.ibex.rdma.Providers#select()} returns the {@link io.ibex.rdma.Provider}
 * that {@code -Dibex.provider}, {@code $IBEX_PROVIDER} or automatic choice names (disni on an RDMA device, else the
 * pure Java soft provider); its devices open into the objects of {@link io.ibex.rdma.verbs}.
 */
package io.ibex.rdma;
