package io.ibex.rdma.provider.soft.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A ring two processes share trusts nothing the other wrote: a record header no writer can have written (another
 * process corrupted the file) fails the read with what is wrong, and nothing is copied. A reader that hands its room
 * back late (when a read finds nothing) still hands it back while records keep coming.
 */
class SoftByteRingTest
{
    @Test
    void aReaderThatNeverFindsTheRingEmptyStillGivesTheWriterItsRoomBack() throws IOException
    {
        final SoftByteRing ring = new SoftByteRing();
        final ByteBuffer out = ByteBuffer.allocateDirect(1000);
        final ByteBuffer in = ByteBuffer.allocateDirect(1000); // a record a read: the ring is never seen empty
        for (int i = 0; i < 4; i++)
        {
            out.clear().putInt(0, i);
            assertEquals(1000, ring.write(out), "record " + i);
        }
        for (int i = 4; i < 4 * SoftByteRing.CAPACITY / 1000; i++)
        {
            out.clear().putInt(0, i);
            assertEquals(1000, ring.write(out), "record " + i + ": the room of the records read came back");
            in.clear();
            assertEquals(1000, ring.read(in));
            assertEquals(i - 4, in.getInt(0), "records in order, none stale");
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, SoftByteRing.CAPACITY - 7, Long.MAX_VALUE})
    void aRecordHeaderNoWriterCanHaveWrittenFailsTheReadNamingIt(final long length)
    {
        final ByteBuffer memory = ByteBuffer.allocateDirect(SoftByteRing.LENGTH).order(ByteOrder.nativeOrder());
        final SoftByteRing ring = new SoftByteRing(memory, 0);
        memory.putLong(0, length);
        final ByteBuffer dst = ByteBuffer.allocateDirect(64);
        final IOException failure = assertThrows(IOException.class, () -> ring.read(dst));
        assertTrue(failure.getMessage().contains("says it is " + length + " bytes long"), failure.getMessage());
        assertEquals(0, dst.position(), "nothing read");
    }
}
