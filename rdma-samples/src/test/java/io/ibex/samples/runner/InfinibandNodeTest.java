package io.ibex.samples.runner;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import io.ibex.samples.runner.node.NodeException;
import io.ibex.transport.config.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Infiniband nodes in a run, on the soft provider over loopback: samples a path writes into a source arrive at
 * the target's path complete, in order and intact; an address in use and a peer that is not there are errors
 * naming the node and the address; nothing is left open.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(SoftResourcesReleased.class)
class InfinibandNodeTest
{
    @TempDir
    private Path dir;

    private final int sourcePort = LoopbackPorts.next();
    private final int targetPort = LoopbackPorts.next();
    private final StringWriter out = new StringWriter();

    @Test
    void samplesGoThroughASourceAndATargetCompleteInOrderAndIntact() throws IOException
    {
        try (RunConfig config = config("""
            nodes = {
                gen = { type = "counter", count = 20000, values = 3 },
                ib_source = { type = "infiniband", provider = "soft", signals = 3,
                    in = { address = "127.0.0.1:%d" },
                    out = { address = "127.0.0.1:%d", use_fallback = false, vectorize = 4 } },
                ib_target = { type = "infiniband", provider = "soft", signals = 3,
                    in = { address = "127.0.0.1:%d", vectorize = 8, buffer_subtraction = 16 } },
                sink = { type = "collector", values = 3 }
            }
            paths = ( { in = "gen", out = "ib_source" }, { in = "ib_target", out = "sink" } )
            """.formatted(sourcePort, targetPort, targetPort)))
        {
            run(config, Duration.ofSeconds(10));
            final TestNodes.Collector sink = (TestNodes.Collector)config.nodes().get(3).node();
            assertEquals(LongStream.range(0, 20000).boxed().toList(), sink.sequences());
            assertArrayEquals(new double[] {199990, 199991, 199992}, sink.values().get(19999));
        }
        final String summary = out.toString();
        assertTrue(summary.contains("  ib_source  infiniband  source to 127.0.0.1:" + targetPort + " over RC: sent " +
            "20000, dropped 0, received 0"), summary);
        assertTrue(summary.contains("  ib_target  infiniband  target on 127.0.0.1:" + targetPort + " over RC: sent " +
            "0, dropped 0, received 20000, lost 0, reordered 0, invalid 0; owd µs p50 "), summary);
        assertTrue(summary.contains("path 2 (ib_target -> sink): read 20000, wrote 20000 to sink"), summary);
    }

    @Test
    void anAddressInUseIsAnErrorNamingTheNodeAndTheAddress() throws IOException
    {
        final String nodes = """
            nodes = {
                ib_target = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:%d" } },
                sink = { type = "collector" }
            }
            paths = ( { in = "ib_target", out = "sink" } )
            """.formatted(targetPort);
        try (RunConfig first = config(nodes); RunConfig second = config(nodes))
        {
            final Runner holder = new Runner(first, options(null), new PrintWriter(out, true), null);
            final Thread holding = new Thread(holder::run);
            holding.start();
            IbexRun.awaitListening(targetPort, holding::isAlive, holder);
            final NodeException failure = assertThrows(NodeException.class, () -> run(second, null));
            holder.requestStop("the test is done");
            holding.join();
            assertTrue(failure.getMessage().matches("node 'ib_target': cannot start on in.address 127.0.0.1:" +
                targetPort + " \\(.*run[0-9]*\\.conf:2:[0-9]+\\): cannot bind to /127.0.0.1:" + targetPort + ": .*"),
                failure.getMessage());
        }
        catch (final InterruptedException ex)
        {
            throw new AssertionError(ex);
        }
    }

    @Test
    void aSourceWhosePeerIsNotThereFailsAfterTheConnectTimeout() throws IOException
    {
        for (final boolean fallback : List.of(false, true))
        {
            try (RunConfig config = config("""
                nodes = {
                    gen = { type = "counter" },
                    ib_source = { type = "infiniband", provider = "soft",
                        in = { address = "127.0.0.1:%d" }, out = { address = "127.0.0.1:%d", use_fallback = %b } }
                }
                paths = ( { in = "gen", out = "ib_source" } )
                """.formatted(sourcePort, targetPort, fallback)))
            {
                final NodeException failure = assertThrows(NodeException.class,
                    () -> new Runner(config, new RunOptions(null, Duration.ZERO, Duration.ofMillis(100),
                        Duration.ofMillis(500), IdleKind.YIELDING, PathThreads.AUTO, JitMode.TIERED), new PrintWriter(out, true), null).run());
                assertEquals("node 'ib_source': no connection to 127.0.0.1:" + targetPort + " within 500 ms" +
                    (fallback ? "; it fell back to listening on 127.0.0.1:" + sourcePort + " (out.use_fallback)" : ""),
                    failure.getMessage());
            }
        }
    }

    private RunConfig config(final String text) throws IOException
    {
        return TestNodes.read(Files.createTempFile(dir, "run", ".conf"), text);
    }

    private static RunOptions options(final Duration duration)
    {
        return new RunOptions(duration, Duration.ZERO, Duration.ofMillis(300), Duration.ofSeconds(10),
            IdleKind.YIELDING, PathThreads.AUTO, JitMode.TIERED);
    }

    private void run(final RunConfig config, final Duration duration)
    {
        new Runner(config, options(duration), new PrintWriter(out, true), null).run();
    }
}
