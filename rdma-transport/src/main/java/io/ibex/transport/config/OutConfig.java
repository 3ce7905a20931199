package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigValue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * The sending side of a {@link ChannelConfig}: VILLAS's {@code out} group ({@code out.address},
 * {@code out.max_wrs}, ...) and ibex's reconnection keys in it. Immutable; read it as
 * {@code config.out().maxWrs()}.
 */
public final class OutConfig
{
    /** Default of {@code out.resolution_timeout}, in milliseconds. */
    public static final int DEFAULT_RESOLUTION_TIMEOUT_MILLIS = 1000;
    /** Default of {@code out.reconnect_min_delay}. */
    public static final Duration DEFAULT_RECONNECT_MIN_DELAY = Duration.ofMillis(10);
    /** Default of {@code out.reconnect_max_delay}. */
    public static final Duration DEFAULT_RECONNECT_MAX_DELAY = Duration.ofSeconds(2);

    private final InetSocketAddress address;
    private final int resolutionTimeoutMillis;
    private final int cqSize;
    private final int maxWrs;
    private final int vectorize;
    private final boolean sendInline;
    private final int maxInlineData;
    private final boolean useFallback;
    private final int periodicSignalingSetting;
    private final boolean reconnect;
    private final Duration reconnectMinDelay;
    private final Duration reconnectMaxDelay;
    private final ConfigValue hooks;

    private OutConfig(final Builder builder)
    {
        address = builder.address;
        resolutionTimeoutMillis = builder.resolutionTimeoutMillis;
        cqSize = builder.cqSize;
        maxWrs = builder.maxWrs;
        vectorize = builder.vectorize;
        sendInline = builder.sendInline;
        maxInlineData = builder.maxInlineData;
        useFallback = builder.useFallback;
        periodicSignalingSetting = builder.periodicSignaling;
        reconnect = builder.reconnect;
        reconnectMinDelay = builder.reconnectMinDelay;
        reconnectMaxDelay = builder.reconnectMaxDelay;
        hooks = builder.hooks;
    }

    /** @return the peer to connect to ({@code out.address}), or null for a target that only listens. */
    public InetSocketAddress address()
    {
        return address;
    }

    /** @return the timeout of address and route resolution, in milliseconds ({@code out.resolution_timeout}). */
    public int resolutionTimeoutMillis()
    {
        return resolutionTimeoutMillis;
    }

    /** @return the send completion queue's depth ({@code out.cq_size}). */
    public int cqSize()
    {
        return cqSize;
    }

    /** @return the send queue's work requests ({@code out.max_wrs}; a power of two once checked). */
    public int maxWrs()
    {
        return maxWrs;
    }

    /** @return the most samples one write posts in one list ({@code out.vectorize}). */
    public int vectorize()
    {
        return vectorize;
    }

    /** @return whether samples that fit {@link #maxInlineData()} are sent inline ({@code out.send_inline}). */
    public boolean sendInline()
    {
        return sendInline;
    }

    /** @return the inline data the queue pair is asked for (the provider may grant more). */
    public int maxInlineData()
    {
        return maxInlineData;
    }

    /** @return whether a source that cannot reach its peer becomes a listening target instead of failing. */
    public boolean useFallback()
    {
        return useFallback;
    }

    /**
     * @return every how many sends one is signaled: as set, or half of {@link #maxWrs()}; but at least every
     *     {@link #maxInFlight()} / 2 sends (and at least 1), so that a signaled send's completion retires sends
     *     well before the limit on sends in flight holds the writer back, which otherwise could wait forever.
     */
    public int periodicSignaling()
    {
        final int every = periodicSignalingSetting != 0 ? periodicSignalingSetting : maxWrs / 2;
        return Math.max(1, Math.min(every, maxInFlight() / 2));
    }

    /**
     * @return the most sends the channel keeps in flight: {@link #maxWrs()}, but no more than {@link #cqSize()},
     *     since when a connection breaks every send in flight, signaled or not, completes into the send completion
     *     queue, which must not overrun.
     */
    public int maxInFlight()
    {
        return Math.min(maxWrs, cqSize);
    }

    /** @return whether a source that loses its peer connects again ({@code out.reconnect}, default true). */
    public boolean reconnect()
    {
        return reconnect;
    }

