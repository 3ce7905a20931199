package io.ibex.samples.runner.format;

import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalType;
import io.ibex.transport.sample.SignalValues;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VillasHumanWriterTest
{
    private static final SignalList SIGNALS = new SignalList(List.of(
        new Signal("v", "V", SignalType.FLOAT, 0),
        Signal.of("count", SignalType.INTEGER),
        Signal.of("flag", SignalType.BOOLEAN),
        Signal.of("", SignalType.COMPLEX)));
    private static final double[] FLOATS = {
        0.5, -0.0, 0.0, 0.1, -12345.678, 1e300, -Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.longBitsToDouble(0xfff8_0000_0000_0000L), 1.0 / 3, 9007199254740993.0 };
    private static final long[] INTEGERS = { 0, -1, 42, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 53 | 1 };
    private static final float[][] COMPLEX = {
        { 1.5f, -2.25f }, { -0.0f, 0.0f }, { Float.NaN, Float.POSITIVE_INFINITY }, { Float.MAX_VALUE, -1e-7f },
        { 0.1f, 3.4028235e38f } };

    @TempDir
    Path dir;

    @Test
    void writesTheHeaderAndALinePerSampleAsVillas() throws IOException
    {
        final Sample sample = sample(4).sequence(7).origin(1561591854, 277376100)
            .flags(Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE | Sample.HAS_DATA)
            .floatValue(0, 0.5).integerValue(1, -42).booleanValue(2, true).complexValue(3, 1.5f, -2.25f);
        assertEquals("# seconds.nanoseconds(sequence)\tv[V]\tcount\tflag\tsignal3\n" +
            "1561591854.277376100(7)\t0.50000000000000000\t-42\t1\t1.50000000000000000-2.25000000000000000i\n",
            write(SIGNALS, 4096, sample));
    }

    @Test
    void writesNoTimestampAsZeroAndNoSequenceAsNothing() throws IOException
    {
        final Sample noTimestamp = sample(1).flags(Sample.HAS_SEQUENCE).sequence(3).length(1).floatValue(0, 1);
        final Sample noSequence = sample(1).flags(Sample.HAS_TS_ORIGIN).origin(5, 6).length(1).floatValue(0, 2);
        final Sample unsigned = sample(1).flags(Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE).origin(-1, 1_500_000_000)
            .sequence(-1).length(0);
        assertEquals("# seconds.nanoseconds(sequence)\tsignal0\n" +
            "0.0(3)\t1.00000000000000000\n" +
            "5.000000006\t2.00000000000000000\n" +
            "18446744073709551615.1500000000(18446744073709551615)\n",
            write(SignalList.ofCount(1), 4096, noTimestamp, noSequence, unsigned));
    }

    @Test
    void leavesOutValuesBeyondTheSignalList() throws IOException
    {
        final Sample sample = sample(3).flags(Sample.HAS_TS_ORIGIN).origin(1, 0).length(3)
            .floatValue(0, 1).floatValue(1, 2).floatValue(2, 3);
        assertTrue(write(SignalList.ofCount(2), 4096, sample)
            .endsWith("\n1.000000000\t1.00000000000000000\t2.00000000000000000\n"));
    }

    @Test
    void readsBackEveryTypeAndEdgeValueAsTheTextSays() throws IOException
    {
        final List<Sample> written = new ArrayList<>();
        for (int i = 0; i < FLOATS.length; i++)
        {
            final float[] complex = COMPLEX[i % COMPLEX.length];
            written.add(sample(4).sequence(i).origin(1_700_000_000L + i, i * 111_111_111L % 1_000_000_000L)
                .flags(Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE | Sample.HAS_DATA)
                .floatValue(0, FLOATS[i]).integerValue(1, INTEGERS[i % INTEGERS.length])
                .booleanValue(2, i % 2 == 1).complexValue(3, complex[0], complex[1]));
        }
        final Path file = dir.resolve("round-trip.log");
        Files.writeString(file, write(SIGNALS, VillasHumanWriter.MIN_BUFFER_SIZE, written.toArray(new Sample[0])));
        final Sample read = sample(4);
        try (VillasHumanReader reader = VillasHumanReader.open(file, SIGNALS))
        {
            for (final Sample expected : written)
            {
                assertTrue(reader.read(read));
                assertEquals(expected.flags(), read.flags());
                assertEquals(expected.sequence(), read.sequence());
                assertEquals(expected.originSeconds(), read.originSeconds());
                assertEquals(expected.originNanos(), read.originNanos());
                assertEquals(4, read.length());
                // 17 decimals keep every bit of these doubles and floats, -0.0 and the sign of NaN included.
                assertEquals(Double.doubleToRawLongBits(expected.floatValue(0)),
                    Double.doubleToRawLongBits(read.floatValue(0)), () -> "float " + expected.floatValue(0));
                assertEquals(expected.integerValue(1), read.integerValue(1));
                assertEquals(expected.booleanValue(2), read.booleanValue(2));
                assertEquals(expected.bits(3), read.bits(3), () -> "complex " + SignalValues.real(expected.bits(3)) +
                    " " + SignalValues.imag(expected.bits(3)));
            }
            assertFalse(reader.read(read));
        }
    }

    @Test
    void smallValuesKeepSeventeenDecimalsOnly() throws IOException
    {
        final double[] small = { 1e-20, 5e-18, 0.001234567890123456789, -Double.MIN_VALUE };
        final Sample[] samples = new Sample[small.length];
        for (int i = 0; i < small.length; i++)
        {
            samples[i] = sample(1).flags(Sample.HAS_TS_ORIGIN).length(1).floatValue(0, small[i]);
        }
        final Path file = dir.resolve("small.log");
        Files.writeString(file, write(SignalList.ofCount(1), 4096, samples));
        final double[] expected = { 0.0, 1e-17, 0.00123456789012346, -0.0 };
        final Sample read = sample(1);
        try (VillasHumanReader reader = VillasHumanReader.open(file, SignalList.ofCount(1)))
        {
            for (final double value : expected)
            {
                assertTrue(reader.read(read));
                assertEquals(Double.doubleToRawLongBits(value), Double.doubleToRawLongBits(read.floatValue(0)));
            }
        }
    }

    @Test
    void aSmallBufferGoesOutWheneverFullAndAHeaderLongerThanItToo() throws IOException
    {
        final List<Signal> many = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            many.add(Signal.of("a-rather-long-signal-name-" + i, SignalType.INTEGER));
        }
        final SignalList signals = new SignalList(many);
        final Sample[] samples = new Sample[50];
        final StringBuilder expected = new StringBuilder("# seconds.nanoseconds(sequence)");
        many.forEach(signal -> expected.append('\t').append(signal.name()));
        expected.append('\n');
        for (int s = 0; s < samples.length; s++)
        {
            samples[s] = sample(100).flags(Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE).sequence(s).origin(s, s)
                .length(100);
            expected.append(s).append('.').append(String.format("%09d", s)).append('(').append(s).append(')');
            for (int v = 0; v < 100; v++)
            {
                samples[s].integerValue(v, (long)s * v - 1000);
                expected.append('\t').append((long)s * v - 1000);
            }
            expected.append('\n');
        }
        assertTrue(expected.length() > 10 * VillasHumanWriter.MIN_BUFFER_SIZE);
        assertEquals(expected.toString(), write(signals, VillasHumanWriter.MIN_BUFFER_SIZE, samples));
    }

    @Test
    void writingSamplesAllocatesNothing() throws IOException
    {
        final Sample sample = sample(4).flags(Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE | Sample.HAS_DATA);
        final long[] bytes = new long[1];
        final VillasHumanWriter writer = new VillasHumanWriter(new WritableByteChannel()
        {
            public int write(final ByteBuffer source)
            {
                final int length = source.remaining();
                source.position(source.limit());
                bytes[0] += length;
                return length;
            }

            public boolean isOpen()
            {
                return true;
            }

            public void close()
            {
            }
        }, SIGNALS, VillasHumanWriter.MIN_BUFFER_SIZE);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final int count = 200_000;
        for (int round = 0; round < 2; round++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < count; i++)
            {
                sample.sequence(i).origin(1_700_000_000L + i, i).floatValue(0, Math.sin(i) * 1e6)
                    .integerValue(1, -i).booleanValue(2, (i & 1) == 0).complexValue(3, i * 0.5f, -i);
                writer.write(sample);
            }
            writer.flush();
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            // Round 0 warms up (the header, JIT); then under a byte per sample: no write allocates (the smallest
            // object is 16 bytes), allowing for the JIT's own deoptimisation leftovers.
            assertTrue(round == 0 || allocated < count, allocated + " bytes allocated by " + count + " writes");
        }
        assertEquals(2L * count, writer.samplesWritten());
        assertTrue(bytes[0] > 2L * count * 80, bytes[0] + " bytes written");
    }

    private String write(final SignalList signals, final int bufferSize, final Sample... samples) throws IOException
    {
        final Path file = Files.createTempFile(dir, "written", ".log");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            final VillasHumanWriter writer = new VillasHumanWriter(channel, signals, bufferSize);
            for (final Sample sample : samples)
            {
                writer.write(sample);
            }
            writer.flush();
            assertEquals(samples.length, writer.samplesWritten());
        }
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    static Sample sample(final int capacity)
    {
        return new Sample().wrap(new UnsafeBuffer(new byte[Sample.slotLength(capacity)]), 0, capacity)
            .length(capacity);
    }
}
