package io.ibex.samples.runner.node;

import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.LibconfigReader;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileNodeTest
{
    /** 2024-01-02 03:04:05.5 UTC. */
    private static final long START = 1_704_164_645_500_000_000L;
    private static final long MILLI = 1_000_000L;
    private static final String HEADER = "# seconds.nanoseconds(sequence)\tsignal0\tsignal1\tsignal2\n";
    private static final String THREE_SAMPLES = HEADER +
        "100.000000000(0)\t0.5\t1\t-1\n" +
        "100.500000000(1)\t1.5\t2\t-2\n" +
        "101.000000000(2)\t2.5\t3\t-3\n";

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(START);
    private final SampleBlock block = new SampleBlock(8, 3);

    @Test
    void writesTheStrftimeExpandedFileWithItsParentsAsVillasWritesIt() throws IOException
    {
        final FileNode node = node("uri = \"logs/ib_results-%Y%m%d_%H-%M-%S.log\"");
        node.outputSignals(SignalList.ofCount(3));
        node.start();
        final Path file = dir.resolve("logs/ib_results-20240102_03-04-05.log");
        assertEquals(file, node.path());
        assertTrue(Files.exists(file));
        fill(2);
        assertEquals(2, node.write(block, 0, 2));
        assertEquals("", Files.readString(file), "buffered until stop without out.flush");
        node.stop();
        node.stop();
        assertEquals(HEADER +
            "1704164645.500000000(0)\t0.00000000000000000\t0.50000000000000000\t1.00000000000000000\n" +
            "1704164645.500000001(1)\t0.50000000000000000\t1.00000000000000000\t1.50000000000000000\n",
            Files.readString(file));
        assertEquals("wrote 2 samples to " + file, node.summary());
    }

    @Test
    void flushesEveryWriteWithOutFlushAndAppendsToAnExistingFileAsVillasA() throws IOException
    {
        Files.writeString(dir.resolve("out.log"), "# earlier\n");
        final FileNode node = node("uri = \"out.log\"; out = { flush = true }");
        node.outputSignals(SignalList.ofCount(3));
        node.start();
        fill(3);
        assertEquals(2, node.write(block, 1, 2));
        assertEquals("# earlier\n" + HEADER +
            "1704164645.500000001(1)\t0.50000000000000000\t1.00000000000000000\t1.50000000000000000\n" +
            "1704164645.500000002(2)\t1.00000000000000000\t1.50000000000000000\t2.00000000000000000\n",
            Files.readString(dir.resolve("out.log")));
        node.close();
    }

    @Test
    void aFileThatCannotBeWrittenNamesTheNodeThePathTheReasonAndTheUri() throws IOException
    {
        Files.writeString(dir.resolve("logs"), "a file where a directory should be");
        final FileNode node = node("uri = \"logs/x.log\"");
        node.outputSignals(SignalList.ofCount(3));
        final NodeException error = assertThrows(NodeException.class, node::start);
        assertEquals("node 'results': cannot write " + dir.resolve("logs/x.log") + " (uri at n.conf:1:19): " +
            dir.resolve("logs") + ": exists and is not a directory", error.getMessage());
    }

    @Test
    void onAFullDiskOnlySamplesWhoseLineReachedTheFileCountAndTheTornLastLineIsNamed() throws IOException
    {
        final byte[] whole = writeSamples("whole.log", "flush = true", Long.MAX_VALUE, 16, 8);
        final int complete = 11;
        final int lineEnd = nthLineEnd(whole, complete + 1); // the header, then 11 samples
        final int torn = 24;
        final FileNode node = writeNode("full.log", "flush = true", lineEnd + torn);
        fill(8);
        assertEquals(8, node.write(block, 0, 8));
        final NodeException error = assertThrows(NodeException.class, () -> node.write(block, 0, 8));
        final Path file = dir.resolve("full.log");

        assertEquals("node 'results': cannot write " + file + " (uri at n.conf:1:19): No space left on device; the " +
            "file holds the header and " + complete + " complete samples, then a torn line of " + torn +
            " bytes (sample " + (complete + 1) + ", not counted)", error.getMessage());
        node.stop();
        assertEquals("wrote " + complete + " samples to " + file + ", then the disk refused the rest; its last " +
            "line is torn (" + torn + " bytes)", node.summary());
        assertArrayEquals(java.util.Arrays.copyOf(whole, lineEnd + torn), Files.readAllBytes(file),
            "nothing more is written after the failure, not even at stop");
    }

    @Test
    void onAFullDiskAtStopTheSummaryCountsWhatReachedTheFile() throws IOException
    {
        final byte[] whole = writeSamples("whole.log", "", Long.MAX_VALUE, 8, 8);
        final int lineEnd = nthLineEnd(whole, 1 + 5);
        final FileNode node = writeNode("full.log", "", lineEnd);
        fill(8);
        assertEquals(8, node.write(block, 0, 8));
        final NodeException error = assertThrows(NodeException.class, node::stop);

        assertTrue(error.getMessage().endsWith("No space left on device; the file holds the header and 5 complete " +
            "samples, and no torn line"), error.getMessage());
        assertEquals("wrote 5 samples to " + dir.resolve("full.log") + ", then the disk refused the rest",
            node.summary());
    }

    @Test
    void writingANodeTheRunnerDidNotMakeAnOutputIsAnError()
    {
        final FileNode node = node("uri = \"out.log\"");
        node.start();
        assertTrue(assertThrows(IllegalStateException.class, () -> node.write(block, 0, 1)).getMessage()
            .contains("not a path's output: the runner must call outputSignals before start"));
        assertFalse(Files.exists(dir.resolve("out.log")));
    }

    @Test
    void replaysAsFastAsThePathTakesThemInModeOriginalThenEnds() throws IOException
    {
        Files.writeString(dir.resolve("in.log"), THREE_SAMPLES);
        final FileNode node = node("uri = \"in.log\"; in = { epoch_mode = \"original\"; signals = \"1f2i\" }");
        node.start();
        final SampleBlock two = new SampleBlock(2, 3);
        assertEquals(2, node.read(two));
        assertEquals(2, two.size());
        assertEquals(0.5, two.get(0).floatValue(0));
        assertEquals(2, two.get(1).integerValue(1));
        assertEquals(100, two.get(1).originSeconds());
        assertEquals(500_000_000, two.get(1).originNanos());
        assertEquals(1, node.read(two));
        assertEquals(3, two.get(0).integerValue(1));
        assertEquals(-3, two.get(0).integerValue(2));
        assertEquals(Long.MAX_VALUE, node.nanosUntilDue(), "mode original never waits for time");
        assertEquals(Node.END, node.read(two));
        assertEquals("read 3 samples from " + dir.resolve("in.log"), node.summary());
        node.close();
    }

    @Test
    void replaysByTheFileTimestampsFromNowInModeDirect() throws IOException
    {
        Files.writeString(dir.resolve("in.log"), THREE_SAMPLES);
        final FileNode node = node("uri = \"in.log\"; in = { epoch = 0.25 }");
        node.start();
        assertEquals(0, node.read(block), "the first sample goes at now + epoch");
        assertEquals(250 * MILLI, node.nanosUntilDue(), "and the path knows when");
        clock.advance(250 * MILLI);
        assertEquals(1, node.read(block));
        assertEquals(START + 250 * MILLI, origin(block.get(0)));
        assertEquals(0, block.get(0).sequence());
        clock.advance(499 * MILLI);
        assertEquals(0, node.read(block));
        clock.advance(1001 * MILLI);
        assertEquals(2, node.read(block), "late samples go at once");
        assertEquals(START + 750 * MILLI, origin(block.get(0)));
        assertEquals(START + 1250 * MILLI, origin(block.get(1)));
        assertEquals(Node.END, node.read(block));
        node.close();
    }

    @Test
    void skippedSamplesStillSetTheFirstTimestampOfModeDirect() throws IOException
    {
        Files.writeString(dir.resolve("in.log"), THREE_SAMPLES);
        final FileNode node = node("uri = \"in.log\"; in = { skip = 2 }");
        node.start();
        assertEquals(0, node.read(block));
        clock.advance(999 * MILLI);
        assertEquals(0, node.read(block));
        clock.advance(MILLI);
        assertEquals(1, node.read(block), "the third sample goes 1 s after the first, skipped or not");
        assertEquals(2, block.get(0).sequence());
        assertEquals(START + 1000 * MILLI, origin(block.get(0)));
        node.close();
    }

    @Test
    void replaysAtAFixedRateStampedWithNowCountingMissedSteps() throws IOException
    {
        Files.writeString(dir.resolve("in.log"), THREE_SAMPLES);
        final FileNode node = node("uri = \"in.log\"; in = { rate = 10.0; eof = \"rewind\" }");
        node.start();
        assertEquals(1, node.read(block));
        assertEquals(START, origin(block.get(0)));
        assertEquals(0, node.read(block));
        assertEquals(100 * MILLI, node.nanosUntilDue(), "the next step");
        clock.advance(100 * MILLI);
        assertEquals(1, node.read(block), "one a step, however many are due");
        assertEquals(1, block.get(0).sequence());
        clock.advance(350 * MILLI);
        assertEquals(1, node.read(block));
        assertEquals(START + 450 * MILLI, origin(block.get(0)));
        clock.advance(50 * MILLI);
        assertEquals(1, node.read(block));
        assertEquals(0, block.get(0).sequence(), "rewound");
        assertEquals("read 4 samples from " + dir.resolve("in.log") + ", rewound 1 time, 2 steps missed",
            node.summary());
        node.close();
    }

    @Test
    void skipsInSkipSamplesAndWaitsForAppendedLinesWithEofWait() throws IOException
    {
        final Path file = dir.resolve("in.log");
        Files.writeString(file, THREE_SAMPLES);
        final FileNode node = node("uri = \"in.log\"; in = { skip = 2; eof = \"wait\"; epoch_mode = \"original\" }");
        node.start();
        assertEquals(1, node.read(block));
        assertEquals(2, block.get(0).sequence());
        assertEquals(0, node.read(block));
        Files.writeString(file, "102.000000000(3)\t9\t9\t9\n103.0", StandardOpenOption.APPEND);
        clock.advance(99 * MILLI);
        assertEquals(0, node.read(block), "looks again only after 100 ms, as VILLAS");
        clock.advance(MILLI);
        assertEquals(1, node.read(block), "the line without its newline is still being written");
        assertEquals(3, block.get(0).sequence());
        node.stop();
        assertEquals(Node.END, node.read(block));
    }

    @Test
    void anEmptyFileEndsEvenWithRewind() throws IOException
    {
        Files.writeString(dir.resolve("in.log"), HEADER);
        final FileNode node = node("uri = \"in.log\"; in = { eof = \"rewind\" }");
        node.start();
        assertEquals(Node.END, node.read(block));
        node.close();
    }

    @Test
    void replayingAMissingOrBrokenFileNamesNodeFileAndWhere() throws IOException
    {
        final FileNode missing = node("uri = \"none.log\"");
        missing.start();
        assertEquals("node 'results': cannot replay " + dir.resolve("none.log") + " (uri at n.conf:1:19): no such " +
            "file (a file node that is no path's output replays an existing file)",
            assertThrows(NodeException.class, () -> missing.read(block)).getMessage());
        Files.writeString(dir.resolve("bad.log"), HEADER + "100.0(0)\t1\t2\t3\n100.1(1)\t1\t2x\t3\n");
        final FileNode broken = node("uri = \"bad.log\"; in = { epoch_mode = \"original\" }");
        broken.start();
        assertEquals("node 'results': " + dir.resolve("bad.log") + ":3:12: value 2 (signal1): '2x' is not a float",
            assertThrows(NodeException.class, () -> broken.read(block)).getMessage());
        broken.close();
    }

    @Test
    void aTimestampTooFarFrom1970ToReplayIsAnErrorAtItsLineAndColumnSayingItIsOutOfRange() throws IOException
    {
        Files.writeString(dir.resolve("far.log"), HEADER + "99999999999.0(0)\t1\t2\t3\n");
        final FileNode far = node("uri = \"far.log\"");
        far.start();
        final NodeException error = assertThrows(NodeException.class, () -> far.read(block));
        assertEquals("node 'results': " + dir.resolve("far.log") + ":2:1: ts.origin 99999999999.000000000 is out " +
            "of range: replay by timestamps (in.epoch_mode \"direct\") takes times within 292 years of 1970",
            error.getMessage());
        assertEquals(null, error.getCause(), "the message says it all; 'long overflow' says nothing more");
        far.close();

        Files.writeString(dir.resolve("later.log"), HEADER + "0.0(0)\t1\t2\t3\n9000000000.500000000(1)\t1\t2\t3\n");
        final FileNode later = node("uri = \"later.log\"");
        later.start();
        assertEquals("node 'results': " + dir.resolve("later.log") + ":3:1: ts.origin 9000000000.500000000 is out " +
            "of range: replay by timestamps (in.epoch_mode \"direct\") takes times within 292 years of 1970",
            assertThrows(NodeException.class, () -> later.read(block)).getMessage(),
            "in range itself, but not once moved to now (the read that takes line 2 goes on to line 3)");
        later.close();
    }

    @Test
    void readsWhatItWroteWithThePathsSignals() throws IOException
    {
        final FileNode writer = node("uri = \"loop.log\"");
        final SignalList signals = SignalList.parseFormat("1i2f");
        writer.outputSignals(signals);
        writer.start();
        fill(3);
        block.get(2).integerValue(0, Long.MIN_VALUE).floatValue(1, Double.NaN);
        writer.write(block, 0, 3);
        writer.close();
        final FileNode reader = node("uri = \"loop.log\"; in = { epoch_mode = \"original\"; signals = \"1i2f\" }");
        reader.start();
        final SampleBlock read = new SampleBlock(8, 3);
        assertEquals(3, reader.read(read));
        for (int i = 0; i < 3; i++)
        {
            assertEquals(block.get(i).flags(), read.get(i).flags());
            assertEquals(block.get(i).sequence(), read.get(i).sequence());
            assertEquals(origin(block.get(i)), origin(read.get(i)));
            for (int v = 0; v < 3; v++)
            {
                assertEquals(block.get(i).bits(v), read.get(i).bits(v));
            }
        }
        reader.close();
    }

    @Test
    void returnsItsHooksAndTellsItsType()
    {
        final ConfiguredNode configured = FileNode.create("results", group(
            "uri = \"a\"; in = { hooks = ( { type = \"stats\" } ) }; out = { hooks = ( ) }"), context());
        assertEquals("( { type = \"stats\"; } )", configured.inHooks().toString());
        assertEquals("(  )", configured.outHooks().toString());
        assertEquals("file", configured.node().type());
        assertEquals("results", configured.node().name());
        assertEquals(SignalList.DEFAULT, configured.node().signals());
        assertTrue(configured.node().readable() && configured.node().writable());
    }

    /** @return the file's bytes after a node wrote {@code writes} samples in blocks of {@code per} and stopped. */
    private byte[] writeSamples(final String name, final String out, final long room, final int writes,
        final int per) throws IOException
    {
        final FileNode node = writeNode(name, out, room);
        fill(per);
        for (int i = 0; i < writes; i += per)
        {
            node.write(block, 0, per);
        }
        node.stop();
        return Files.readAllBytes(dir.resolve(name));
    }

    private FileNode writeNode(final String name, final String out, final long room)
    {
        final FileNode node = (FileNode)FileNode.create("results", group("uri = \"" + name + "\"; out = { " + out +
            " }"), context(), FullDisk.withRoomFor(room)).node();
        node.outputSignals(SignalList.ofCount(3));
        node.start();
        return node;
    }

    /** @return the offset just after the {@code n}-th newline. */
    private static int nthLineEnd(final byte[] text, final int n)
    {
        int seen = 0;
        for (int i = 0; i < text.length; i++)
        {
            if (text[i] == '\n' && ++seen == n)
            {
                return i + 1;
            }
        }
        throw new AssertionError("fewer than " + n + " lines");
    }

    /** Samples i = 0..count-1: sequence i, ts.origin START + i ns, values i / 2, i / 2 + 0.5, i / 2 + 1. */
    private void fill(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            block.get(i).flags(Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE | Sample.HAS_DATA).sequence(i)
                .origin(START / 1_000_000_000L, START % 1_000_000_000L + i).length(3)
                .floatValue(0, i * 0.5).floatValue(1, i * 0.5 + 0.5).floatValue(2, i * 0.5 + 1);
        }
        block.size(count);
    }

    private static long origin(final Sample sample)
    {
        return sample.originSeconds() * 1_000_000_000L + sample.originNanos();
    }

    private FileNode node(final String body)
    {
        return (FileNode)FileNode.FACTORY.create("results", group(body), context()).node();
    }

    private NodeContext context()
    {
        return new NodeContext(dir, clock, clock);
    }

    private static ConfigGroup group(final String body)
    {
        return (ConfigGroup)LibconfigReader.parse("results = { " + body + " };", "n.conf").get("results");
    }
}
