package io.ibex.transport.config;

import io.ibex.transport.config.internal.SecretFile;

import java.util.Arrays;
import java.util.List;

/**
 * The C node-type's check() rules (ib_check in VILLASnode's infiniband.c), plus ibex's own on reconnection, on
 * keys that VILLASnode reads otherwise, and on the secret file ({@link SecretFile}).
 * Errors and warnings start at the location of the first key involved that the config set.
 */
final class ChannelConfigChecks
{
    /** Above this many work requests the C code warns: more than many devices hold in one queue. */
    static final int LARGE_MAX_WRS = 8192;

    private ChannelConfigChecks()
    {
    }

    /**
     * @param config   the config to check.
     * @param builder  its settings, to receive the values the rules change.
     * @param warnings to receive the warnings.
     * @throws ConfigException for a rule that fails.
     */
    static void apply(final ChannelConfig config, final ChannelConfig.Builder builder, final List<String> warnings)
    {
        final ConfigOrigins.Origin mode = config.origin("rdma_transport_mode");
        if (mode.key().endsWith("rdma_port_space") && config.mode() != TransportMode.RC)
        {
            warnings.add(locate(mode) + ": " + mode.describe(config.mode()) + " makes this node " + config.mode() +
                ", but VILLASnode reads only rdma_transport_mode and runs RC with this config, so a VILLASnode " +
                "peer given the same file cannot talk to it; write rdma_transport_mode = \"" + config.mode() +
                "\" to mean " + config.mode() + " on both");
        }
        final ConfigOrigins.Origin subtraction = config.origin("in.buffer_subtraction");
        final ConfigOrigins.Origin vectorize = config.origin("in.vectorize");
        final ConfigOrigins.Origin inWrs = config.origin("in.max_wrs");
        final int sub = config.in().bufferSubtraction();
        final int vec = config.in().vectorize();
        if (sub < 2 * vec)
        {
            throw new ConfigException(locate(subtraction, vectorize), subtraction.describe(sub) +
                " must be at least 2 * " + vectorize.describe(vec) + ", that is " + 2 * vec);
        }
        if (sub >= config.in().maxWrs() - vec)
        {
            throw new ConfigException(locate(subtraction, inWrs, vectorize), subtraction.describe(sub) +
                " must be less than " + inWrs.describe(config.in().maxWrs()) + " - " + vectorize.describe(vec) +
                ", that is " + (config.in().maxWrs() - vec));
        }
        final int inMaxWrs = roundUp(inWrs, config.in().maxWrs(), warnings);
        final int outMaxWrs = roundUp(config.origin("out.max_wrs"), config.out().maxWrs(), warnings);
        builder.checkedMaxWrs(inMaxWrs, outMaxWrs);

        final ConfigOrigins.Origin cqSize = config.origin("in.cq_size");
        if (config.in().cqSize() < inMaxWrs - sub)
        {
            warnings.add(locate(cqSize, inWrs, subtraction) + ": " + cqSize.describe(config.in().cqSize()) +
                " is less than in.max_wrs - in.buffer_subtraction = " + (inMaxWrs - sub) + ": only " +
                config.in().cqSize() + " receives are kept posted, as a disconnect flushes them all into the " +
                "completion queue");
        }
        final ConfigOrigins.Origin outWrs = config.origin("out.max_wrs");
        final String outWrsText = outWrs.describe(outMaxWrs) +
            (outMaxWrs == config.out().maxWrs() ? "" : " (" + config.out().maxWrs() + " rounded up)");
        final ConfigOrigins.Origin signaling = config.origin("out.periodic_signaling");
        final int every = config.out().periodicSignalingSetting();
        if (every > outMaxWrs)
        {
            throw new ConfigException(locate(signaling, outWrs), signaling.describe(every) +
                " must not exceed " + outWrsText + ": a send queue that fills up before a signaled send stalls");
        }
        final int inFlight = Math.min(outMaxWrs, config.out().cqSize());
        if (every > Math.max(1, inFlight / 2))
        {
            warnings.add(locate(signaling) + ": " + signaling.describe(every) + " is more than half of the " +
                inFlight + " sends kept in flight (out.max_wrs, at most out.cq_size): one send in " +
                Math.max(1, inFlight / 2) + " is signaled instead, so that completions come before the writer is " +
                "held back");
        }
        final ConfigOrigins.Origin outVectorize = config.origin("out.vectorize");
        if (config.out().vectorize() > outMaxWrs)
        {
            throw new ConfigException(locate(outVectorize, outWrs), outVectorize.describe(config.out().vectorize()) +
                " must not exceed " + outWrsText + ": one write posts that many work requests");
        }
        final ConfigOrigins.Origin minDelay = config.origin("out.reconnect_min_delay");
        final ConfigOrigins.Origin maxDelay = config.origin("out.reconnect_max_delay");
        if (config.out().reconnectMinDelay().compareTo(config.out().reconnectMaxDelay()) > 0)
        {
            throw new ConfigException(locate(minDelay, maxDelay),
                minDelay.describe(config.out().reconnectMinDelay().toMillis() + " ms") + " must not exceed " +
                maxDelay.describe(config.out().reconnectMaxDelay().toMillis() + " ms"));
        }
        final byte[] secret = SecretFile.read(config);
        if (secret != null)
        {
            Arrays.fill(secret, (byte)0); // read to check it; the channel reads it again when it opens
        }
    }

    private static int roundUp(final ConfigOrigins.Origin origin, final int maxWrs, final List<String> warnings)
    {
        final int rounded = maxWrs == 1 ? 1 : Integer.highestOneBit(maxWrs - 1) << 1;
        if (rounded != maxWrs)
        {
            warnings.add(origin.location() + ": " + origin.describe(maxWrs) + " is not a power of two: rounded up to " +
                rounded);
        }
        if (rounded > LARGE_MAX_WRS)
        {
            warnings.add(origin.location() + ": " + origin.describe(rounded) + " is above " + LARGE_MAX_WRS +
                ", more work requests than many devices allow in one queue");
        }
        return rounded;
    }

    /**
     * @return the location of the first origin the config set, or of the first if all are defaults.
     */
    private static ConfigLocation locate(final ConfigOrigins.Origin... origins)
    {
        for (final ConfigOrigins.Origin origin : origins)
        {
            if (!origin.defaulted())
            {
                return origin.location();
            }
        }
        return origins[0].location();
    }
}
