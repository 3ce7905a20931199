package io.ibex.transport.config;

import io.ibex.transport.config.internal.ChannelConfigs;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigReaders;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.ConfigValue;
import io.ibex.transport.config.internal.SecretFile;
import io.ibex.transport.config.internal.SocketAddresses;
import io.ibex.transport.sample.SignalList;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The immutable, validated config of one channel: every option of VILLASnode's {@code infiniband} node-type with
 * its defaults, plus ibex's own ({@code provider}, {@code device}, {@code poll_mode}, {@code idle_strategy},
 * {@code secret_file}, reconnection). Built by {@link #builder()} or from a file by {@link #read(Path, String)} (the runner
 * binds nodes of its config tree); each checks every value on
 * its own and fails with a {@link ConfigException} naming the key, the value and where it was set. {@link #check()}
 * then applies the C node-type's check() rules, which weigh settings against each other (docs/config.md lists them
 * all).
 *
 * <p>Two configs are equal when their settings are, wherever they were written; warnings are not compared.
 */
public final class ChannelConfig
{
    /** The name of a channel built without one. */
    public static final String DEFAULT_NAME = "channel";
    /** The {@code type} of a node this config describes. */
    public static final String NODE_TYPE = "infiniband";
    /** The accepted {@code provider} values. */
    public static final List<String> PROVIDERS = List.of("auto", "soft", "disni");
    /** Default of {@code in.cq_size} and {@code out.cq_size}. */
    public static final int DEFAULT_CQ_SIZE = 128;
    /** Default of {@code in.max_wrs} and {@code out.max_wrs}. */
    public static final int DEFAULT_MAX_WRS = 128;
    /** Default of {@code in.buffer_subtraction}. */
    public static final int DEFAULT_BUFFER_SUBTRACTION = 16;
    /** Default of {@code out.resolution_timeout}, in milliseconds. */
    public static final int DEFAULT_RESOLUTION_TIMEOUT_MILLIS = 1000;
    /** Default of {@code in.admission_timeout}. */
    public static final Duration DEFAULT_ADMISSION_TIMEOUT = Duration.ofSeconds(10);
    /** Default of {@code out.reconnect_min_delay}. */
    public static final Duration DEFAULT_RECONNECT_MIN_DELAY = Duration.ofMillis(10);
    /** Default of {@code out.reconnect_max_delay}. */
    public static final Duration DEFAULT_RECONNECT_MAX_DELAY = Duration.ofSeconds(2);
    /** The largest queue size or work request count accepted: 2^30, so rounding up to a power of two fits. */
    public static final int MAX_QUEUE_SIZE = 1 << 30;

    static
    {
        ChannelConfigs.install(new ChannelConfigs.Access()
        {
            @Override
            public ChannelConfig fromGroup(final String nodeName, final ConfigGroup node)
            {
                return ChannelConfigBinder.bind(nodeName, node);
            }

            @Override
            public ConfigValue hooks(final ChannelConfig config, final String key)
            {
                return switch (key)
                {
                    case "hooks" -> config.hooks;
                    case "in.hooks" -> config.inHooks;
                    case "out.hooks" -> config.outHooks;
                    default -> throw new IllegalArgumentException("no hooks at " + key);
                };
            }
        });
    }

    private final String name;
    private final TransportMode mode;
    private final String provider;
    private final String device;
    private final PollMode pollMode;
    private final IdleKind idle;
    private final Path secretFile;
    private final SignalList signals;
    private final InetSocketAddress inAddress;
    private final int inCqSize;
    private final int inMaxWrs;
    private final int inVectorize;
    private final int inBufferSubtraction;
    private final Duration admissionTimeout;
    private final InetSocketAddress outAddress;
    private final int outResolutionTimeoutMillis;
    private final int outCqSize;
    private final int outMaxWrs;
    private final int outVectorize;
    private final boolean outSendInline;
    private final int outMaxInlineData;
    private final boolean outUseFallback;
    private final int outPeriodicSignalingSetting;
    private final boolean reconnect;
    private final Duration reconnectMinDelay;
    private final Duration reconnectMaxDelay;
    private final ConfigValue hooks;
    private final ConfigValue inHooks;
    private final ConfigValue outHooks;
    private final boolean checked;
    private final List<String> warnings;
    private final ConfigLocation defaultLocation;
    private final Map<String, Origin> origins;

