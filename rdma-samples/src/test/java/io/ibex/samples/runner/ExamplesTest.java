package io.ibex.samples.runner;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import io.ibex.samples.runner.node.FileNode;
import io.ibex.samples.runner.node.InfinibandNode;
import io.ibex.samples.runner.node.Node;
import io.ibex.samples.runner.node.NodeContext;
import io.ibex.samples.runner.node.SignalNode;
import io.ibex.transport.config.IdleKind;
import io.ibex.transport.sample.SampleClock;
import io.ibex.transport.stats.Counter;
import io.ibex.transport.stats.Metric;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The examples of the runner: VILLAS's reference config binds node by node, and its loopback variant runs end to
 * end on the soft provider (written in libconfig syntax and in JSON), the file of what arrived equal to the file of
 * what the generator produced.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(SoftResourcesReleased.class)
class ExamplesTest
{
    @TempDir
    private Path dir;

    private final StringWriter out = new StringWriter();

    @Test
    void theReferenceExampleBindsEveryNodeAndHasNoPathToRun()
    {
        try (RunConfig config = RunConfig.read(IbexRun.EXAMPLES.resolve("infiniband.conf"), context(), NodeTypes.standard()))
        {
            assertEquals(List.of("results file", "siggen signal", "ib_node_source infiniband",
                "ib_node_target infiniband"), config.nodes().stream().map((node) -> node.name() + " " +
                node.node().type()).toList());
            assertEquals(List.of(), config.paths());
            assertEquals(1, config.nodes().get(3).hooks().size(), "ib_node_target's stats hook");
            assertEquals(3, config.nodes().get(1).node().signals().size(), "siggen's values");
            final RunException failure = assertThrows(RunException.class,
                () -> new Runner(config, options(), new PrintWriter(out), null).run());
            assertTrue(failure.getMessage().contains("infiniband.conf: no enabled paths, so nothing to run"),
                failure.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "infiniband-loopback.conf", "infiniband-loopback.json" })
    void theLoopbackExampleDeliversExactlyWhatWasGenerated(final String name) throws IOException
    {
        final String example = Files.readString(IbexRun.EXAMPLES.resolve(name));
        final Path file = dir.resolve(name);
        Files.writeString(file, example.replace("127.0.0.1:1337", "127.0.0.1:" + LoopbackPorts.next())
            .replace("127.0.0.1:1338", "127.0.0.1:" + LoopbackPorts.next()));
        final Path generated;
        final Path results;
        try (RunConfig config = RunConfig.read(file, context(), NodeTypes.standard()))
        {
            new Runner(config, options(), new PrintWriter(out, true), null).run();
            final SignalNode siggen = (SignalNode)node(config, "siggen");
            final InfinibandNode source = (InfinibandNode)node(config, "ib_node_source");
            final InfinibandNode target = (InfinibandNode)node(config, "ib_node_target");
            final long produced = siggen.samplesProduced();
            assertTrue(produced > 0, out::toString);
            assertEquals(produced, source.stats().get(Counter.SENT), out::toString);
            assertEquals(produced, target.stats().get(Counter.RECEIVED), out::toString);
            assertEquals(0, source.stats().get(Counter.DROPPED), out::toString);
            assertEquals(0, target.stats().get(Counter.INVALID), out::toString);
            // Gaps in the sequence are steps the generator missed (those after its last sample leave none).
            assertTrue(target.stats().snapshot().metric(Metric.SKIPPED).sum() <= siggen.missedSteps(), out::toString);
            generated = ((FileNode)node(config, "generated")).path();
            results = ((FileNode)node(config, "results")).path();
        }
        assertTrue(generated.startsWith(dir.resolve("logs")) && results.startsWith(dir.resolve("logs")), out::toString);
        IbexRun.run("compare", generated.toString(), results.toString()).assertSucceeded();
        assertTrue(out.toString().contains("stopped because its inputs ended"), out::toString);
        assertTrue(out.toString().contains("stats hook of node 'ib_node_target'"), out::toString);
    }

    private NodeContext context()
    {
        return new NodeContext(dir, new SampleClock(), SystemNanoClock.INSTANCE);
    }

    private static RunOptions options()
    {
        return new RunOptions(null, Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(10), IdleKind.YIELDING,
            PathThreads.AUTO, JitMode.TIERED);
    }

    private static Node node(final RunConfig config, final String name)
    {
        return config.nodes().stream().filter((node) -> node.name().equals(name)).findFirst().orElseThrow().node();
    }
}
