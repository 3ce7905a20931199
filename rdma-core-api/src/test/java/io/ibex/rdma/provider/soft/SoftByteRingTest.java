package io.ibex.rdma.provider.soft;

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
 * process corrupted the file) fails the read with what is wrong, and nothing is copied.
 */
class SoftByteRingTest
{
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