    /** @return the first delay before connecting again; it doubles up to {@link #reconnectMaxDelay()}. */
    public Duration reconnectMinDelay()
    {
        return reconnectMinDelay;
    }

    /** @return the longest delay between two connection attempts. */
    public Duration reconnectMaxDelay()
    {
        return reconnectMaxDelay;
    }

    /** @return {@code out.periodic_signaling} as set, 0 for half of {@link #maxWrs()}. */
    int periodicSignalingSetting()
    {
        return periodicSignalingSetting;
    }

    /** @return {@code out.hooks} as written, or null. */
    ConfigValue hooks()
    {
        return hooks;
    }

    /** @return the group in libconfig syntax, every setting included. */
    @Override
    public String toString()
    {
        return ChannelConfigWriter.write(this);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof OutConfig out && Objects.equals(address, out.address) &&
            resolutionTimeoutMillis == out.resolutionTimeoutMillis && cqSize == out.cqSize && maxWrs == out.maxWrs &&
            vectorize == out.vectorize && sendInline == out.sendInline && maxInlineData == out.maxInlineData &&
            useFallback == out.useFallback && periodicSignalingSetting == out.periodicSignalingSetting &&
            reconnect == out.reconnect && Objects.equals(reconnectMinDelay, out.reconnectMinDelay) &&
            Objects.equals(reconnectMaxDelay, out.reconnectMaxDelay) && Objects.equals(hooks, out.hooks);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(address, resolutionTimeoutMillis, cqSize, maxWrs, vectorize, sendInline, maxInlineData,
            useFallback, periodicSignalingSetting, reconnect, reconnectMinDelay, reconnectMaxDelay, hooks);
    }

    /**
     * Sets the {@code out} group of a {@link ChannelConfig.Builder}, which hands it out in
     * {@link ChannelConfig.Builder#out(java.util.function.Consumer)}; errors name the method and the key.
     */
    public static final class Builder
    {
        private final ConfigOrigins origins;
        private InetSocketAddress address;
        private int resolutionTimeoutMillis = DEFAULT_RESOLUTION_TIMEOUT_MILLIS;
        private int cqSize = ChannelConfig.DEFAULT_CQ_SIZE;
        private int maxWrs = ChannelConfig.DEFAULT_MAX_WRS;
        private int vectorize = 1;
        private boolean sendInline = true;
        private int maxInlineData;
        private boolean useFallback = true;
        private int periodicSignaling;
        private boolean reconnect = true;
        private Duration reconnectMinDelay = DEFAULT_RECONNECT_MIN_DELAY;
        private Duration reconnectMaxDelay = DEFAULT_RECONNECT_MAX_DELAY;
        private ConfigValue hooks;

        Builder(final ConfigOrigins origins)
        {
            this.origins = origins;
        }

        Builder(final ConfigOrigins origins, final OutConfig out)
        {
            this(origins);
            address = out.address;
            resolutionTimeoutMillis = out.resolutionTimeoutMillis;
            cqSize = out.cqSize;
            maxWrs = out.maxWrs;
            vectorize = out.vectorize;
            sendInline = out.sendInline;
            maxInlineData = out.maxInlineData;
            useFallback = out.useFallback;
            periodicSignaling = out.periodicSignalingSetting;
            reconnect = out.reconnect;
            reconnectMinDelay = out.reconnectMinDelay;
            reconnectMaxDelay = out.reconnectMaxDelay;
            hooks = out.hooks;
        }

        /**
         * @param address the peer to connect to, or null for a target (default).
         * @return this builder.
         */
        public Builder address(final InetSocketAddress address)
        {
            this.address = address;
            return set("out.address", "address");
        }

        /**
         * @param address the peer to connect to, as a config writes it ("ip:port", "[ipv6]:port").
         * @return this builder.
         * @throws ConfigException if it is not such an address.
         */
        public Builder address(final String address)
        {
            return address(ConfigOrigins.parseAddress(address, "out.address", "out(...).address"));
        }

        /**
         * @param millis address and route resolution timeout (default 1000).
         * @return this builder.
         */
        public Builder resolutionTimeoutMillis(final int millis)
        {
            this.resolutionTimeoutMillis = millis;
            return set("out.resolution_timeout", "resolutionTimeoutMillis");
        }

