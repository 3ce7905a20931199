package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigValue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * The receiving side of a {@link ChannelConfig}: VILLAS's {@code in} group ({@code in.address}, {@code in.max_wrs},
 * ...). Immutable; read it as {@code config.in().maxWrs()}. {@code in.signals} describe the samples of both sides
 * and are {@link ChannelConfig#signals()}.
 */
public final class InConfig
{
    /** Default of {@code in.buffer_subtraction}. */
    public static final int DEFAULT_BUFFER_SUBTRACTION = 16;
    /** Default of {@code in.admission_timeout}. */
    public static final Duration DEFAULT_ADMISSION_TIMEOUT = Duration.ofSeconds(10);

    private final InetSocketAddress address;
    private final int cqSize;
    private final int maxWrs;
    private final int vectorize;
    private final int bufferSubtraction;
    private final Duration admissionTimeout;
    private final ConfigValue hooks;

    private InConfig(final Builder builder)
    {
        address = builder.address;
        cqSize = builder.cqSize;
        maxWrs = builder.maxWrs;
        vectorize = builder.vectorize;
        bufferSubtraction = builder.bufferSubtraction;
        admissionTimeout = builder.admissionTimeout;
        hooks = builder.hooks;
    }

    /** @return the local address to bind ({@code in.address}). */
    public InetSocketAddress address()
    {
        return address;
    }

    /** @return the receive completion queue's depth ({@code in.cq_size}). */
    public int cqSize()
    {
        return cqSize;
    }

    /** @return the receive queue's work requests ({@code in.max_wrs}; a power of two once checked). */
    public int maxWrs()
    {
        return maxWrs;
    }

    /** @return the most samples one read hands up ({@code in.vectorize}). */
    public int vectorize()
    {
        return vectorize;
    }

    /** @return the headroom: receives are kept posted up to {@code maxWrs() - bufferSubtraction()}. */
    public int bufferSubtraction()
    {
        return bufferSubtraction;
    }

    /**
     * @return how long a target gives a connection it accepted to be set up completely (rdma_cm's handshake, then
     *         the peer's queue pair answering) before dropping it and taking another ({@code in.admission_timeout}).
     */
    public Duration admissionTimeout()
    {
        return admissionTimeout;
    }

    /**
     * @return the receives the channel keeps posted: {@link #maxWrs()} - {@link #bufferSubtraction()}, but no
     *     more than {@link #cqSize()}, since when a connection breaks every posted receive completes into the
     *     receive completion queue, which must not overrun.
     */
    public int maxPosted()
    {
        return Math.min(maxWrs - bufferSubtraction, cqSize);
    }

    /** @return {@code in.hooks} as written, or null. */
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
        return other instanceof InConfig in && Objects.equals(address, in.address) && cqSize == in.cqSize &&
            maxWrs == in.maxWrs && vectorize == in.vectorize && bufferSubtraction == in.bufferSubtraction &&
            Objects.equals(admissionTimeout, in.admissionTimeout) && Objects.equals(hooks, in.hooks);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(address, cqSize, maxWrs, vectorize, bufferSubtraction, admissionTimeout, hooks);
    }

    /**
     * Sets the {@code in} group of a {@link ChannelConfig.Builder}, which hands it out in
     * {@link ChannelConfig.Builder#in(java.util.function.Consumer)}; errors name the method and the key.
     */
    public static final class Builder
    {
        private final ConfigOrigins origins;
        private InetSocketAddress address;
        private int cqSize = ChannelConfig.DEFAULT_CQ_SIZE;
        private int maxWrs = ChannelConfig.DEFAULT_MAX_WRS;
        private int vectorize = 1;
        private int bufferSubtraction = DEFAULT_BUFFER_SUBTRACTION;
        private Duration admissionTimeout = DEFAULT_ADMISSION_TIMEOUT;
        private ConfigValue hooks;

        Builder(final ConfigOrigins origins)
        {
            this.origins = origins;
        }

        Builder(final ConfigOrigins origins, final InConfig in)
        {
            this(origins);
            address = in.address;
            cqSize = in.cqSize;
            maxWrs = in.maxWrs;
            vectorize = in.vectorize;
            bufferSubtraction = in.bufferSubtraction;
            admissionTimeout = in.admissionTimeout;
            hooks = in.hooks;
        }

        /**
         * @param address the local address to bind (required).
         * @return this builder.
         */
        public Builder address(final InetSocketAddress address)
        {
            this.address = address;
            return set("in.address", "address");
        }

        /**
         * @param address the local address to bind, as a config writes it ("ip:port", "[ipv6]:port").
         * @return this builder.
         * @throws ConfigException if it is not such an address.
         */
        public Builder address(final String address)
        {
            return address(ConfigOrigins.parseAddress(address, "in.address", "in(...).address"));
        }

        /**
         * @param cqSize the receive completion queue's depth (default 128).
         * @return this builder.
         */
        public Builder cqSize(final int cqSize)
        {
            this.cqSize = cqSize;
            return set("in.cq_size", "cqSize");
        }

        /**
         * @param maxWrs the receive queue's work requests (default 128).
         * @return this builder.
         */
        public Builder maxWrs(final int maxWrs)
        {
            this.maxWrs = maxWrs;
            return set("in.max_wrs", "maxWrs");
        }

        /**
         * @param vectorize the most samples one read hands up (default 1).
         * @return this builder.
         */
        public Builder vectorize(final int vectorize)
        {
            this.vectorize = vectorize;
            return set("in.vectorize", "vectorize");
        }

        /**
         * @param bufferSubtraction receives left unposted as headroom (default 16).
         * @return this builder.
         */
        public Builder bufferSubtraction(final int bufferSubtraction)
        {
            this.bufferSubtraction = bufferSubtraction;
            return set("in.buffer_subtraction", "bufferSubtraction");
        }

        /**
         * @param timeout how long an accepted connection may take to be set up before a target drops it (default
         *                10 s).
         * @return this builder.
         */
        public Builder admissionTimeout(final Duration timeout)
        {
            this.admissionTimeout = timeout;
            return set("in.admission_timeout", "admissionTimeout");
        }

        /**
         * @param hooks the input's hooks as a config tree gives them, or null.
         * @return this builder.
         */
        Builder hooks(final ConfigValue hooks)
        {
            this.hooks = hooks;
            return set("in.hooks", "hooks");
        }

        /** @param checked {@code in.max_wrs} as check() rounded it, keeping where the user set it. */
        void checkedMaxWrs(final int checked)
        {
            maxWrs = checked;
        }

        /**
         * Checks every value on its own, except that {@code in.address} is set ({@link ChannelConfig.Builder#build()}
         * checks that last).
         */
        InConfig build()
        {
            origins.requireRange("in.cq_size", cqSize, 1, ChannelConfig.MAX_QUEUE_SIZE);
            origins.requireRange("in.max_wrs", maxWrs, 1, ChannelConfig.MAX_QUEUE_SIZE);
            origins.requireRange("in.vectorize", vectorize, 1, ChannelConfig.MAX_QUEUE_SIZE);
            origins.requireRange("in.buffer_subtraction", bufferSubtraction, 0, ChannelConfig.MAX_QUEUE_SIZE);
            origins.requirePositive("in.admission_timeout", admissionTimeout);
            return new InConfig(this);
        }

        private Builder set(final String key, final String method)
        {
            origins.set(key, "in(...)." + method);
            return this;
        }
    }
}