    private ChannelConfig(final Builder builder, final boolean checked, final List<String> warnings)
    {
        name = builder.name;
        mode = builder.mode;
        provider = builder.provider;
        device = builder.device;
        pollMode = builder.pollMode;
        idle = builder.idle;
        secretFile = builder.secretFile;
        signals = builder.signals;
        inAddress = builder.inAddress;
        inCqSize = builder.inCqSize;
        inMaxWrs = builder.inMaxWrs;
        inVectorize = builder.inVectorize;
        inBufferSubtraction = builder.inBufferSubtraction;
        admissionTimeout = builder.admissionTimeout;
        outAddress = builder.outAddress;
        outResolutionTimeoutMillis = builder.outResolutionTimeoutMillis;
        outCqSize = builder.outCqSize;
        outMaxWrs = builder.outMaxWrs;
        outVectorize = builder.outVectorize;
        outSendInline = builder.outSendInline;
        outMaxInlineData = builder.outMaxInlineData;
        outUseFallback = builder.outUseFallback;
        outPeriodicSignalingSetting = builder.outPeriodicSignaling;
        reconnect = builder.reconnect;
        reconnectMinDelay = builder.reconnectMinDelay;
        reconnectMaxDelay = builder.reconnectMaxDelay;
        hooks = builder.hooks;
        inHooks = builder.inHooks;
        outHooks = builder.outHooks;
        this.checked = checked;
        this.warnings = List.copyOf(warnings);
        defaultLocation = builder.defaultLocation;
        origins = Map.copyOf(builder.origins);
    }

    /** @return a builder with every default; {@code in.address} must be set. */
    public static Builder builder()
    {
        return new Builder(ConfigLocation.of("ChannelConfig.builder()"));
    }

    /**
     * Reads a config file ({@code .conf} or {@code .json}) and binds the node {@code nodes.<nodeName>}; a file
     * without a {@code nodes} group is the node itself.
     *
     * @param file     the file.
     * @param nodeName the node to bind.
     * @return the config, not yet {@link #check() checked}.
     * @throws ConfigException if the file cannot be read, has no such node, or the node's settings are wrong.
     */
    public static ChannelConfig read(final Path file, final String nodeName)
    {
        return ChannelConfigBinder.bindNode(ConfigReaders.read(file), nodeName);
    }

    /**
     * Applies the C node-type's check() rules: errors when settings contradict each other, {@code max_wrs} rounded
     * up to a power of two, warnings in {@link #warnings()}; and reads {@code secret_file}, if set, to check it
     * ({@link SecretFile}).
     *
     * @return the checked config ({@code this} if it was checked already).
     * @throws ConfigException naming the rule, the keys, their values and where they were set.
     */
    public ChannelConfig check()
    {
        if (checked)
        {
            return this;
        }
        final Builder builder = toBuilder();
        final List<String> checkWarnings = new ArrayList<>(warnings);
        ChannelConfigChecks.apply(this, builder, checkWarnings);
        return new ChannelConfig(builder, true, checkWarnings);
    }

    /** @return a builder holding this config's settings (and where they were set), to derive another config. */
    public Builder toBuilder()
    {
        final Builder builder = new Builder(defaultLocation);
        builder.name = name;
        builder.mode = mode;
        builder.provider = provider;
        builder.device = device;
        builder.pollMode = pollMode;
        builder.idle = idle;
        builder.secretFile = secretFile;
        builder.signals = signals;
        builder.inAddress = inAddress;
        builder.inCqSize = inCqSize;
        builder.inMaxWrs = inMaxWrs;
        builder.inVectorize = inVectorize;
        builder.inBufferSubtraction = inBufferSubtraction;
        builder.admissionTimeout = admissionTimeout;
        builder.outAddress = outAddress;
        builder.outResolutionTimeoutMillis = outResolutionTimeoutMillis;
        builder.outCqSize = outCqSize;
        builder.outMaxWrs = outMaxWrs;
        builder.outVectorize = outVectorize;
        builder.outSendInline = outSendInline;
        builder.outMaxInlineData = outMaxInlineData;
        builder.outUseFallback = outUseFallback;
        builder.outPeriodicSignaling = outPeriodicSignalingSetting;
        builder.reconnect = reconnect;
        builder.reconnectMinDelay = reconnectMinDelay;
        builder.reconnectMaxDelay = reconnectMaxDelay;
        builder.hooks = hooks;
        builder.inHooks = inHooks;
        builder.outHooks = outHooks;
        builder.origins.putAll(origins);
        return builder;
    }

