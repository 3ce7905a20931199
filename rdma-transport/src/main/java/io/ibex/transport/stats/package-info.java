/**
 * A channel's statistics: the metrics of VILLAS's stats hook (one-way delay, gaps, reordering, ...) in
 * histograms and counters, readable live from any thread ({@link io.ibex.transport.stats.ChannelStats}).
 */
package io.ibex.transport.stats;
