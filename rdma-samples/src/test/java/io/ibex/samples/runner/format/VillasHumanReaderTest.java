package io.ibex.samples.runner.format;

import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalType;
import io.ibex.transport.sample.SignalValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static io.ibex.samples.runner.format.VillasHumanWriterTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VillasHumanReaderTest
{
    /** The input of VILLASnode's integration test of its signal tool (tests/integration), first lines. */
    private static final String VILLAS_SIGNAL_TEST = """
        # seconds.nanoseconds(sequence)\trandom\tsine\tsquare\ttriangle\tramp
        1561591854.277376100(0)\t0.022245\t-0.136359\t1.000000\t-0.912920\t0.104354
        1561591854.377354600(1)\t0.015339\t0.135690\t-1.000000\t0.913350\t0.204333
        """;

    @TempDir
    Path dir;

    @Test
    void readsWhatVillasWritesWithItsHeader() throws IOException
    {
        final Sample sample = sample(64);
        try (VillasHumanReader reader = reader(VILLAS_SIGNAL_TEST, SignalList.DEFAULT))
        {
            assertTrue(reader.read(sample));
            assertEquals(2, reader.sampleLine());
            assertEquals(Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE | Sample.HAS_DATA, sample.flags());
            assertEquals(1561591854, sample.originSeconds());
            assertEquals(277376100, sample.originNanos());
            assertEquals(0, sample.sequence());
            assertEquals(5, sample.length());
            assertEquals(0.022245, sample.floatValue(0));
            assertEquals(-0.912920, sample.floatValue(3));
            assertTrue(reader.read(sample));
            assertEquals(1, sample.sequence());
            assertEquals(0.204333, sample.floatValue(4));
            assertFalse(reader.read(sample));
        }
    }

    @Test
    void readsTheOlderLinesWithoutSequenceAndWithAnOffset() throws IOException
    {
        // The example of VILLAS's file node documentation (2017), and an offset as its older writer put it.
        final Sample sample = sample(4);
        try (VillasHumanReader reader = reader("""
            1438959964.162102394\t6\t3.489760\t-1.882725\t0.860070
            1438959964.261677582-2.500000e-01(12)\t7
            """, SignalList.parseFormat("1i3f")))
        {
            assertTrue(reader.read(sample));
            assertEquals(Sample.HAS_TS_ORIGIN | Sample.HAS_DATA, sample.flags());
            assertEquals(6, sample.integerValue(0));
            assertEquals(0.860070, sample.floatValue(3));
            assertTrue(reader.read(sample));
            assertEquals(Sample.HAS_TS_ORIGIN | Sample.HAS_OFFSET | Sample.HAS_TS_RECEIVED | Sample.HAS_SEQUENCE |
                Sample.HAS_DATA, sample.flags());
            assertEquals(1438959964, sample.receivedSeconds());
            assertEquals(11677582, sample.receivedNanos());
            assertEquals(12, sample.sequence());
            assertEquals(1, sample.length());
        }
    }

    @Test
    void skipsCommentsAndBlankLinesAnywhereAndTakesCrlfAndALastLineWithoutNewline() throws IOException
    {
        final Sample sample = sample(2);
        try (VillasHumanReader reader = reader("# a comment\r\n\r\n  \n1.000000001(1)\t1\t2\r\n" +
            "   # another\n\t\n2.000000002(2)  3 \t 4  ", SignalList.ofCount(2)))
        {
            assertTrue(reader.read(sample));
            assertEquals(4, reader.sampleLine());
            assertEquals(2.0, sample.floatValue(1));
            assertTrue(reader.read(sample));
            assertEquals(7, reader.sampleLine());
            assertEquals(2, sample.originNanos());
            assertEquals(4.0, sample.floatValue(1));
            assertFalse(reader.read(sample));
        }
    }

    @Test
    void readsEveryFormOfTheTypesAsVillasParsesThem() throws IOException
    {
        final SignalList signals = SignalList.parseFormat("4f1i1b4c");
        final Sample sample = sample(10);
        try (VillasHumanReader reader = reader("0.0\t1e3\t-.5\tINF\t-nan\t+17\t0\t2.5i\t-1-2j\t3\tnan+infi\n",
            signals))
        {
            assertTrue(reader.read(sample));
            assertEquals(1000.0, sample.floatValue(0));
            assertEquals(-0.5, sample.floatValue(1));
            assertEquals(Double.POSITIVE_INFINITY, sample.floatValue(2));
            assertEquals(0xfff8_0000_0000_0000L, sample.bits(3));
            assertEquals(17, sample.integerValue(4));
            assertFalse(sample.booleanValue(5));
            assertEquals(SignalValues.ofComplex(0, 2.5f), sample.bits(6));
            assertEquals(SignalValues.ofComplex(-1, -2), sample.bits(7));
            assertEquals(SignalValues.ofComplex(3, 0), sample.bits(8));
            assertEquals(SignalValues.ofComplex(Float.NaN, Float.POSITIVE_INFINITY), sample.bits(9));
        }
    }

    @Test
    void takesTypesFromTheFirstSampleAndNamesFromTheHeaderWhenGivenNoSignals() throws IOException
    {
        final Sample sample = sample(Sample.MAX_CAPACITY);
        try (VillasHumanReader reader = reader("# seconds.nanoseconds(sequence)\tu[V]\tn\n" +
            "1.000000000(0)\t0.50000000000000000\t-3\t1.0+2.0i\t7\n" +
            "2.000000000(1)\tnan\t4\t-0.0-1.0i\t-9223372036854775808\n", null))
        {
            assertNull(reader.signals());
            assertTrue(reader.read(sample));
            assertEquals(new SignalList(List.of(new Signal("u", "V", SignalType.FLOAT, 0),
                Signal.of("n", SignalType.INTEGER), Signal.of("signal2", SignalType.COMPLEX),
                Signal.of("signal3", SignalType.INTEGER))), reader.signals());
            assertEquals(-3, sample.integerValue(1));
            assertTrue(reader.read(sample));
            assertTrue(Double.isNaN(sample.floatValue(0)));
            assertEquals(Long.MIN_VALUE, sample.integerValue(3));
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "x1.0\\t1 | 2:1: expected seconds (digits), found 'x1.0'",
        "1,5\\t2 | 2:2: expected a tab before the values, found ',5'",
        "1234 | 2:1: a sample needs more than whole seconds: nanoseconds, a sequence or values",
        "1.\\t2 | 2:3: expected nanoseconds (digits), found a tab",
        "1.1000000000\\t2 | 2:3: nanoseconds 1000000000 outside 0..999999999",
        "1.0(5\\t2 | 2:6: expected ')' after the sequence, found a tab",
        "1.0(18446744073709551616)\\t2 | 2:5: sequence 18446744073709551616 exceeds 2^64 - 1",
        "1.0(5)x\\t2 | 2:7: expected a tab before the values, found 'x'",
        "1.0+\\t2 | 2:4: offset: '+' is not a number",
        "1.0\\t0.5x\\t1\\t0 | 2:5: value 1 (signal0): '0.5x' is not a float",
        "1.0\\t0.5\\t1.5\\t0 | 2:9: value 2 (signal1): '1.5' is not an integer",
        "1.0\\t0.5\\t9223372036854775808\\t0 | 2:9: value 2 (signal1) 9223372036854775808 does not fit 64 bits",
        "1.0\\t0.5\\t1\\t2 | 2:11: value 3 (signal2): boolean 2 is neither 0 nor 1",
        "1.0\\t0.5\\t1\\t1\\t1+2 | 2:16: value 4 (signal3): expected 'i' after the imaginary part, found the end of " +
            "the line",
        "1.0\\t0.5\\t1\\t1\\t1\\t7 | 2:15: more values than the 4 signals: '7'",
        "1.0\\t.\\t1\\t1 | 2:5: value 1 (signal0): '.' is not a number",
    })
    void rejectsAnythingVillasDoesNotWriteNamingFileLineAndColumn(final String line, final String message)
        throws IOException
    {
        final String text = "# seconds.nanoseconds(sequence)\n" + line.replace("\\t", "\t") + "\n";
        final Path file = dir.resolve("bad.log");
        Files.writeString(file, text);
        try (VillasHumanReader reader = VillasHumanReader.open(file, SignalList.parseFormat("fibc")))
        {
            final SampleFileException error = assertThrows(SampleFileException.class, () -> reader.read(sample(4)));
            assertEquals(file + ":" + message, error.getMessage());
            assertEquals(2, error.line());
        }
    }

    @Test
    void aLineLongerThanTheBufferGrowsIt() throws IOException
    {
        final StringBuilder line = new StringBuilder("1.000000000(0)");
        for (int i = 0; i < 1000; i++)
        {
            line.append("\t-0.12345678901234567");
        }
        final Path file = dir.resolve("long.log");
        Files.writeString(file, line + "\n" + line + "\n");
        final Sample sample = sample(1000);
        try (VillasHumanReader reader = new VillasHumanReader("long.log",
            FileChannel.open(file, StandardOpenOption.READ), SignalList.ofCount(1000), 1024, false))
        {
            assertTrue(reader.read(sample));
            assertTrue(reader.read(sample));
            assertEquals(1000, sample.length());
            assertEquals(-0.12345678901234567, sample.floatValue(999));
            assertFalse(reader.read(sample));
        }
    }

    @Test
    void followingAFileReadsALastLineOnlyOnceItsNewlineArrivesAndRewindStartsOver() throws IOException
    {
        final Path file = dir.resolve("growing.log");
        Files.writeString(file, "1.000000000(0)\t1\n2.000000000(1)\t2");
        final Sample sample = sample(1);
        try (VillasHumanReader reader = new VillasHumanReader("growing.log",
            FileChannel.open(file, StandardOpenOption.READ), SignalList.ofCount(1), 1024, true))
        {
            assertTrue(reader.read(sample));
            assertFalse(reader.read(sample));
            Files.writeString(file, "5\n", StandardCharsets.US_ASCII, StandardOpenOption.APPEND);
            assertTrue(reader.read(sample));
            assertEquals(25.0, sample.floatValue(0));
            assertFalse(reader.read(sample));
            reader.rewind();
            assertTrue(reader.read(sample));
            assertEquals(1, reader.sampleLine());
            assertEquals(1.0, sample.floatValue(0));
        }
    }

    private VillasHumanReader reader(final String text, final SignalList signals) throws IOException
    {
        final Path file = Files.createTempFile(dir, "samples", ".log");
        Files.writeString(file, text);
        return VillasHumanReader.open(file, signals);
    }
}