    /** @return the node's name. */
    public String name()
    {
        return name;
    }

    /** @return the queue pair type ({@code rdma_transport_mode}, default RC). */
    public TransportMode mode()
    {
        return mode;
    }

    /** @return "auto" (the default: disni where it loads, else soft), "soft" or "disni". */
    public String provider()
    {
        return provider;
    }

    /** @return the RDMA device to use, or null for the one that owns {@link #inAddress()}. */
    public String device()
    {
        return device;
    }

    /** @return how completions are waited for (default BUSY). */
    public PollMode pollMode()
    {
        return pollMode;
    }

    /** @return the idle strategy of waits (default YIELDING). */
    public IdleKind idle()
    {
        return idle;
    }

    /**
     * @return the file of the secret both ends of a connection must prove they know ({@code secret_file}), as set
     *     (relative to the working directory if relative), or null to connect without authentication (default).
     */
    public Path secretFile()
    {
        return secretFile;
    }

    /** @return the signals of the samples (default 64 floats). */
    public SignalList signals()
    {
        return signals;
    }

    /** @return the local address to bind ({@code in.address}). */
    public InetSocketAddress inAddress()
    {
        return inAddress;
    }

    /** @return the receive completion queue's depth. */
    public int inCqSize()
    {
        return inCqSize;
    }

    /** @return the receive queue's work requests (a power of two once checked). */
    public int inMaxWrs()
    {
        return inMaxWrs;
    }

    /** @return the most samples one read hands up. */
    public int inVectorize()
    {
        return inVectorize;
    }

    /** @return the headroom: receives are kept posted up to {@code inMaxWrs() - inBufferSubtraction()}. */
    public int inBufferSubtraction()
    {
        return inBufferSubtraction;
    }

    /** @return the peer to connect to, or null for a target that only listens. */
    public InetSocketAddress outAddress()
    {
        return outAddress;
    }

    /** @return whether this node connects to a peer (it has an {@code out.address}). */
    public boolean isSource()
    {
        return outAddress != null;
    }

    /** @return the timeout of address and route resolution, in milliseconds. */
    public int outResolutionTimeoutMillis()
    {
        return outResolutionTimeoutMillis;
    }

    /** @return the send completion queue's depth. */
    public int outCqSize()
    {
        return outCqSize;
    }

    /** @return the send queue's work requests (a power of two once checked). */
    public int outMaxWrs()
    {
        return outMaxWrs;
    }

    /** @return the most samples one write posts in one list. */
    public int outVectorize()
    {
        return outVectorize;
    }

    /** @return whether samples that fit {@link #outMaxInlineData()} are sent inline. */
    public boolean outSendInline()
    {
        return outSendInline;
    }

    /** @return the inline data the queue pair is asked for (the provider may grant more). */
    public int outMaxInlineData()
    {
        return outMaxInlineData;
    }

    /** @return whether a source that cannot reach its peer becomes a listening target instead of failing. */
    public boolean outUseFallback()
    {
        return outUseFallback;
    }

    /**
     * @return every how many sends one is signaled: as set, or half of {@link #outMaxWrs()}; but at least every
     *     {@link #outMaxInFlight()} / 2 sends (and at least 1), so that a signaled send's completion retires sends
     *     well before the limit on sends in flight holds the writer back, which otherwise could wait forever.
     */
    public int outPeriodicSignaling()
    {
        final int every = outPeriodicSignalingSetting != 0 ? outPeriodicSignalingSetting : outMaxWrs / 2;
        return Math.max(1, Math.min(every, outMaxInFlight() / 2));
    }

    /**
     * @return the most sends the channel keeps in flight: {@link #outMaxWrs()}, but no more than
     *     {@link #outCqSize()}, since when a connection breaks every send in flight, signaled or not, completes
     *     into the send completion queue, which must not overrun.
     */
    public int outMaxInFlight()
    {
        return Math.min(outMaxWrs, outCqSize);
    }

