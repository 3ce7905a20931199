package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.SecretFile;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalValues;

import java.net.Inet6Address;
import java.net.InetSocketAddress;

/**
 * Writes a {@link ChannelConfig} as a libconfig node, every setting included, which
 * {@link ChannelConfig#fromGroup} reads back to an equal config.
 */
final class ChannelConfigWriter
{
    private static final String INDENT = "    ";

    private final StringBuilder text = new StringBuilder();
    private String indent = "";

    private ChannelConfigWriter()
    {
    }

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
        writer.open("in");
        writer.setting("address", address(config.inAddress()));
        writer.raw("cq_size", config.inCqSize());
        writer.raw("max_wrs", config.inMaxWrs());
        writer.raw("vectorize", config.inVectorize());
        writer.raw("buffer_subtraction", config.inBufferSubtraction());
        writer.raw("admission_timeout", config.admissionTimeout().toMillis());
        writer.raw("signals", signals(config.signals()));
        writer.raw("hooks", config.inHooks());
        writer.close();
        writer.open("out");
        writer.setting("address", address(config.outAddress()));
        writer.raw("resolution_timeout", config.outResolutionTimeoutMillis());
        writer.raw("cq_size", config.outCqSize());
        writer.raw("max_wrs", config.outMaxWrs());
        writer.raw("vectorize", config.outVectorize());
        writer.raw("send_inline", config.outSendInline());
        writer.raw("max_inline_data", config.outMaxInlineData());
        writer.raw("use_fallback", config.outUseFallback());
        writer.raw("periodic_signaling", config.outPeriodicSignalingSetting());
        writer.raw("reconnect", config.reconnect());
        writer.raw("reconnect_min_delay", config.reconnectMinDelay().toMillis());
        writer.raw("reconnect_max_delay", config.reconnectMaxDelay().toMillis());
        writer.raw("hooks", config.outHooks());
        writer.close();
        writer.close();
        return writer.text.toString();
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
