package io.ibex.samples.cm;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class RpingInfoTest
{
    @Test
    void everyFieldIsBigEndianAsRpingsHtobe()
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(4 + RpingInfo.LENGTH);

        new RpingInfo().wrap(buffer, 4).set(0x0102030405060708L, 0x090a0b0c, 0x0d0e0f10);

        final byte[] wire = new byte[RpingInfo.LENGTH];
        buffer.get(4, wire);
        assertArrayEquals(new byte[] { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 }, wire);
    }

    @Test
    void readingGivesBackTheFieldsWithTheSizeUnsigned()
    {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(RpingInfo.LENGTH);
        buffer.put(0, new byte[] { 0, 0, 0x55, (byte)0xf0, 0, 0, 0x10, 0x20, 0, 0, 0x0c, 0x4d, (byte)0xff, 0, 0, 1 });

        final RpingInfo info = new RpingInfo().wrap(buffer, 0);

        assertEquals(0x55f000001020L, info.buf());
        assertEquals(0xc4d, info.rkey());
        assertEquals(0xff000001L, info.size());
    }
}
