/**
 * A channel's configuration: {@link io.ibex.transport.config.ChannelConfig}, from its builder or read from a
 * VILLAS config file (libconfig or JSON), with every option of the {@code infiniband} node-type; errors are
 * {@link io.ibex.transport.config.ConfigException}s naming the key, the value and where it was written.
 */
package io.ibex.transport.config;