    /**
     * @return the receives the channel keeps posted: {@link #inMaxWrs()} - {@link #inBufferSubtraction()}, but no
     *     more than {@link #inCqSize()}, since when a connection breaks every posted receive completes into the
     *     receive completion queue, which must not overrun.
     */
    public int inMaxPosted()
    {
        return Math.min(inMaxWrs - inBufferSubtraction, inCqSize);
    }

    /** @return {@code out.periodic_signaling} as set, 0 for half of {@link #outMaxWrs()}. */
    int outPeriodicSignalingSetting()
    {
        return outPeriodicSignalingSetting;
    }

    /**
     * @return how long a target gives a connection it accepted to be set up completely (rdma_cm's handshake, then
     *         the peer's queue pair answering) before dropping it and taking another.
     */
    public Duration admissionTimeout()
    {
        return admissionTimeout;
    }

    /** @return whether a source that loses its peer connects again (default true). */
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

    /** @return the node's {@code hooks} as written (for the runner: {@link ChannelConfigs}), or null. */
    ConfigValue hooks()
    {
        return hooks;
    }

    /** @return the node's {@code in.hooks} as written, or null. */
    ConfigValue inHooks()
    {
        return inHooks;
    }

    /** @return the node's {@code out.hooks} as written, or null. */
    ConfigValue outHooks()
    {
        return outHooks;
    }

    /** @return whether {@link #check()} made this config. */
    public boolean checked()
    {
        return checked;
    }

    /** @return what {@link #check()} found worth saying, each starting with a location (the channel logs them). */
    public List<String> warnings()
    {
        return warnings;
    }

    /**
     * @param key a key's path, such as {@code "in.address"}.
     * @return where it was set (file, line and column, or the builder method), or the node's location if defaulted:
     *         for errors that come up when the setting is used, such as an address in use.
     */
    public ConfigLocation location(final String key)
    {
        return origin(key).location();
    }

    /**
     * @param key a key's path, such as {@code "in.max_wrs"}.
     * @return how it was set: the key as written (maybe an alias) and where, or the node's location if defaulted.
     */
    Origin origin(final String key)
    {
        final Origin origin = origins.get(key);
        return origin != null ? origin : new Origin(key, defaultLocation, true);
    }

    /** @return the node in libconfig syntax, every setting included. */
    @Override
    public String toString()
    {
        return ChannelConfigWriter.write(this);
    }

