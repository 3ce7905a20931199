package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.SecretFile;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalValues;

import java.net.Inet6Address;
import java.net.InetSocketAddress;

/**
 * Writes a {@link ChannelConfig} as a libconfig node, every setting included, which the binder reads back to an
 * equal config; and its {@code in} and {@code out} groups alone, for their {@code toString()}.
 */
final class ChannelConfigWriter
{
    private static final String INDENT = "    ";

    private final StringBuilder text = new StringBuilder();
    private String indent = "";

    private ChannelConfigWriter()
    {
    }

    /** @return the node, {@link ChannelConfig#toString()}. */
    static String write(final ChannelConfig config)
    {
        final ChannelConfigWriter writer = new ChannelConfigWriter();
        writer.open(config.name());
        writer.setting("type", ChannelConfig.NODE_TYPE);
        writer.setting("rdma_transport_mode", config.mode().name());
        writer.setting("provider", config.provider());
        writer.setting("device", config.device());
        writer.setting("poll_mode", config.pollMode().configName());
        writer.setting("idle_strategy", config.idle().configName());
        writer.setting(SecretFile.KEY, config.secretFile() == null ? null : config.secretFile().toString());
        writer.raw("hooks", config.hooks());
        writer.in(config.in(), config.signals());
        writer.out(config.out());
        writer.close();
        return writer.text.toString();
    }

    /** @return the {@code in} group alone, {@link InConfig#toString()}. */
    static String write(final InConfig in)
    {
        final ChannelConfigWriter writer = new ChannelConfigWriter();
        writer.in(in, null);
        return writer.text.toString();
    }

    /** @return the {@code out} group alone, {@link OutConfig#toString()}. */
    static String write(final OutConfig out)
    {
        final ChannelConfigWriter writer = new ChannelConfigWriter();
        writer.out(out);
        return writer.text.toString();
    }

    private void in(final InConfig in, final SignalList signals)
    {
        open("in");
        setting("address", address(in.address()));
        raw("cq_size", in.cqSize());
        raw("max_wrs", in.maxWrs());
        raw("vectorize", in.vectorize());
        raw("buffer_subtraction", in.bufferSubtraction());
        raw("admission_timeout", in.admissionTimeout().toMillis());
        raw("signals", signals == null ? null : signals(signals));
        raw("hooks", in.hooks());
        close();
    }

    private void out(final OutConfig out)
    {
        open("out");
        setting("address", address(out.address()));
        raw("resolution_timeout", out.resolutionTimeoutMillis());
        raw("cq_size", out.cqSize());
        raw("max_wrs", out.maxWrs());
        raw("vectorize", out.vectorize());
        raw("send_inline", out.sendInline());
        raw("max_inline_data", out.maxInlineData());
        raw("use_fallback", out.useFallback());
        raw("periodic_signaling", out.periodicSignalingSetting());
        raw("reconnect", out.reconnect());
        raw("reconnect_min_delay", out.reconnectMinDelay().toMillis());
        raw("reconnect_max_delay", out.reconnectMaxDelay().toMillis());
        raw("hooks", out.hooks());
        close();
    }

    private void open(final String name)
    {
        text.append(indent).append(name).append(" = {\n");
        indent += INDENT;
    }

    private void close()
    {
        indent = indent.substring(INDENT.length());
        text.append(indent).append(indent.isEmpty() ? "}\n" : "};\n");
    }

    private void setting(final String name, final String value)
    {
        raw(name, value == null ? null : ConfigScalar.quote(value));
    }

    private void raw(final String name, final Object value)
    {
        if (value != null)
        {
            text.append(indent).append(name).append(" = ").append(value).append(";\n");
        }
    }

    private static String address(final InetSocketAddress address)
    {
        if (address == null)
        {
            return null;
        }
        final String host = address.getAddress().getHostAddress();
        return (address.getAddress() instanceof Inet6Address ? '[' + host + ']' : host) + ':' + address.getPort();
    }

    /**
     * A format string such as "12f3i" when the signals are what it would make, else a list of signal groups.
     */
    private static String signals(final SignalList signals)
    {
        final StringBuilder format = new StringBuilder();
        int i = 0;
        while (i < signals.size())
        {
            final int start = i;
            while (i < signals.size() && signals.get(i).type() == signals.get(start).type())
            {
                i++;
            }
            format.append(i - start).append(signals.get(start).type().formatChar());
        }
        final String quoted = ConfigScalar.quote(format.toString());
        if (SignalList.parseFormat(format.toString()).equals(signals))
        {
            return quoted;
        }
        final StringBuilder list = new StringBuilder("(");
        for (int k = 0; k < signals.size(); k++)
        {
            final Signal signal = signals.get(k);
            list.append(k == 0 ? " " : ", ").append("{ name = ").append(ConfigScalar.quote(signal.name()))
                .append("; unit = ").append(ConfigScalar.quote(signal.unit()))
                .append("; type = ").append(ConfigScalar.quote(signal.type().configName()))
                .append("; init = ").append(init(signal)).append("; }");
        }
        return list.append(" )").toString();
    }

    private static Object init(final Signal signal)
    {
        return switch (signal.type())
        {
            case FLOAT -> SignalValues.toFloat(signal.initBits());
            case INTEGER -> signal.initBits();
            case BOOLEAN -> SignalValues.toBoolean(signal.initBits());
            case COMPLEX -> (double)SignalValues.real(signal.initBits());
        };
    }
}
