package io.ibex.rdma.provider.soft.wire;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A wire in memory behaves as a non-blocking socket does: a byte stream in order, partial writes when the peer's
 * side is full, end of stream after what was sent once either end closes.
 */
@Timeout(30)
abstract class SoftWireContract
{
    /** The wire's two ends, opened before each test. */
    SoftWire[] ends;

    /**
     * @return the two connected ends of a new wire, whose rings hold {@link SoftByteRing#CAPACITY} bytes.
     */
    abstract SoftWire[] open() throws IOException;

    @BeforeEach
    void openWire() throws IOException
    {
        ends = open();
    }

    @AfterEach
    void closeWire()
    {
        ends[0].close();
        ends[1].close();
    }

    @Test
    void aStreamManyTimesTheRingsSizePassesIntactAndInOrder() throws IOException
    {
        final int total = 12 * SoftByteRing.CAPACITY + 12_345;
        final ByteBuffer out = ByteBuffer.allocateDirect(100_003).limit(0);
        final ByteBuffer in = ByteBuffer.allocateDirect(70_001);
        int filled = 0;
        int read = 0;
        while (read < total)
        {
            if (!out.hasRemaining() && filled < total)
            {
                out.clear();
                while (out.hasRemaining() && filled < total)
                {
                    out.put(pattern(filled++));
                }
                out.flip();
            }
            ends[0].write(out);
            in.clear();
            final int n = ends[1].read(in);
            for (int i = 0; i < n; i++)
            {
                assertEquals(pattern(read + i), in.get(i), "byte " + (read + i));
            }
            read += n;
        }
        assertEquals(total, read);
        in.clear();
        assertEquals(0, ends[1].read(in), "nothing more");
    }

    @Test
    void aFullRingTakesNothingMoreUntilThePeerHasReadWhatFilledIt() throws IOException
    {
        final ByteBuffer out = ByteBuffer.allocateDirect(SoftByteRing.CAPACITY + 100);
        final int first = ends[0].write(out);
        assertTrue(first > SoftByteRing.CAPACITY - 64 && first < SoftByteRing.CAPACITY, "what fits: " + first);
        assertEquals(0, ends[0].write(out), "a full ring takes nothing");
        final ByteBuffer in = ByteBuffer.allocateDirect(60);
        assertEquals(60, ends[1].read(in));
        assertEquals(0, ends[0].write(out), "no room while what filled it is read in part");
        final ByteBuffer rest = ByteBuffer.allocateDirect(SoftByteRing.CAPACITY);
        assertEquals(first - 60, ends[1].read(rest), "the rest of it");
        assertEquals(out.remaining(), ends[0].write(out), "room again");
        assertEquals(0, out.remaining());
    }

    @Test
    void afterOneEndClosesThePeerReadsWhatWasSentThenEndOfStreamAndCannotWrite() throws IOException
    {
        final ByteBuffer out = ByteBuffer.allocateDirect(10);
        assertEquals(10, ends[0].write(out));
        ends[0].close();

        final ByteBuffer in = ByteBuffer.allocateDirect(64);
        assertEquals(10, ends[1].read(in), "what was sent before the close");
        assertEquals(-1, ends[1].read(in), "then end of stream");
        final IOException failure = assertThrows(IOException.class, () -> ends[1].write(ByteBuffer.allocateDirect(4)));
        assertTrue(failure.getMessage().contains(ends[1].peer()), failure.getMessage());
    }

    private static byte pattern(final int index)
    {
        return (byte)(index * 31 + (index >>> 16));
    }
}
