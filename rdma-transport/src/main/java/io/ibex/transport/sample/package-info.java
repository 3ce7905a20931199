/**
 * Samples as VILLASnode's {@code infiniband} node-type sends them: the {@link io.ibex.transport.sample.Sample}
 * flyweight over a slot of registered memory (sequence, ts.origin, 8 bytes a value), and the
 * {@link io.ibex.transport.sample.SignalList} that says what the values are.
 */
package io.ibex.transport.sample;