        /**
         * @param cqSize the send completion queue's depth (default 128).
         * @return this builder.
         */
        public Builder cqSize(final int cqSize)
        {
            this.cqSize = cqSize;
            return set("out.cq_size", "cqSize");
        }

        /**
         * @param maxWrs the send queue's work requests (default 128).
         * @return this builder.
         */
        public Builder maxWrs(final int maxWrs)
        {
            this.maxWrs = maxWrs;
            return set("out.max_wrs", "maxWrs");
        }

        /**
         * @param vectorize the most samples one write posts (default 1).
         * @return this builder.
         */
        public Builder vectorize(final int vectorize)
        {
            this.vectorize = vectorize;
            return set("out.vectorize", "vectorize");
        }

        /**
         * @param sendInline whether small samples are sent inline (default true).
         * @return this builder.
         */
        public Builder sendInline(final boolean sendInline)
        {
            this.sendInline = sendInline;
            return set("out.send_inline", "sendInline");
        }

        /**
         * @param maxInlineData the inline data asked of the queue pair (default 0).
         * @return this builder.
         */
        public Builder maxInlineData(final int maxInlineData)
        {
            this.maxInlineData = maxInlineData;
            return set("out.max_inline_data", "maxInlineData");
        }

        /**
         * @param useFallback whether an unreachable peer makes a target (default true).
         * @return this builder.
         */
        public Builder useFallback(final boolean useFallback)
        {
            this.useFallback = useFallback;
            return set("out.use_fallback", "useFallback");
        }

        /**
         * @param every every how many sends one is signaled; 0 (default) for half of out.max_wrs.
         * @return this builder.
         */
        public Builder periodicSignaling(final int every)
        {
            this.periodicSignaling = every;
            return set("out.periodic_signaling", "periodicSignaling");
        }

        /**
         * @param reconnect whether a source that loses its peer connects again (default true).
         * @return this builder.
         */
        public Builder reconnect(final boolean reconnect)
        {
            this.reconnect = reconnect;
            return set("out.reconnect", "reconnect");
        }

        /**
         * @param delay the first delay before connecting again (default 10 ms).
         * @return this builder.
         */
        public Builder reconnectMinDelay(final Duration delay)
        {
            this.reconnectMinDelay = delay;
            return set("out.reconnect_min_delay", "reconnectMinDelay");
        }

        /**
         * @param delay the longest delay between attempts (default 2 s).
         * @return this builder.
         */
        public Builder reconnectMaxDelay(final Duration delay)
        {
            this.reconnectMaxDelay = delay;
            return set("out.reconnect_max_delay", "reconnectMaxDelay");
        }

        /**
         * @param hooks the output's hooks as a config tree gives them, or null.
         * @return this builder.
         */
        Builder hooks(final ConfigValue hooks)
        {
            this.hooks = hooks;
            return set("out.hooks", "hooks");
        }

        /** @param checked {@code out.max_wrs} as check() rounded it, keeping where the user set it. */
        void checkedMaxWrs(final int checked)
        {
            maxWrs = checked;
        }

        /** Checks every value on its own. */
        OutConfig build()
        {
            origins.requireRange("out.resolution_timeout", resolutionTimeoutMillis, 1, Integer.MAX_VALUE);
            origins.requireRange("out.cq_size", cqSize, 1, ChannelConfig.MAX_QUEUE_SIZE);
            origins.requireRange("out.max_wrs", maxWrs, 1, ChannelConfig.MAX_QUEUE_SIZE);
            origins.requireRange("out.vectorize", vectorize, 1, ChannelConfig.MAX_QUEUE_SIZE);
            origins.requireRange("out.max_inline_data", maxInlineData, 0, Integer.MAX_VALUE);
            origins.requireRange("out.periodic_signaling", periodicSignaling, 0, ChannelConfig.MAX_QUEUE_SIZE);
            origins.requirePositive("out.reconnect_min_delay", reconnectMinDelay);
            origins.requirePositive("out.reconnect_max_delay", reconnectMaxDelay);
            return new OutConfig(this);
        }

        private Builder set(final String key, final String method)
        {
            origins.set(key, "out(...)." + method);
            return this;
        }
    }
}
