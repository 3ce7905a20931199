package io.ibex.samples.runner;

import io.ibex.samples.runner.node.NodeException;
import io.ibex.transport.config.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
 * The runner with the test nodes of {@link TestNodes}: samples move from input to outputs complete and in order,
 * back-pressure loses nothing, a node's failure stops the run with its message, and the run ends as told.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RunnerTest
{
    @TempDir
    private Path dir;

    private final StringWriter out = new StringWriter();

    @Test
    void everySampleOfTheInputReachesEveryOutputInOrderDespiteBackPressure() throws IOException
    {
        try (RunConfig config = config("""
            nodes = {
                gen = { type = "counter", count = 1000, values = 3 },
                slow = { type = "collector", take = 1 },
                batched = { type = "collector", take = 7 }
            }
            paths = ( { in = "gen", out = [ "slow", "batched" ] } )
            """))
        {
            run(config, options(null));
            for (final String name : List.of("slow", "batched"))
            {
                final TestNodes.Collector collector = collector(config, name);
                assertEquals(LongStream.range(0, 1000).boxed().toList(), collector.sequences(), name);
                assertArrayEquals(new double[] {9990, 9991, 9992}, collector.values().get(999), name);
                assertEquals(1, collector.started(), name);
                assertEquals(1, collector.stopped(), name);
            }
        }
        final String summary = out.toString();
        assertTrue(summary.contains("stopped because its inputs ended and the paths were idle for 100 ms"), summary);
        assertTrue(summary.contains("  path 1 (gen -> slow, batched): read 1000, wrote 1000 to slow, 1000 to batched"),
            summary);
        assertTrue(summary.contains("  gen      counter     counted 1000 of 1000"), summary);
    }

    @ParameterizedTest
    @EnumSource(PathThreads.class)
    void pathsOnOneThreadOrEachOnItsOwnMoveEverySample(final PathThreads threads) throws IOException
    {
        try (RunConfig config = config("""
            nodes = {
                one = { type = "counter", count = 5000, values = 1 },
                two = { type = "counter", count = 3000, values = 2 },
                slow = { type = "collector", take = 1 },
                fast = { type = "collector", take = 64 }
            }
            paths = ( { in = "one", out = "slow" }, { in = "two", out = "fast" } )
            """))
        {
            run(config, new RunOptions(null, Duration.ZERO, Duration.ofMillis(100), Duration.ofSeconds(5),
                IdleKind.YIELDING, threads, JitMode.TIERED));
            assertEquals(LongStream.range(0, 5000).boxed().toList(), collector(config, "slow").sequences());
            assertEquals(LongStream.range(0, 3000).boxed().toList(), collector(config, "fast").sequences());
        }
        final String summary = out.toString();
        final String shared = "  2 paths on one thread, C1 and C2 (--threads " + threads.optionName() + ", ";
        final String perPath = "  2 paths on a thread each, C1 and C2 (--threads " + threads.optionName() + ", ";
        assertTrue(summary.contains(threads == PathThreads.SHARED ? shared : threads == PathThreads.PER_PATH ?
            perPath : "(--threads auto, --jit tiered; "), summary);
        assertTrue(summary.contains("  path 2 (two -> fast): read 3000, wrote 3000 to fast"), summary);
    }

    @Test
    void eachPathThreadRunsOnTheCpusItsPathOrTheConfigAsksFor() throws IOException
    {
        final int last = Runtime.getRuntime().availableProcessors() - 1;
        try (RunConfig config = config("""
            affinity = 1
            nodes = {
                one = { type = "counter", count = 100 },
                two = { type = "counter", count = 100 },
                first = { type = "collector" },
                second = { type = "collector" }
            }
            paths = ( { in = "one", out = "first" }, { in = "two", out = "second", affinity = %d } )
            """.formatted(1L << last)))
        {
            run(config, options(null));
            assertEquals("0", collector(config, "first").writerCpus(), "the top level's affinity");
            assertEquals(Integer.toString(last), collector(config, "second").writerCpus(), "the path's own");
        }
        assertTrue(out.toString().contains("  2 paths on a thread each, C1 and C2 (--threads auto, --jit tiered; "),
            out.toString());
    }

    @Test
    void pathsOfDifferentPlacementsAreNotPutOnOneThread() throws IOException
    {
        try (RunConfig config = config("""
            nodes = {
                one = { type = "counter", count = 100 },
                two = { type = "counter", count = 100 },
                first = { type = "collector" },
                second = { type = "collector" }
            }
            paths = ( { in = "one", out = "first", priority = 5 }, { in = "two", out = "second" } )
            """))
        {
            final RunException failure = assertThrows(RunException.class, () -> run(config,
                new RunOptions(null, Duration.ZERO, Duration.ofMillis(100), Duration.ofSeconds(5), IdleKind.YIELDING,
                    PathThreads.SHARED, JitMode.TIERED)));
            assertTrue(failure.getMessage().endsWith("run.conf: --threads shared runs every path on one thread, " +
                "but the paths ask for different affinity or priority: use --threads per-path"), failure.getMessage());
        }
    }

    @Test
    void aNodeThatFailsStopsTheRunWithItsMessageAfterTheSummary() throws IOException
    {
        try (RunConfig config = config("""
            nodes = {
                gen = { type = "counter", count = 1000 },
                sink = { type = "collector", fail_at = 500 }
            }
            paths = ( { in = "gen", out = "sink" } )
            """))
        {
            final NodeException failure = assertThrows(NodeException.class, () -> run(config, options(null)));
            assertEquals("node 'sink': failed at sample 500 as told", failure.getMessage());
            assertEquals(500, collector(config, "sink").sequences().size());
            assertEquals(1, collector(config, "sink").stopped());
        }
        assertTrue(out.toString().contains("stopped because node 'sink': failed at sample 500 as told"), out.toString());
    }

    @Test
    void aRunWhoseInputWasAskedForSamplesAndMadeNoneFailsAfterAWarningInTheSummary() throws IOException
    {
        try (RunConfig config = config("""
            nodes = { gen = { type = "counter", count = 5, stall = true }, sink = { type = "collector" } }
            paths = ( { in = "gen", out = "sink" } )
            """))
        {
            final RunException failure = assertThrows(RunException.class,
                () -> run(config, options(Duration.ofMillis(200))));
            assertEquals("counter node 'gen' made none of the 5 samples it was asked for", failure.getMessage());
        }
        assertTrue(out.toString().contains("\n  warning: counter node 'gen' made none of the 5 samples it was asked " +
            "for"), out.toString());
    }

    @Test
    void withoutIdleStopTheRunLastsItsDuration() throws IOException
    {
        try (RunConfig config = config("""
            idle_stop = false
            nodes = { gen = { type = "counter", count = 100 }, sink = { type = "collector" } }
            paths = ( { in = "gen", out = "sink" } )
            """))
        {
            final long start = System.nanoTime();
            run(config, options(Duration.ofMillis(400)));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(400));
            assertEquals(100, collector(config, "sink").sequences().size());
        }
        assertTrue(out.toString().contains("stopped because its duration of 400 ms passed"), out.toString());
    }

    @Test
    void aStopRequestEndsAnEndlessRun() throws Exception
    {
        try (RunConfig config = config("""
            nodes = { gen = { type = "counter", count = 1000000000000 }, sink = { type = "collector", take = 1 } }
            paths = ( { in = "gen", out = "sink" } )
            """))
        {
            final Runner runner = new Runner(config, options(null), new PrintWriter(out, true), null);
            final Thread stopper = new Thread(() ->
            {
                sleep(300);
                runner.requestStop("the test asked");
            });
            stopper.start();
            runner.run();
            stopper.join();
            assertTrue(collector(config, "sink").sequences().size() > 0);
        }
        assertTrue(out.toString().contains("stopped because the test asked"), out.toString());
        assertTrue(out.toString().contains("read but not written by every output") ||
            out.toString().contains("read 1, wrote 1"), out.toString());
    }

    @Test
    void statsHooksReportIntoTheSummaryOrTheirOutputFile() throws IOException
    {
        try (RunConfig config = config("""
            nodes = {
                gen = { type = "counter", count = 600, in = { hooks = ( { type = "stats", warmup = 100 } ) } },
                sink = { type = "collector" }
            }
            paths = ( { in = "gen", out = "sink", hooks = ( { type = "stats", format = "json",
                output = "path-stats.json" } ) } )
            """))
        {
            run(config, options(null));
        }
        final String summary = out.toString();
        assertTrue(summary.contains("stats hook of node 'gen' ("), summary);
        assertTrue(summary.matches("(?s).*\nreceived +600\n.*"), summary);
        assertTrue(summary.matches("(?s).*\nskipped +samples +0 .*"), summary);
        final Path json = dir.resolve("path-stats.json");
        assertTrue(summary.contains("stats hook of path 1 (") && summary.contains("written to " + json), summary);
        final String written = Files.readString(json);
        assertTrue(written.startsWith("{\"metrics\":") && written.contains("\"received\":600,"), written);
    }

    @Test
    void theStatusLineIsUpdatedInPlaceOnATerminal() throws IOException
    {
        final StringWriter terminal = new StringWriter();
        try (RunConfig config = config("""
            idle_stop = false
            nodes = { gen = { type = "counter", count = 100 }, sink = { type = "collector" } }
            paths = ( { in = "gen", out = "sink" } )
            """))
        {
            new Runner(config, new RunOptions(Duration.ofMillis(300), Duration.ofMillis(50), Duration.ofMillis(100),
                Duration.ofSeconds(5), IdleKind.YIELDING, PathThreads.AUTO, JitMode.TIERED), new PrintWriter(out, true),
                new PrintWriter(terminal))
                .run();
        }
        final String shown = terminal.toString();
        assertTrue(shown.startsWith("\rrate ") && shown.endsWith("\rrate 0/s, sent 100, received 100, lost -, " +
            "owd median -\033[K" + System.lineSeparator()), shown);
        assertTrue(shown.split("\r").length > 3, shown);
    }

    @Test
    void aConfigWithoutPathsHasNothingToRun() throws IOException
    {
        try (RunConfig config = config("nodes = { gen = { type = \"counter\" } }\n"))
        {
            final RunException failure = assertThrows(RunException.class, () -> run(config, options(null)));
            assertTrue(failure.getMessage().endsWith("run.conf: no enabled paths, so nothing to run: add one such " +
                "as paths = ( { in = \"siggen\", out = \"ib_node_source\" } )"), failure.getMessage());
        }
    }

    private RunConfig config(final String text) throws IOException
    {
        return TestNodes.read(dir.resolve("run.conf"), text);
    }

    private static RunOptions options(final Duration duration)
    {
        return new RunOptions(duration, Duration.ZERO, Duration.ofMillis(100), Duration.ofSeconds(5),
            IdleKind.YIELDING, PathThreads.AUTO, JitMode.TIERED);
    }

    private void run(final RunConfig config, final RunOptions options)
    {
        new Runner(config, options, new PrintWriter(out, true), null).run();
    }

    private static TestNodes.Collector collector(final RunConfig config, final String name)
    {
        return (TestNodes.Collector)config.nodes().stream().filter((node) -> node.name().equals(name)).findFirst()
            .orElseThrow().node();
    }

    private static void sleep(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