    /** @return whether {@code other} has equal settings and was checked or not alike. */
    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ChannelConfig config && Arrays.equals(settings(), config.settings());
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(settings());
    }

    private Object[] settings()
    {
        return new Object[]{
            name, mode, provider, device, pollMode, idle, secretFile, signals, inAddress, inCqSize, inMaxWrs,
            inVectorize, inBufferSubtraction, admissionTimeout, outAddress, outResolutionTimeoutMillis, outCqSize,
            outMaxWrs, outVectorize, outSendInline, outMaxInlineData, outUseFallback, outPeriodicSignalingSetting,
            reconnect,
            reconnectMinDelay, reconnectMaxDelay, hooks, inHooks, outHooks, checked};
    }

    /**
     * How a setting got its value.
     *
     * @param key       the key as written (an alias if the config used one).
     * @param location  where; for a builder, the method.
     * @param defaulted whether nothing set it.
     */
    record Origin(String key, ConfigLocation location, boolean defaulted)
    {
        /**
         * @param value the setting's value.
         * @return {@code "key = value"}, marked "(default)" if defaulted.
         */
        String describe(final Object value)
        {
            return key + " = " + value + (defaulted ? " (default)" : "");
        }
    }

    /**
     * Sets a channel's options in Java; {@link #build()} checks each value as the config binder does, naming the
     * builder method in its errors.
     */
    public static final class Builder
    {
        private String name = DEFAULT_NAME;
        private TransportMode mode = TransportMode.RC;
        private String provider = "auto";
        private String device;
        private PollMode pollMode = PollMode.BUSY;
        private IdleKind idle = IdleKind.YIELDING;
        private Path secretFile;
        private SignalList signals = SignalList.DEFAULT;
        private InetSocketAddress inAddress;
        private int inCqSize = DEFAULT_CQ_SIZE;
        private int inMaxWrs = DEFAULT_MAX_WRS;
        private int inVectorize = 1;
        private int inBufferSubtraction = DEFAULT_BUFFER_SUBTRACTION;
        private Duration admissionTimeout = DEFAULT_ADMISSION_TIMEOUT;
        private InetSocketAddress outAddress;
        private int outResolutionTimeoutMillis = DEFAULT_RESOLUTION_TIMEOUT_MILLIS;
        private int outCqSize = DEFAULT_CQ_SIZE;
        private int outMaxWrs = DEFAULT_MAX_WRS;
        private int outVectorize = 1;
        private boolean outSendInline = true;
        private int outMaxInlineData;
        private boolean outUseFallback = true;
        private int outPeriodicSignaling;
        private boolean reconnect = true;
        private Duration reconnectMinDelay = DEFAULT_RECONNECT_MIN_DELAY;
        private Duration reconnectMaxDelay = DEFAULT_RECONNECT_MAX_DELAY;
        private ConfigValue hooks;
        private ConfigValue inHooks;
        private ConfigValue outHooks;
        private final ConfigLocation defaultLocation;
        private final Map<String, Origin> origins = new HashMap<>();

        Builder(final ConfigLocation defaultLocation)
        {
            this.defaultLocation = defaultLocation;
        }

        /**
         * @param name the node's name (default "channel").
         * @return this builder.
         */
        public Builder name(final String name)
        {
            this.name = name;
            return set("name", "name");
        }

        /**
         * @param mode RC (default), UC or UD.
         * @return this builder.
         */
        public Builder mode(final TransportMode mode)
        {
            this.mode = mode;
            return set("rdma_transport_mode", "mode");
        }

        /**
         * @param provider "auto" (default), "soft" or "disni", in any case.
         * @return this builder.
         */
        public Builder provider(final String provider)
        {
            this.provider = provider;
            return set("provider", "provider");
        }

        /**
         * @param device an RDMA device name, or null for any.
         * @return this builder.
         */
        public Builder device(final String device)
        {
            this.device = device;
            return set("device", "device");
        }

        /**
         * @param pollMode BUSY (default) or EVENT.
         * @return this builder.
         */
        public Builder pollMode(final PollMode pollMode)
        {
            this.pollMode = pollMode;
            return set("poll_mode", "pollMode");
        }

        /**
         * @param idle the idle strategy of waits (default YIELDING).
         * @return this builder.
         */
        public Builder idle(final IdleKind idle)
        {
            this.idle = idle;
            return set("idle_strategy", "idle");
        }

        /**
         * @param secretFile the shared-secret file that authenticates connections both ways, or null for none
         *                   (default); {@link ChannelConfig#check()} reads and checks it.
         * @return this builder.
         */
        public Builder secretFile(final Path secretFile)
        {
            this.secretFile = secretFile;
            return set(SecretFile.KEY, "secretFile");
        }

        /**
         * @param signals the signals of the samples (default 64 floats).
         * @return this builder.
         */
        public Builder signals(final SignalList signals)
        {
            this.signals = signals;
            return set("in.signals", "signals");
        }

        /**
         * @param inAddress the local address to bind (required).
         * @return this builder.
         */
        public Builder inAddress(final InetSocketAddress inAddress)
        {
            this.inAddress = inAddress;
            return set("in.address", "inAddress");
        }

        /**
         * @param inAddress the local address to bind, as a config writes it ("ip:port", "[ipv6]:port").
         * @return this builder.
         * @throws ConfigException if it is not such an address.
         */
        public Builder inAddress(final String inAddress)
        {
            return inAddress(parseAddress(inAddress, "in.address", "inAddress"));
        }

        /**
         * @param inCqSize the receive completion queue's depth (default 128).
         * @return this builder.
         */
        public Builder inCqSize(final int inCqSize)
        {
            this.inCqSize = inCqSize;
            return set("in.cq_size", "inCqSize");
        }

        /**
         * @param inMaxWrs the receive queue's work requests (default 128).
         * @return this builder.
         */
        public Builder inMaxWrs(final int inMaxWrs)
        {
            this.inMaxWrs = inMaxWrs;
            return set("in.max_wrs", "inMaxWrs");
        }

        /**
         * @param inVectorize the most samples one read hands up (default 1).
         * @return this builder.
         */
        public Builder inVectorize(final int inVectorize)
        {
            this.inVectorize = inVectorize;
            return set("in.vectorize", "inVectorize");
        }

        /**
         * @param inBufferSubtraction receives left unposted as headroom (default 16).
         * @return this builder.
         */
        public Builder inBufferSubtraction(final int inBufferSubtraction)
        {
            this.inBufferSubtraction = inBufferSubtraction;
            return set("in.buffer_subtraction", "inBufferSubtraction");
        }

        /**
         * @param outAddress the peer to connect to, or null for a target (default).
         * @return this builder.
         */
        public Builder outAddress(final InetSocketAddress outAddress)
        {
            this.outAddress = outAddress;
            return set("out.address", "outAddress");
        }

        /**
         * @param outAddress the peer to connect to, as a config writes it ("ip:port", "[ipv6]:port").
         * @return this builder.
         * @throws ConfigException if it is not such an address.
         */
        public Builder outAddress(final String outAddress)
        {
            return outAddress(parseAddress(outAddress, "out.address", "outAddress"));
        }

        /**
         * @param millis address and route resolution timeout (default 1000).
         * @return this builder.
         */
        public Builder outResolutionTimeoutMillis(final int millis)
        {
            this.outResolutionTimeoutMillis = millis;
            return set("out.resolution_timeout", "outResolutionTimeoutMillis");
        }

        /**
         * @param outCqSize the send completion queue's depth (default 128).
         * @return this builder.
         */
        public Builder outCqSize(final int outCqSize)
        {
            this.outCqSize = outCqSize;
            return set("out.cq_size", "outCqSize");
        }

        /**
         * @param outMaxWrs the send queue's work requests (default 128).
         * @return this builder.
         */
        public Builder outMaxWrs(final int outMaxWrs)
        {
            this.outMaxWrs = outMaxWrs;
            return set("out.max_wrs", "outMaxWrs");
        }

        /**
         * @param outVectorize the most samples one write posts (default 1).
         * @return this builder.
         */
        public Builder outVectorize(final int outVectorize)
        {
            this.outVectorize = outVectorize;
            return set("out.vectorize", "outVectorize");
        }

        /**
         * @param outSendInline whether small samples are sent inline (default true).
         * @return this builder.
         */
        public Builder outSendInline(final boolean outSendInline)
        {
            this.outSendInline = outSendInline;
            return set("out.send_inline", "outSendInline");
        }

        /**
         * @param outMaxInlineData the inline data asked of the queue pair (default 0).
         * @return this builder.
         */
        public Builder outMaxInlineData(final int outMaxInlineData)
        {
            this.outMaxInlineData = outMaxInlineData;
            return set("out.max_inline_data", "outMaxInlineData");
        }

        /**
         * @param outUseFallback whether an unreachable peer makes a target (default true).
         * @return this builder.
         */
        public Builder outUseFallback(final boolean outUseFallback)
        {
            this.outUseFallback = outUseFallback;
            return set("out.use_fallback", "outUseFallback");
        }

        /**
         * @param every every how many sends one is signaled; 0 (default) for half of out.max_wrs.
         * @return this.
         */
        public Builder outPeriodicSignaling(final int every)
        {
            this.outPeriodicSignaling = every;
            return set("out.periodic_signaling", "outPeriodicSignaling");
        }

        /**
         * @param reconnect whether a source that loses its peer connects again (default true).
         * @return this.
         */
        public Builder reconnect(final boolean reconnect)
        {
            this.reconnect = reconnect;
            return set("out.reconnect", "reconnect");
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
         * @param hooks the node's hooks as a config tree gives them, or null.
         * @return this builder.
         */
        Builder hooks(final ConfigValue hooks)
        {
            this.hooks = hooks;
            return set("hooks", "hooks");
        }

        /**
         * @param inHooks the input's hooks as a config tree gives them, or null.
         * @return this builder.
         */
        Builder inHooks(final ConfigValue inHooks)
        {
            this.inHooks = inHooks;
            return set("in.hooks", "inHooks");
        }

        /**
         * @param outHooks the output's hooks as a config tree gives them, or null.
         * @return this builder.
         */
        Builder outHooks(final ConfigValue outHooks)
        {
            this.outHooks = outHooks;
            return set("out.hooks", "outHooks");
        }

        /**
         * Checks every value on its own (the rules that weigh values against each other are {@link #check()}'s).
         *
         * @return the config, not yet checked.
         * @throws ConfigException naming the key, the value and where it was set (for a builder: the method).
         */
        public ChannelConfig build()
        {
            require("name", name != null && !name.isEmpty(), "name must not be empty");
            requireSet("rdma_transport_mode", mode);
            requireSet("poll_mode", pollMode);
            requireSet("idle_strategy", idle);
            requireSet("in.signals", signals);
            requireSet("in.admission_timeout", admissionTimeout);
            requireSet("out.reconnect_min_delay", reconnectMinDelay);
            requireSet("out.reconnect_max_delay", reconnectMaxDelay);
            require("provider", provider != null && PROVIDERS.contains(provider.toLowerCase(Locale.ROOT)),
                origin("provider").describe(quoted(provider)) + " is not one of " + String.join(", ", PROVIDERS));
            provider = provider.toLowerCase(Locale.ROOT);
            require("device", device == null || !device.isEmpty(), "device must not be empty (leave it out for any)");
            require(SecretFile.KEY, secretFile == null || !secretFile.toString().isEmpty(),
                "secret_file must not be empty (leave it out to connect without authentication)");
            requireRange("in.cq_size", inCqSize, 1, MAX_QUEUE_SIZE);
            requireRange("in.max_wrs", inMaxWrs, 1, MAX_QUEUE_SIZE);
            requireRange("in.vectorize", inVectorize, 1, MAX_QUEUE_SIZE);
            requireRange("in.buffer_subtraction", inBufferSubtraction, 0, MAX_QUEUE_SIZE);
            requireRange("out.resolution_timeout", outResolutionTimeoutMillis, 1, Integer.MAX_VALUE);
            requireRange("out.cq_size", outCqSize, 1, MAX_QUEUE_SIZE);
            requireRange("out.max_wrs", outMaxWrs, 1, MAX_QUEUE_SIZE);
            requireRange("out.vectorize", outVectorize, 1, MAX_QUEUE_SIZE);
            requireRange("out.max_inline_data", outMaxInlineData, 0, Integer.MAX_VALUE);
            requireRange("out.periodic_signaling", outPeriodicSignaling, 0, MAX_QUEUE_SIZE);
            requirePositive("in.admission_timeout", admissionTimeout);
            requirePositive("out.reconnect_min_delay", reconnectMinDelay);
            requirePositive("out.reconnect_max_delay", reconnectMaxDelay);
            requireSet("in.address", inAddress);
            return new ChannelConfig(this, false, List.of());
        }

        /**
         * Records where a binder found a setting, instead of the builder method.
         *
         * @param key      the key's canonical path.
         * @param written  the key as written (an alias, maybe).
         * @param location where its value was written.
         * @return this builder.
         */
        Builder origin(final String key, final String written, final ConfigLocation location)
        {
            origins.put(key, new Origin(written, location, false));
            return this;
        }

        /** Sets a value as check() found it should be, keeping where the user set it. */
        void checkedMaxWrs(final int in, final int out)
        {
            inMaxWrs = in;
            outMaxWrs = out;
        }

        private Builder set(final String key, final String method)
        {
            origins.put(key, new Origin(key, ConfigLocation.of("ChannelConfig.builder()." + method), false));
            return this;
        }

        private Origin origin(final String key)
        {
            final Origin origin = origins.get(key);
            return origin != null ? origin : new Origin(key, defaultLocation, true);
        }

        private InetSocketAddress parseAddress(final String text, final String key, final String method)
        {
            if (text == null)
            {
                return null;
            }
            try
            {
                return SocketAddresses.parse(text);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new ConfigException(ConfigLocation.of("ChannelConfig.builder()." + method),
                    key + ": " + ex.getMessage());
            }
        }

        private void require(final String key, final boolean valid, final String problem)
        {
            if (!valid)
            {
                throw new ConfigException(origin(key).location(), problem);
            }
        }

        private void requireSet(final String key, final Object value)
        {
            require(key, value != null, key + (origin(key).defaulted() ? " is required" : " must not be null"));
        }

        private void requireRange(final String key, final int value, final int min, final int max)
        {
            require(key, value >= min && value <= max,
                origin(key).describe(value) + " is outside " + min + ".." + max);
        }

        private void requirePositive(final String key, final Duration delay)
        {
            require(key, !delay.isNegative() && !delay.isZero(),
                origin(key).describe(delay.toMillis() + " ms") + " must be positive");
        }

        private static String quoted(final String text)
        {
            return text == null ? "null" : ConfigScalar.quote(text);
        }
    }
}
