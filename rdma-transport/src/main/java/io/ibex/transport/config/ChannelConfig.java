package io.ibex.transport.config;

import io.ibex.transport.config.internal.ChannelConfigs;
import io.ibex.transport.config.internal.ConfigReaders;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.ConfigValue;
import io.ibex.transport.config.internal.SecretFile;
import io.ibex.transport.sample.SignalList;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The immutable, validated config of one channel: every option of VILLASnode's {@code infiniband} node-type with
 * its defaults, plus ibex's own ({@code provider}, {@code device}, {@code poll_mode}, {@code idle_strategy},
 * {@code secret_file}, reconnection). The node's own keys are read here, its {@code in} and {@code out} groups
 * through {@link #in()} and {@link #out()}: {@code in.max_wrs} is {@code config.in().maxWrs()}.
 *
 * <p>Built by {@link #builder()} or from a file by {@link #read(Path, String)} (the runner binds nodes of its config
 * tree); each checks every value on its own and fails with a {@link ConfigException} naming the key, the value and
 * where it was set. {@link #check()} then applies the C node-type's check() rules, which weigh settings against each
 * other (docs/config.md lists them all).
 *
 * <p>Two configs are equal when their settings are, wherever they were written; warnings are not compared.
 *
 * <p>Over 500 lines only for 0.1's flat accessors and setters at the end of the class and its builder: deprecated
 * forwarders to {@link #in()} and {@link #out()}, to be removed in 0.3.
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
    /** The largest queue size or work request count accepted: 2^30, so rounding up to a power of two fits. */
    public static final int MAX_QUEUE_SIZE = 1 << 30;

    static
    {
        ChannelConfigs.install(new ChannelConfigAccess());
    }

    private final String name;
    private final TransportMode mode;
    private final String provider;
    private final String device;
    private final PollMode pollMode;
    private final IdleKind idle;
    private final Path secretFile;
    private final SignalList signals;
    private final ConfigValue hooks;
    private final InConfig in;
    private final OutConfig out;
    private final boolean checked;
    private final List<String> warnings;
    private final ConfigLocation defaultLocation;
    private final Map<String, ConfigOrigins.Origin> origins;

    private ChannelConfig(final Builder builder, final InConfig in, final OutConfig out, final boolean checked,
        final List<String> warnings)
    {
        name = builder.name;
        mode = builder.mode;
        provider = builder.provider;
        device = builder.device;
        pollMode = builder.pollMode;
        idle = builder.idle;
        secretFile = builder.secretFile;
        signals = builder.signals;
        hooks = builder.hooks;
        this.in = in;
        this.out = out;
        this.checked = checked;
        this.warnings = List.copyOf(warnings);
        defaultLocation = builder.origins.defaultLocation();
        origins = builder.origins.snapshot();
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
        return new ChannelConfig(builder, builder.in.build(), builder.out.build(), true, checkWarnings);
    }

    /** @return a builder holding this config's settings (and where they were set), to derive another config. */
    public Builder toBuilder()
    {
        final Builder builder = new Builder(defaultLocation, in, out);
        builder.name = name;
        builder.mode = mode;
        builder.provider = provider;
        builder.device = device;
        builder.pollMode = pollMode;
        builder.idle = idle;
        builder.secretFile = secretFile;
        builder.signals = signals;
        builder.hooks = hooks;
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

    /** @return the RDMA device to use, or null for the one that owns {@code in.address}. */
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

    /** @return the signals of the samples both ways ({@code in.signals}, default 64 floats). */
    public SignalList signals()
    {
        return signals;
    }

    /** @return the receiving side: the {@code in} group. */
    public InConfig in()
    {
        return in;
    }

    /** @return the sending side: the {@code out} group. */
    public OutConfig out()
    {
        return out;
    }

    /** @return whether this node connects to a peer (it has an {@code out.address}). */
    public boolean isSource()
    {
        return out.address() != null;
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
    ConfigOrigins.Origin origin(final String key)
    {
        return ConfigOrigins.origin(origins, defaultLocation, key);
    }

    /** @return the node's {@code hooks} as written (for the runner: {@link ChannelConfigs}), or null. */
    ConfigValue hooks()
    {
        return hooks;
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
        return new Object[]{name, mode, provider, device, pollMode, idle, secretFile, signals, hooks, in, out, checked};
    }

    // 0.1's flat accessors: they forward to in() and out() so code written for 0.1 compiles and links; gone in 0.3.

    /** @deprecated use {@link InConfig#DEFAULT_BUFFER_SUBTRACTION}. */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public static final int DEFAULT_BUFFER_SUBTRACTION = InConfig.DEFAULT_BUFFER_SUBTRACTION;

    /** @deprecated use {@link InConfig#DEFAULT_ADMISSION_TIMEOUT}. */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public static final Duration DEFAULT_ADMISSION_TIMEOUT = InConfig.DEFAULT_ADMISSION_TIMEOUT;

    /** @deprecated use {@link OutConfig#DEFAULT_RESOLUTION_TIMEOUT_MILLIS}. */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public static final int DEFAULT_RESOLUTION_TIMEOUT_MILLIS = OutConfig.DEFAULT_RESOLUTION_TIMEOUT_MILLIS;

    /** @deprecated use {@link OutConfig#DEFAULT_RECONNECT_MIN_DELAY}. */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public static final Duration DEFAULT_RECONNECT_MIN_DELAY = OutConfig.DEFAULT_RECONNECT_MIN_DELAY;

    /** @deprecated use {@link OutConfig#DEFAULT_RECONNECT_MAX_DELAY}. */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public static final Duration DEFAULT_RECONNECT_MAX_DELAY = OutConfig.DEFAULT_RECONNECT_MAX_DELAY;

    /**
     * @return {@code in().address()}.
     * @deprecated use {@code in().address()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public InetSocketAddress inAddress()
    {
        return in.address();
    }

    /**
     * @return {@code in().cqSize()}.
     * @deprecated use {@code in().cqSize()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int inCqSize()
    {
        return in.cqSize();
    }

    /**
     * @return {@code in().maxWrs()}.
     * @deprecated use {@code in().maxWrs()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int inMaxWrs()
    {
        return in.maxWrs();
    }

    /**
     * @return {@code in().vectorize()}.
     * @deprecated use {@code in().vectorize()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int inVectorize()
    {
        return in.vectorize();
    }

    /**
     * @return {@code in().bufferSubtraction()}.
     * @deprecated use {@code in().bufferSubtraction()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int inBufferSubtraction()
    {
        return in.bufferSubtraction();
    }

    /**
     * @return {@code in().maxPosted()}.
     * @deprecated use {@code in().maxPosted()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int inMaxPosted()
    {
        return in.maxPosted();
    }

    /**
     * @return {@code in().admissionTimeout()}.
     * @deprecated use {@code in().admissionTimeout()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public Duration admissionTimeout()
    {
        return in.admissionTimeout();
    }

    /**
     * @return {@code out().address()}.
     * @deprecated use {@code out().address()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public InetSocketAddress outAddress()
    {
        return out.address();
    }

    /**
     * @return {@code out().resolutionTimeoutMillis()}.
     * @deprecated use {@code out().resolutionTimeoutMillis()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int outResolutionTimeoutMillis()
    {
        return out.resolutionTimeoutMillis();
    }

    /**
     * @return {@code out().cqSize()}.
     * @deprecated use {@code out().cqSize()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int outCqSize()
    {
        return out.cqSize();
    }

    /**
     * @return {@code out().maxWrs()}.
     * @deprecated use {@code out().maxWrs()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int outMaxWrs()
    {
        return out.maxWrs();
    }

    /**
     * @return {@code out().vectorize()}.
     * @deprecated use {@code out().vectorize()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int outVectorize()
    {
        return out.vectorize();
    }

    /**
     * @return {@code out().sendInline()}.
     * @deprecated use {@code out().sendInline()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public boolean outSendInline()
    {
        return out.sendInline();
    }

    /**
     * @return {@code out().maxInlineData()}.
     * @deprecated use {@code out().maxInlineData()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int outMaxInlineData()
    {
        return out.maxInlineData();
    }

    /**
     * @return {@code out().useFallback()}.
     * @deprecated use {@code out().useFallback()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public boolean outUseFallback()
    {
        return out.useFallback();
    }

    /**
     * @return {@code out().periodicSignaling()}.
     * @deprecated use {@code out().periodicSignaling()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int outPeriodicSignaling()
    {
        return out.periodicSignaling();
    }

    /**
     * @return {@code out().maxInFlight()}.
     * @deprecated use {@code out().maxInFlight()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public int outMaxInFlight()
    {
        return out.maxInFlight();
    }

    /**
     * @return {@code out().reconnect()}.
     * @deprecated use {@code out().reconnect()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public boolean reconnect()
    {
        return out.reconnect();
    }

    /**
     * @return {@code out().reconnectMinDelay()}.
     * @deprecated use {@code out().reconnectMinDelay()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public Duration reconnectMinDelay()
    {
        return out.reconnectMinDelay();
    }

    /**
     * @return {@code out().reconnectMaxDelay()}.
     * @deprecated use {@code out().reconnectMaxDelay()}.
     */
    @Deprecated(since = "0.2.0", forRemoval = true)
    public Duration reconnectMaxDelay()
    {
        return out.reconnectMaxDelay();
    }

    /**
     * Sets a channel's options in Java, the {@code in} and {@code out} groups through {@link #in(Consumer)} and
     * {@link #out(Consumer)}:
     * {@code ChannelConfig.builder().name("a").in(in -> in.address("127.0.0.1:4000")).out(out -> out.maxWrs(64))}.
     * {@link #build()} checks each value as the config binder does, naming the builder method in its errors.
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
        private ConfigValue hooks;
        private final ConfigOrigins origins;
        private final InConfig.Builder in;
        private final OutConfig.Builder out;

        Builder(final ConfigLocation defaultLocation)
        {
            origins = new ConfigOrigins(defaultLocation);
            in = new InConfig.Builder(origins);
            out = new OutConfig.Builder(origins);
        }

        private Builder(final ConfigLocation defaultLocation, final InConfig inConfig, final OutConfig outConfig)
        {
            origins = new ConfigOrigins(defaultLocation);
            in = new InConfig.Builder(origins, inConfig);
            out = new OutConfig.Builder(origins, outConfig);
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
         * @param settings sets the {@code in} group, e.g. {@code in -> in.address("127.0.0.1:4000").maxWrs(64)};
         *                 {@code in.address} is required.
         * @return this builder.
         */
        public Builder in(final Consumer<InConfig.Builder> settings)
        {
            settings.accept(in);
            return this;
        }

        /**
         * @param settings sets the {@code out} group, e.g. {@code out -> out.address("10.0.0.1:4000")}.
         * @return this builder.
         */
        public Builder out(final Consumer<OutConfig.Builder> settings)
        {
            settings.accept(out);
            return this;
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

        /** @return the {@code in} group's builder, for the binder. */
        InConfig.Builder inBuilder()
        {
            return in;
        }

        /** @return the {@code out} group's builder, for the binder. */
        OutConfig.Builder outBuilder()
        {
            return out;
        }

        /**
         * Checks every value on its own (the rules that weigh values against each other are {@link #check()}'s).
         *
         * @return the config, not yet checked.
         * @throws ConfigException naming the key, the value and where it was set (for a builder: the method).
         */
        public ChannelConfig build()
        {
            origins.require("name", name != null && !name.isEmpty(), "name must not be empty");
            origins.requireSet("rdma_transport_mode", mode);
            origins.requireSet("poll_mode", pollMode);
            origins.requireSet("idle_strategy", idle);
            origins.requireSet("in.signals", signals);
            origins.require("provider", provider != null && PROVIDERS.contains(provider.toLowerCase(Locale.ROOT)),
                origins.origin("provider").describe(provider == null ? "null" : ConfigScalar.quote(provider)) +
                " is not one of " + String.join(", ", PROVIDERS));
            provider = provider.toLowerCase(Locale.ROOT);
            origins.require("device", device == null || !device.isEmpty(),
                "device must not be empty (leave it out for any)");
            origins.require(SecretFile.KEY, secretFile == null || !secretFile.toString().isEmpty(),
                "secret_file must not be empty (leave it out to connect without authentication)");
            final InConfig inConfig = in.build();
            final OutConfig outConfig = out.build();
            origins.requireSet("in.address", inConfig.address());
            return new ChannelConfig(this, inConfig, outConfig, false, List.of());
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
            origins.record(key, written, location);
            return this;
        }

        /** Sets {@code in.max_wrs} and {@code out.max_wrs} as check() rounded them, keeping where they were set. */
        void checkedMaxWrs(final int inMaxWrs, final int outMaxWrs)
        {
            in.checkedMaxWrs(inMaxWrs);
            out.checkedMaxWrs(outMaxWrs);
        }

        // 0.1's flat setters: they forward to in(...) and out(...); gone in 0.3.

        /**
         * @param value what {@code in(...).address} takes.
         * @return this builder.
         * @deprecated use {@code in(in -> in.address(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder inAddress(final InetSocketAddress value)
        {
            in.address(value);
            return this;
        }

        /**
         * @param value what {@code in(...).address} takes.
         * @return this builder.
         * @deprecated use {@code in(in -> in.address(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder inAddress(final String value)
        {
            in.address(value);
            return this;
        }

        /**
         * @param value what {@code in(...).cqSize} takes.
         * @return this builder.
         * @deprecated use {@code in(in -> in.cqSize(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder inCqSize(final int value)
        {
            in.cqSize(value);
            return this;
        }

        /**
         * @param value what {@code in(...).maxWrs} takes.
         * @return this builder.
         * @deprecated use {@code in(in -> in.maxWrs(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder inMaxWrs(final int value)
        {
            in.maxWrs(value);
            return this;
        }

        /**
         * @param value what {@code in(...).vectorize} takes.
         * @return this builder.
         * @deprecated use {@code in(in -> in.vectorize(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder inVectorize(final int value)
        {
            in.vectorize(value);
            return this;
        }

        /**
         * @param value what {@code in(...).bufferSubtraction} takes.
         * @return this builder.
         * @deprecated use {@code in(in -> in.bufferSubtraction(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder inBufferSubtraction(final int value)
        {
            in.bufferSubtraction(value);
            return this;
        }

        /**
         * @param value what {@code in(...).admissionTimeout} takes.
         * @return this builder.
         * @deprecated use {@code in(in -> in.admissionTimeout(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder admissionTimeout(final Duration value)
        {
            in.admissionTimeout(value);
            return this;
        }

        /**
         * @param value what {@code out(...).address} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.address(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outAddress(final InetSocketAddress value)
        {
            out.address(value);
            return this;
        }

        /**
         * @param value what {@code out(...).address} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.address(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outAddress(final String value)
        {
            out.address(value);
            return this;
        }

        /**
         * @param value what {@code out(...).resolutionTimeoutMillis} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.resolutionTimeoutMillis(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outResolutionTimeoutMillis(final int value)
        {
            out.resolutionTimeoutMillis(value);
            return this;
        }

        /**
         * @param value what {@code out(...).cqSize} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.cqSize(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outCqSize(final int value)
        {
            out.cqSize(value);
            return this;
        }

        /**
         * @param value what {@code out(...).maxWrs} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.maxWrs(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outMaxWrs(final int value)
        {
            out.maxWrs(value);
            return this;
        }

        /**
         * @param value what {@code out(...).vectorize} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.vectorize(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outVectorize(final int value)
        {
            out.vectorize(value);
            return this;
        }

        /**
         * @param value what {@code out(...).sendInline} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.sendInline(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outSendInline(final boolean value)
        {
            out.sendInline(value);
            return this;
        }

        /**
         * @param value what {@code out(...).maxInlineData} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.maxInlineData(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outMaxInlineData(final int value)
        {
            out.maxInlineData(value);
            return this;
        }

        /**
         * @param value what {@code out(...).useFallback} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.useFallback(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outUseFallback(final boolean value)
        {
            out.useFallback(value);
            return this;
        }

        /**
         * @param value what {@code out(...).periodicSignaling} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.periodicSignaling(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder outPeriodicSignaling(final int value)
        {
            out.periodicSignaling(value);
            return this;
        }

        /**
         * @param value what {@code out(...).reconnect} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.reconnect(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder reconnect(final boolean value)
        {
            out.reconnect(value);
            return this;
        }

        /**
         * @param value what {@code out(...).reconnectMinDelay} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.reconnectMinDelay(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder reconnectMinDelay(final Duration value)
        {
            out.reconnectMinDelay(value);
            return this;
        }

        /**
         * @param value what {@code out(...).reconnectMaxDelay} takes.
         * @return this builder.
         * @deprecated use {@code out(out -> out.reconnectMaxDelay(value))}.
         */
        @Deprecated(since = "0.2.0", forRemoval = true)
        public Builder reconnectMaxDelay(final Duration value)
        {
            out.reconnectMaxDelay(value);
            return this;
        }

        private Builder set(final String key, final String method)
        {
            origins.set(key, method);
            return this;
        }
    }
}
