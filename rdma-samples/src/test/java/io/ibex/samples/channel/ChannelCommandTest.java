package io.ibex.samples.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import io.ibex.samples.runner.SampleFileComparison;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.stats.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ibex channel} with the example configs (examples/channel-loopback.conf and its JSON twin), their ports
 * replaced by free ones: source and target on two threads of this JVM, on the soft provider.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(SoftResourcesReleased.class)
class ChannelCommandTest
{
    @TempDir
    private Path dir;

    /** The soak's JVM options, as .ci/soak's: a fixed, pre-touched heap and native memory tracking. */
    private static final List<String> SOAK_JVM = List.of("-Xms128m", "-Xmx128m", "-XX:+AlwaysPreTouch",
        "-XX:NativeMemoryTracking=summary");

    private final int targetPort = LoopbackPorts.next();
    private final int sourcePort = LoopbackPorts.next();

    @Test
    void rcSamplesArriveCompleteInOrderAndIntact() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        final IbexRun target = IbexRun.start("channel", config.toString(), "target", "--count", "500");
        final IbexRun source = IbexRun.run("channel", config.toString(), "source", "--count", "500");

        source.assertSucceeded();
        target.assertSucceeded();
        source.line(Pattern.compile("source: wrote 500 samples of 3 signals to 127\\.0\\.0\\.1:" + targetPort +
            " over RC in [0-9.]+ s"));
        target.line(Pattern.compile("target: read 500 samples on 127\\.0\\.0\\.1:" + targetPort +
            " over RC in [0-9.]+ s from the first: complete, in order, intact"));
        assertCounter(source, "sent", 500);
        assertCounter(source, "dropped", 0);
        assertCounter(target, "received", 500);
        assertCounter(target, "invalid", 0);
        target.line(Pattern.compile("owd +µs +500 .*"));
        target.line(Pattern.compile("skipped +samples +0 .*"));
    }

    @Test
    void udSamplesFromTheJsonTwinArriveAndTheStatsComeAsJson() throws IOException
    {
        final Path config = example("channel-loopback.json", "UD");
        final IbexRun target = IbexRun.start("channel", config.toString(), "target", "--count", "200",
            "--stats-format", "json");
        final IbexRun source = IbexRun.run("channel", config.toString(), "source", "--count", "200", "--rate",
            "2000", "--linger-ms", "200", "--stats-format", "json");

        source.assertSucceeded();
        target.assertSucceeded();
        assertTrue(target.err().contains("target: read 200 samples on 127.0.0.1:" + targetPort + " over UD"),
            target.toString());
        final String json = target.out().strip();
        assertTrue(json.startsWith("{\"metrics\":{\"owd\":{") && json.endsWith("}"), json);
        assertTrue(json.contains("\"received\":200,") && json.contains("\"invalid\":0,"), json);
        assertTrue(source.out().contains("\"sent\":200,") && source.out().contains("\"dropped\":0,"), source.out());
    }

    @Test
    void theJsonTwinDescribesTheSameNodes()
    {
        for (final String node : new String[] {"source", "target"})
        {
            assertEquals(ChannelConfig.read(IbexRun.EXAMPLES.resolve("channel-loopback.conf"), node),
                ChannelConfig.read(IbexRun.EXAMPLES.resolve("channel-loopback.json"), node), node);
        }
    }

    /**
     * The soak of docs/reliability.md, shortened ({@code -Dibex.test.soak-samples}): source and target as JVMs of
     * their own with the soak's JVM options (.ci/soak), memory bounded to 5% growth from a tenth of the run on.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aSoakLosesNothingAndKeepsMemoryFlat() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        final String count = Integer.getInteger("ibex.test.soak-samples", 200_000).toString();
        final IbexRun target = IbexRun.startJvm(SOAK_JVM, "channel", config.toString(), "target", "--count", count,
            "--memory-bound", "5", "--timeout-ms", "60000");
        IbexRun.awaitListening(targetPort, target);
        final IbexRun source = IbexRun.startJvm(SOAK_JVM, "channel", config.toString(), "source", "--count", count,
            "--memory-bound", "5", "--timeout-ms", "60000");

        source.assertSucceeded();
        target.assertSucceeded();
        target.line(Pattern.compile("target: read " + count + " samples .* complete, in order, intact"));
        for (final IbexRun run : List.of(source, target))
        {
            run.line(Pattern.compile("memory after " + Integer.parseInt(count) / 10 + " of " + count + " samples and " +
                "after the last: heap .* direct .* native .* rss .*"));
        }
    }

    /**
     * A target whose JVM stops for 1.5 s (as a loaded machine or a long collection stops it) acknowledges nothing
     * meanwhile: the soft provider's source must wait, not fail the connection (it failed after 536 ms, the
     * transport timer of IB's default timeout 14 and retry_cnt 7), and nothing is lost.
     */
    @Test
    void aTargetStoppedForAMomentLosesNothing() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        final IbexRun target = IbexRun.startJvm("channel", config.toString(), "target", "--count", "4000");
        IbexRun.awaitListening(targetPort, target);
        final IbexRun source = IbexRun.startJvm("channel", config.toString(), "source", "--count", "4000", "--rate",
            "1000");
        target.awaitError("target: connected");
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
        target.signal("STOP");
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1500));
        target.signal("CONT");

        source.assertSucceeded();
        target.assertSucceeded();
        target.line(Pattern.compile("target: read 4000 samples .* complete, in order, intact"));
    }

    @Test
    void withOutputBothSidesWriteTheirSamplesAsVillasHumanAndTheFilesCompareEqual() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        final Path sent = dir.resolve("sent.log");
        final Path read = dir.resolve("read.log");
        // The target expects more than come: it ends once none arrived for --linger-ms after the first.
        final IbexRun target = IbexRun.start("channel", config.toString(), "target", "--count", "1000", "--output",
            read.toString(), "--linger-ms", "500");
        final IbexRun source = IbexRun.run("channel", config.toString(), "source", "--count", "300", "--output",
            sent.toString());
        source.assertSucceeded();
        target.assertSucceeded();
        target.line(Pattern.compile("target: read 300 samples on 127\\.0\\.0\\.1:" + targetPort +
            " over RC in [0-9.]+ s from the first, wrote them to " + Pattern.quote(read.toString())));
        final SampleFileComparison.Result result =
            SampleFileComparison.compare(sent, read, SampleFileComparison.Tolerance.EXACT);
        assertTrue(result.equal(), result::toString);
        assertEquals(300, result.samplesA());
        assertTrue(Files.readAllLines(sent).get(1).matches("\\d+\\.\\d{9}\\(0\\)\\t0\\.0{17}\\t0\\.0627905195293133\\d\\t2"),
            () -> "the first sample, sequence 0: sin(0), sin(2 pi / 100), 0 + 2: " + sent);
    }

    @Test
    void withOutputAnRcSourceLingersRatherThanWaitForATargetThatNeverCloses() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        // As a VILLASnode target: it never closes the connection (it expects more than come and waits long).
        final IbexRun target = IbexRun.startJvm("channel", config.toString(), "target", "--count", "1000",
            "--timeout-ms", "60000");
        try
        {
            IbexRun.run("channel", config.toString(), "source", "--count", "20", "--output",
                dir.resolve("sent.log").toString(), "--linger-ms", "300").assertSucceeded();
            assertFalse(target.isDone(), "the target still waits for samples");
        }
        finally
        {
            target.kill();
        }
    }

    /**
     * A target that never reads: the source's sends stall once the target's receives are used up, and the source
     * gives up after --timeout-ms. Its --output file holds exactly the samples the channel took, not the one it
     * claimed and filled and could not write.
     */
    @Test
    void aStalledSourcesOutputHoldsOnlyTheSamplesTheChannelTook() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        final Path sent = dir.resolve("sent.log");
        try (SampleChannel target = SampleChannel.open(ChannelConfig.read(config, "target")))
        {
            final IbexRun source = IbexRun.run("channel", config.toString(), "source", "--count", "100000",
                "--output", sent.toString(), "--timeout-ms", "1000");
            source.assertFailed("channel", "the channel took no sample for 1000 ms after sequence ");
            final Matcher last = Pattern.compile("after sequence (\\d+) ").matcher(source.err());
            assertTrue(last.find(), source::toString);
            final List<String> lines = Files.readAllLines(sent);
            final long samples = lines.stream().filter((line) -> !line.startsWith("#")).count();
            assertEquals(Long.parseLong(last.group(1)) + 1, samples, "samples in " + sent);
            assertTrue(lines.get(lines.size() - 1).contains("(" + last.group(1) + ")"), "the last line is sample " +
                last.group(1) + ": " + lines.get(lines.size() - 1));
            assertEquals(0, target.stats().get(Counter.RECEIVED), "the target read nothing");
        }
    }

    @Test
    void aTargetWhoseSourceSendsTooFewSaysHowManyCame() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        final IbexRun target = IbexRun.start("channel", config.toString(), "target", "--count", "8",
            "--timeout-ms", "1000");
        // The source waits for the target to close the connection, which it does when it gives up.
        final IbexRun source = IbexRun.run("channel", config.toString(), "source", "--count", "5");

        target.assertFailed("channel", "target: no sample arrived for 1000 ms (it is CONNECTED); received 5 of 8 " +
            "samples; 0 dropped, 0 invalid");
        assertCounter(target, "received", 5);
        source.assertSucceeded();
    }

    /**
     * What made every ibex-to-ibex connection in the loaded Soft-RoCE guest end REJECTED (status 8): the source's JVM
     * took longer to start than the target's --timeout-ms, so the target had stopped listening. Both must say so.
     */
    @Test
    void aTargetThatGaveUpBeforeItsSourceStartedSaysSoAndTheSourceHearsNothingListens() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        IbexRun.run("channel", config.toString(), "target", "--timeout-ms", "300")
            .assertFailed("channel", "target: no source connected to 127.0.0.1:" + targetPort + " within 300 ms " +
                "(--timeout-ms), so it stopped listening; 0 dropped, 0 invalid");
        IbexRun.run("channel", config.toString(), "source", "--timeout-ms", "500")
            .assertFailed("channel", "source: no target connected at 127.0.0.1:" + targetPort + " within 500 ms " +
                "(last try: connecting to /127.0.0.1:" + targetPort + " failed: REJECTED (status 8: nothing listens " +
                "on that port)); 0 dropped, 0 invalid");
    }

    @Test
    void aSourceWithoutTargetGivesUpAfterTheTimeout() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        IbexRun.run("channel", config.toString(), "source", "--timeout-ms", "500")
            .assertFailed("channel", "source: no target connected at 127.0.0.1:" + targetPort + " within 500 ms");
    }

    @Test
    void badArgumentsAndUnknownNodesAreNamed() throws IOException
    {
        final Path config = example("channel-loopback.conf", "RC");
        IbexRun.run("channel", config.toString(), "target", "--stats-format", "xml")
            .assertFailed("channel", "--stats-format xml must be text or json");
        IbexRun.run("channel", config.toString(), "target", "--count", "0")
            .assertFailed("channel", "--count 0 must be at least 1");
        IbexRun.run("channel", config.toString(), "target", "--memory-bound", "-1")
            .assertFailed("channel", "--memory-bound -1.0 must be a percentage of 0 or more");
        IbexRun.run("channel", config.toString(), "target", "--count", "10", "--warm-up", "10")
            .assertFailed("channel", "--warm-up 10 must be at least 0 and less than --count 10");
        IbexRun.run("channel", config.toString(), "nosuch")
            .assertFailed("channel", "no node 'nosuch' in nodes (it has: target, source)");
    }

    /** @return the example with free ports and the transport mode, written to the test's folder. */
    private Path example(final String name, final String mode) throws IOException
    {
        final String text = Files.readString(IbexRun.EXAMPLES.resolve(name))
            .replace("127.0.0.1:10501", "127.0.0.1:" + targetPort)
            .replace("127.0.0.1:10502", "127.0.0.1:" + sourcePort)
            .replaceAll("(\"?rdma_transport_mode\"?\\s*[=:]\\s*)\"RC\"", "$1\"" + mode + "\"");
        final Path config = dir.resolve(name);
        Files.writeString(config, text);
        return config;
    }

    private static void assertCounter(final IbexRun run, final String counter, final long value)
    {
        run.line(Pattern.compile(counter + " +" + value));
    }
}
