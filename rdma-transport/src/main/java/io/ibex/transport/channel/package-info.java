/**
 * Sample channels: {@link io.ibex.transport.channel.SampleChannel#open} connects a source to a target over RC, UC
 * or UD as VILLASnode's {@code infiniband} node-type does; samples are claimed into, written from and read into
 * {@link io.ibex.transport.channel.SampleBatch}es, zero copy and allocation-free.
 */
package io.ibex.transport.channel;
