package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.GroupBinder;
import io.ibex.transport.config.internal.SecretFile;
import io.ibex.transport.config.internal.SignalListBinder;
import io.ibex.transport.config.internal.SocketAddresses;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Binds the VILLAS keys of an {@code infiniband} node to a {@link ChannelConfig.Builder} (its {@code in} and
 * {@code out} groups to the part builders), recording where each value was written so that later errors can name it.
 */
final class ChannelConfigBinder
{
    private final ChannelConfig.Builder builder;

    private ChannelConfigBinder(final ChannelConfig.Builder builder)
    {
        this.builder = builder;
    }

    /**
     * @param root     a whole config: {@code nodes.<nodeName>} is bound, or the top level if there is no
     *                 {@code nodes}.
     * @param nodeName the node.
     * @return the node's config.
     */
    static ChannelConfig bindNode(final ConfigGroup root, final String nodeName)
    {
        if (!root.has("nodes"))
        {
            return bind(nodeName, root);
        }
        final GroupBinder nodes = GroupBinder.of(root).group("nodes");
        if (nodes.setting(nodeName) == null)
        {
            throw new ConfigException(nodes.location(), "no node '" + nodeName + "' in nodes (it has: " +
                String.join(", ", nodes.group().names()) + ")");
        }
        return bind(nodeName, nodes.group(nodeName).group());
    }

    /**
     * @param nodeName the node's name.
     * @param node     its settings.
     * @return the node's config, not yet checked.
     */
    static ChannelConfig bind(final String nodeName, final ConfigGroup node)
    {
        final ChannelConfig.Builder builder = new ChannelConfig.Builder(node.location());
        builder.name(nodeName).origin("name", "name", node.location());
        final GroupBinder root = GroupBinder.of(node);
        new ChannelConfigBinder(builder).bindNode(root);
        root.finish();
        return builder.build();
    }

    private void bindNode(final GroupBinder node)
    {
        final String type = node.string("type");
        if (type != null && !type.equals(ChannelConfig.NODE_TYPE))
        {
            throw node.error("type", "type = " + ConfigScalar.quote(type) + ": not an infiniband node");
        }
        final String modeKey = node.either("rdma_transport_mode", "rdma_port_space");
        bind(node, modeKey, "rdma_transport_mode", choice(node, TransportMode::fromConfigName), builder::mode);
        bind(node, "provider", node::string, builder::provider);
        bind(node, "device", node::string, builder::device);
        bind(node, "poll_mode", choice(node, PollMode::fromConfigName), builder::pollMode);
        bind(node, "idle_strategy", choice(node, IdleKind::fromConfigName), builder::idle);
        bind(node, SecretFile.KEY, choice(node, Path::of), builder::secretFile);
        bind(node, "hooks", node::value, builder::hooks);
        final GroupBinder in = node.group("in");
        bindIn(in);
        bindSignals(node, in);
        bindOut(node.group("out"));
    }

    private void bindIn(final GroupBinder in)
    {
        final InConfig.Builder settings = builder.inBuilder();
        bind(in, "address", address(in), settings::address);
        bind(in, "cq_size", in::int32, settings::cqSize);
        bind(in, "max_wrs", in::int32, settings::maxWrs);
        bind(in, "vectorize", in::int32, settings::vectorize);
        bind(in, "buffer_subtraction", in::int32, settings::bufferSubtraction);
        bind(in, "admission_timeout", millis(in), settings::admissionTimeout);
        bind(in, "hooks", in::value, settings::hooks);
    }

    private void bindOut(final GroupBinder out)
    {
        final OutConfig.Builder settings = builder.outBuilder();
        bind(out, "address", address(out), settings::address);
        final String timeoutKey = out.either("resolution_timeout", "timeout");
        bind(out, timeoutKey, "out.resolution_timeout", out::int32, settings::resolutionTimeoutMillis);
        bind(out, "cq_size", out::int32, settings::cqSize);
        bind(out, "max_wrs", out::int32, settings::maxWrs);
        bind(out, "vectorize", out::int32, settings::vectorize);
        bind(out, "send_inline", out::bool, settings::sendInline);
        bind(out, "max_inline_data", out::int32, settings::maxInlineData);
        bind(out, "use_fallback", out::bool, settings::useFallback);
        bind(out, "periodic_signaling", out::int32, settings::periodicSignaling);
        bind(out, "reconnect", out::bool, settings::reconnect);
        bind(out, "reconnect_min_delay", millis(out), settings::reconnectMinDelay);
        bind(out, "reconnect_max_delay", millis(out), settings::reconnectMaxDelay);
        bind(out, "hooks", out::value, settings::hooks);
    }

    private void bindSignals(final GroupBinder node, final GroupBinder in)
    {
        final GroupBinder where = SignalListBinder.holder(node, in);
        bind(where, "signals", "in.signals", name -> SignalListBinder.signals(where, name), builder::signals);
    }

    private <T> void bind(final GroupBinder group, final String name, final Function<String, T> read,
        final Consumer<T> setter)
    {
        bind(group, name, group.path(name), read, setter);
    }

    /**
     * @param written the key as the config may write it (an alias, maybe).
     * @param key     its canonical path, which the builder's rules name.
     */
    private <T> void bind(final GroupBinder group, final String written, final String key,
        final Function<String, T> read, final Consumer<T> setter)
    {
        final T value = read.apply(written);
        if (value != null)
        {
            setter.accept(value);
            builder.origin(key, group.path(written), group.valueLocation(written));
        }
    }

    private static <E> Function<String, E> choice(final GroupBinder group, final Function<String, E> parse)
    {
        return name -> group.parsed(name, parse);
    }

    private static Function<String, InetSocketAddress> address(final GroupBinder group)
    {
        return choice(group, SocketAddresses::parse);
    }

    private static Function<String, Duration> millis(final GroupBinder group)
    {
        return name ->
        {
            final Integer millis = group.int32(name);
            return millis == null ? null : Duration.ofMillis(millis);
        };
    }
}
