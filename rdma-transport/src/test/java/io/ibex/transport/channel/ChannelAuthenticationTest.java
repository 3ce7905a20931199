package io.ibex.transport.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.ibex.transport.channel.ChannelPair.receive;
import static io.ibex.transport.channel.ChannelPair.send;
import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static io.ibex.transport.channel.TestChannels.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * secret_file: a target accepts only a source that proves it knows the secret, and a source only a target that
 * does, in every transport mode; on both providers (the disni one over rxe in the Soft-RoCE guest).
 */
@ExtendWith(NoLeaks.class)
class ChannelAuthenticationTest
{
    private final int targetPort = LoopbackPorts.next();
    private final int sourcePort = LoopbackPorts.next();
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(TransportMode.class)
    void endsThatShareTheSecretConnect(final TransportMode mode) throws Exception
    {
        final Path secret = secret("shared", "0123456789abcdef0123456789abcdef");
        try (ChannelPair pair = new ChannelPair(target(mode, c -> c.secretFile(secret)),
            source(mode, c -> c.secretFile(secret))))
        {
            if (mode == TransportMode.UD)
            {
                awaitPosted(pair.target);
            }
            send(pair.source, 0, 20);
            receive(pair.target, 0, 20);
        }
    }

    @ParameterizedTest
    @EnumSource(TransportMode.class)
    void aTargetWithASecretRejectsASourceWithout(final TransportMode mode) throws Exception
    {
        final Path secret = secret("target", "0123456789abcdef0123456789abcdef");
        try (SampleChannel target = SampleChannel.open(target(mode, c -> c.secretFile(secret)));
            SampleChannel source = SampleChannel.open(source(mode, c -> c
                .out(out -> out.reconnect(false).useFallback(false)))))
        {
            awaitFailure(source);
            final String failure = source.failure().getMessage();
            assertTrue(failure.endsWith(rejected(mode) + ": " + TargetAcceptor.NOT_AUTHENTICATED +
                ConnectProof.NO_PROOF + ")"), failure);
            assertEquals(ChannelState.STARTED, target.state(), "the target connected to nobody");
        }
    }

    @Test
    void aSourceWithAnotherSecretIsRejected() throws Exception
    {
        final Path mine = secret("target", "0123456789abcdef0123456789abcdef");
        final Path theirs = secret("source", "0123456789abcdef0123456789abcdeX");
        try (SampleChannel target = SampleChannel.open(target(TransportMode.RC, c -> c.secretFile(mine)));
            SampleChannel source = SampleChannel.open(source(TransportMode.RC,
                c -> c.secretFile(theirs).out(out -> out.reconnect(false).useFallback(false)))))
        {
            awaitFailure(source);
            final String failure = source.failure().getMessage();
            assertTrue(failure.endsWith("REJECTED (status 28: " + TargetAcceptor.NOT_AUTHENTICATED +
                ConnectProof.WRONG_PROOF + ")"), failure);
            assertEquals(ChannelState.STARTED, target.state(), "the target connected to nobody");
        }
    }

    @ParameterizedTest
    @EnumSource(value = TransportMode.class, names = {"RC", "UD"})
    void aSourceWithASecretLeavesATargetThatCannotProveIt(final TransportMode mode) throws Exception
    {
        final Path secret = secret("source", "0123456789abcdef0123456789abcdef");
        try (SampleChannel target = SampleChannel.open(target(mode, c -> { }));
            SampleChannel source = SampleChannel.open(source(mode,
                c -> c.secretFile(secret).out(out -> out.reconnect(false).useFallback(false)))))
        {
            awaitFailure(source);
            final String failure = source.failure().getMessage();
            assertTrue(failure.endsWith("failed: " + ConnectProof.NO_TARGET_PROOF), failure);
        }
    }

    /** UD: the target is CONNECTED once it accepted the source's SIDR request; receives then go up. */
    private static void awaitPosted(final SampleChannel channel) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (channel.stats().get(io.ibex.transport.stats.Counter.POSTED_RECEIVES) == 0)
        {
            assertTrue(System.nanoTime() < deadline, channel + " never accepted its source");
            Thread.sleep(5);
        }
    }

    /**
     * How rdma_cm tells a source it was rejected: REJECTED with the IB CM's consumer reject (28) for a connection,
     * UNREACHABLE with SIDR's REJECT (2) for UD.
     */
    private static String rejected(final TransportMode mode)
    {
        return mode == TransportMode.UD ? "UNREACHABLE (status 2" : "REJECTED (status 28";
    }

    private Path secret(final String name, final String text) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.writeString(file, text + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private ChannelConfig target(final TransportMode mode, final Consumer<ChannelConfig.Builder> tweak)
    {
        return TestChannels.target("target", mode, targetPort, tweak);
    }

    private ChannelConfig source(final TransportMode mode, final Consumer<ChannelConfig.Builder> tweak)
    {
        return TestChannels.source("source", mode, sourcePort, targetPort, tweak);
    }
}
