package io.ibex.samples.runner;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.SoftResourcesReleased;
import io.ibex.samples.runner.node.InfinibandNode;
import io.ibex.samples.runner.node.NodeContext;
import io.ibex.transport.config.IdleKind;
import io.ibex.transport.sample.SampleClock;
import org.agrona.concurrent.SystemNanoClock;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The nodes the warm-up runs: a source and a target of the run that are each other's peers are linked to each
 * other on fresh ports, so that the warm-up runs the run's own code and leaves the run's ports alone; and the JIT's
 * compiler threads can be watched.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(SoftResourcesReleased.class)
class WarmUpNodesTest
{
    private static final Pattern SOURCE = Pattern.compile("source +infiniband +source to 127\\.0\\.0\\.1:([0-9]+) " +
        "over RC: sent ([0-9]+),");
    private static final Pattern TARGET = Pattern.compile("target +infiniband +target on 127\\.0\\.0\\.1:([0-9]+) " +
        "over RC: sent 0, dropped 0, received ([0-9]+),");

    @TempDir
    private Path dir;

    private final int sourcePort = LoopbackPorts.next();
    private final int targetPort = LoopbackPorts.next();

    @Test
    void theLinkedPortsAreThoseOfTargetsThatASourceOfTheSameRunConnectsTo() throws IOException
    {
        final int anyPort = LoopbackPorts.next();
        final int loneTargetPort = LoopbackPorts.next();
        final int elsewherePort = LoopbackPorts.next();
        try (RunConfig config = TestNodes.read(dir.resolve("links.conf"), """
            nodes = {
                source = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:%d" },
                    out = { address = "127.0.0.1:%d" } },
                target = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:%d" } },
                to_any = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:%d" },
                    out = { address = "127.0.0.1:%d" } },
                any = { type = "infiniband", provider = "soft", in = { address = "0.0.0.0:%d" } },
                lone_target = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:%d" } },
                elsewhere = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:%d" },
                    out = { address = "127.0.0.1:%d" } }
            }
            """.formatted(sourcePort, targetPort, targetPort, LoopbackPorts.next(), anyPort, anyPort, loneTargetPort,
            LoopbackPorts.next(), elsewherePort)))
        {
            final List<InfinibandNode> nodes = new ArrayList<>();
            config.nodes().forEach((node) -> nodes.add((InfinibandNode)node.node()));
            assertEquals(Set.of(targetPort, anyPort), InfinibandNode.linkedPorts(nodes));
        }
    }

    @Test
    void theWarmUpLinksTheRunsSourceToItsTargetOnAFreshPort() throws IOException
    {
        final String text = """
            nodes = {
                gen = { type = "counter", count = 500 },
                source = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:%d" },
                    out = { address = "127.0.0.1:%d" } },
                target = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:%d" } },
                sink = { type = "collector" }
            }
            paths = ( { in = "gen", out = "source" }, { in = "target", out = "sink" } )
            """.formatted(sourcePort, targetPort, targetPort);
        final Path file = dir.resolve("run.conf");
        Files.writeString(file, text);
        final NodeTypes types = new NodeTypes(Map.of("counter", TestNodes.Counter::create, "collector",
            TestNodes.Collector::create, "infiniband", InfinibandNode.warmUpFactory(Set.of(targetPort))));
        final StringWriter out = new StringWriter();
        try (RunConfig config = RunConfig.read(file, new NodeContext(dir, new SampleClock(),
            SystemNanoClock.INSTANCE), types))
        {
            new Runner(config, new RunOptions(null, Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(10),
                IdleKind.YIELDING, PathThreads.AUTO, JitMode.TIERED), new PrintWriter(out, true), null).run();
        }
        final Matcher source = find(SOURCE, out.toString());
        final Matcher target = find(TARGET, out.toString());
        assertEquals(source.group(1), target.group(1), "the source connects to the target");
        assertNotEquals(String.valueOf(targetPort), target.group(1), "on a port of its own, not the run's");
        assertEquals("500", source.group(2), out::toString);
        assertEquals("500", target.group(2), out::toString);
    }

    @Test
    void theCompilerThreadsTookCpuTime()
    {
        assumeTrue(Files.isReadable(Path.of("/proc/self/task")), "Linux's /proc");
        assertTrue(CompilerThreads.cpuTicks() > 0, "the JIT compiled while the JVM and the tests started");
    }

    private static Matcher find(final Pattern pattern, final String text)
    {
        final Matcher matcher = pattern.matcher(text);
        assertTrue(matcher.find(), () -> pattern + " not in:\n" + text);
        return matcher;
    }
}
