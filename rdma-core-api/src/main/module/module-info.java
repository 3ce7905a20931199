/**
 * ibex's verbs API: the {@code ibv_*} object model ({@link io.ibex.rdma.verbs}), an rdma_cm-style connection
 * manager ({@link io.ibex.rdma.cm}), and {@link io.ibex.rdma.Providers}, which chooses the soft or the disni
 * provider ({@link io.ibex.rdma.spi} is what a provider implements).
 */
module io.ibex.rdma
{
    requires transitive org.agrona.core;
    requires org.slf4j;
    requires jdk.unsupported;

    exports io.ibex.rdma;
    exports io.ibex.rdma.cm;
    exports io.ibex.rdma.spi;
    exports io.ibex.rdma.verbs;

    uses io.ibex.rdma.spi.RdmaProvider;

    provides io.ibex.rdma.spi.RdmaProvider with
        io.ibex.rdma.provider.soft.SoftProvider,
        io.ibex.rdma.provider.disni.DisniProvider;
}
