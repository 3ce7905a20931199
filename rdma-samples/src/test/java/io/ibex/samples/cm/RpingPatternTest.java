package io.ibex.samples.cm;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RpingPatternTest
{
    @Test
    void pingDataIsTheTextThenTheLettersFromTheNthThenNul()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(40);

        RpingPattern.fill(buffer, 1, 40);

        // what C rping -S 40 printed for ping 1 in the guest: "rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ["
        assertEquals("rdma-ping-1: BCDEFGHIJKLMNOPQRSTUVWXYZ[", RpingPattern.text(buffer, 39));
        assertEquals(0, buffer.get(39));
        assertEquals(39, RpingPattern.terminator(buffer, 40));
        assertEquals(-1, RpingPattern.firstDifference(buffer, 1, 40));
    }

    @Test
    void theLettersCycleFromZBackToA()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(100);

        RpingPattern.fill(buffer, 57, 100);

        final String text = RpingPattern.text(buffer, 99);
        assertEquals("rdma-ping-57: zABC", text.substring(0, 18));
    }

    @Test
    void theSmallestSizeHoldsTheLargestPingNumber()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(RpingPattern.MIN_SIZE);

        RpingPattern.fill(buffer, Integer.MAX_VALUE, RpingPattern.MIN_SIZE);

        assertEquals("rdma-ping-2147483647: ", RpingPattern.text(buffer, RpingPattern.MIN_SIZE - 1));
    }

    @Test
    void theFirstDifferenceIsFound()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(64);
        RpingPattern.fill(buffer, 3, 64);
        buffer.put(20, (byte)'!');

        assertEquals(20, RpingPattern.firstDifference(buffer, 3, 64));
        assertEquals(13, RpingPattern.firstDifference(
            ByteBuffer.wrap("rdma-ping-3: hello\0".getBytes(StandardCharsets.US_ASCII)), 3, 19));
        assertEquals(-1, RpingPattern.terminator(ByteBuffer.wrap(new byte[] { 'a', 'b' }), 2));
    }
}
