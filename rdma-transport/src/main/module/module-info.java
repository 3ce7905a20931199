/**
 * ibex's sample channels, with the semantics of VILLASnode's {@code infiniband} node-type: open a
 * {@link io.ibex.transport.channel.SampleChannel} from a {@link io.ibex.transport.config.ChannelConfig}, then
 * claim, write, read and release {@link io.ibex.transport.sample.Sample}s; {@link io.ibex.transport.stats} holds
 * its statistics, {@link io.ibex.transport.thread} thread placement.
 */
module io.ibex.transport
{
    requires transitive io.ibex.rdma;
    requires transitive org.agrona.core;
    requires transitive HdrHistogram;
    requires com.fasterxml.jackson.core;
    requires com.sun.jna;
    requires org.slf4j;

    exports io.ibex.transport.channel;
    exports io.ibex.transport.config;
    exports io.ibex.transport.sample;
    exports io.ibex.transport.stats;
    exports io.ibex.transport.thread;

    // The config tree, its readers and binders: for the runner, not API.
    exports io.ibex.transport.config.internal to io.ibex.samples;
}
