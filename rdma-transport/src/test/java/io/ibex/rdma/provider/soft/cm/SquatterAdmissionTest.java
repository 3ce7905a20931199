package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.Providers;
import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.stats.Counter;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24's first attack, on the soft provider: raw-socket clients of the connection manager that complete the
 * handshake and never open the data link ({@link CmSquatter}) must not keep a real source out of a target beyond
 * in.admission_timeout, one at a time or as a flood; with a secret_file they are refused at their REQ.
 */
@Timeout(60)
class SquatterAdmissionTest
{
    private static final Duration ADMISSION = Duration.ofSeconds(1);
    private static final long WAIT_MILLIS = 20_000;

    @BeforeAll
    static void soft()
    {
        assertEquals("soft", Providers.select().name(), "the squatter speaks the soft connection manager's wire");
    }

    @Test
    void aHalfOpenConnectionIsDroppedWithinTheBound() throws Exception
    {
        final int port = LoopbackPorts.next();
        try (SampleChannel target = SampleChannel.open(target(port));
            CmSquatter squatter = new CmSquatter(loopback(port)))
        {
            assertFalse(squatter.awaitDropped(ADMISSION.toMillis() / 2), "dropped before its time ran out");
            assertTrue(squatter.awaitDropped(ADMISSION.toMillis() + 2_000),
                "the target still holds a connection whose link never opened");
        }
    }

    @Test
    void withASecretASquatterIsRejectedBeforeItHasAQueuePair(@TempDir final Path dir) throws Exception
    {
        final Path secret = dir.resolve("secret");
        Files.writeString(secret, "0123456789abcdef0123456789abcdef");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        final int port = LoopbackPorts.next();
        try (SampleChannel target = SampleChannel.open(target(port).toBuilder().secretFile(secret).build()))
        {
            final IOException refused = assertThrows(IOException.class, () -> new CmSquatter(loopback(port)).close());
            assertTrue(refused.getMessage().endsWith("type " + CmMessageDescriptor.TYPE_REJ + ", not a REP"),
                refused.getMessage());
            try (SampleChannel source = SampleChannel.open(source(port).toBuilder().secretFile(secret).build()))
            {
                deliver(source, target);
            }
        }
    }

    @Test
    void aRealSourceConnectsWhileASquatterHoldsItsConnection() throws Exception
    {
        final int port = LoopbackPorts.next();
        try (SampleChannel target = SampleChannel.open(target(port));
            CmSquatter squatter = new CmSquatter(loopback(port));
            SampleChannel source = SampleChannel.open(source(port)))
        {
            deliver(source, target);
        }
    }

    @Test
    void aFloodOfHalfOpenConnectionsDoesNotStarveARealSource() throws Exception
    {
        final int port = LoopbackPorts.next();
        final AtomicBoolean flooding = new AtomicBoolean(true);
        final AtomicInteger opened = new AtomicInteger();
        final Thread[] attackers = new Thread[4];
        try (SampleChannel target = SampleChannel.open(target(port)))
        {
            for (int i = 0; i < attackers.length; i++)
            {
                attackers[i] = new Thread(() -> flood(port, flooding, opened), "squatter-" + i);
                attackers[i].start();
            }
            while (opened.get() < 20)
            {
                Thread.sleep(5);
            }
            try (SampleChannel source = SampleChannel.open(source(port)))
            {
                deliver(source, target);
            }
            assertTrue(opened.get() > 20, "the flood went on while the source connected: " + opened.get());
        }
        finally
        {
            flooding.set(false);
            for (final Thread attacker : attackers)
            {
                if (attacker != null)
                {
                    attacker.join();
                }
            }
        }
    }

    /** Opens squatters as fast as the target answers them, holding the last 16. */
    private static void flood(final int port, final AtomicBoolean flooding, final AtomicInteger opened)
    {
        final Deque<CmSquatter> held = new ArrayDeque<>();
        try
        {
            while (flooding.get())
            {
                try
                {
                    held.addLast(new CmSquatter(loopback(port)));
                    opened.incrementAndGet();
                }
                catch (final IOException ex)
                {
                    // rejected or reset under load: the next one tries again
                }
                if (held.size() > 16)
                {
                    held.removeFirst().close();
                }
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
        finally
        {
            held.forEach(squatter ->
            {
                try
                {
                    squatter.close();
                }
                catch (final IOException ignore)
                {
                    // closing the attacker's socket
                }
            });
        }
    }

    /**
     * The source sends, one sample every millisecond, until 100 in a row reached the target; what it sent into a
     * connection the target pushed out before admitting it is counted dropped at the source, and nothing else is
     * missing.
     */
    private static void deliver(final SampleChannel source, final SampleChannel target) throws Exception
    {
        final SampleBatch out = new SampleBatch(1);
        final SampleBatch in = new SampleBatch(64);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        long sequence = 0;
        long received = 0;
        long run = 0;
        long last = -1;
        while (run < 100)
        {
            assertTrue(System.nanoTime() < deadline, "the real source got no 100 samples in a row to the target " +
                "(" + received + " arrived)");
            if (source.claim(out, 1) == 1)
            {
                out.get(0).sequence(sequence);
                if (source.write(out) == 1)
                {
                    sequence++;
                }
                else
                {
                    source.release(out);
                }
            }
            for (int read = target.read(in, 1, TimeUnit.MILLISECONDS); read > 0; read = target.read(in))
            {
                for (int i = 0; i < read; i++)
                {
                    final long got = in.get(i).sequence();
                    assertTrue(got > last, "sample " + got + " after " + last);
                    run = got == last + 1 ? run + 1 : 1;
                    last = got;
                    received++;
                }
                target.release(in);
            }
        }
        while (received < source.stats().get(Counter.SENT) - source.stats().get(Counter.DROPPED) &&
            System.nanoTime() < deadline)
        {
            received += target.read(in, 10, TimeUnit.MILLISECONDS);
            target.release(in);
        }
        assertEquals(received, source.stats().get(Counter.SENT) - source.stats().get(Counter.DROPPED),
            "every sample the source sent and did not count dropped reached the target");
    }

    private static ChannelConfig target(final int port)
    {
        return ChannelConfig.builder().name("target")
            .in(in -> in.address(loopback(port)).admissionTimeout(ADMISSION)).build();
    }

    private static ChannelConfig source(final int targetPort)
    {
        return ChannelConfig.builder().name("source").in(in -> in.address(loopback(LoopbackPorts.next())))
            .out(out -> out.address(loopback(targetPort))).build();
    }

    private static InetSocketAddress loopback(final int port)
    {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }
}
