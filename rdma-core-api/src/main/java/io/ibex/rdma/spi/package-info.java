/**
 * What a verbs implementation provides: an {@link io.ibex.rdma.spi.RdmaProvider} found with
 * {@link java.util.ServiceLoader}, and the rules every provider shares (resource lifetimes, argument checks).
 * Applications use {@link io.ibex.rdma.Providers} instead.
 */
package io.ibex.rdma.spi;
