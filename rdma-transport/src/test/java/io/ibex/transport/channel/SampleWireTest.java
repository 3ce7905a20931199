package io.ibex.transport.channel;

import io.ibex.transport.sample.Sample;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SampleWireTest
{
    private final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(4 * Sample.slotLength(3)));
    private final Sample sample = new Sample().wrap(memory, Sample.slotLength(3), 3);

    @Test
    void aValidReceiveSetsLengthTimestampAndFlags()
    {
        assertTrue(SampleWire.accept(sample, Sample.wireLength(2), false, 5, 6));

        assertEquals(2, sample.length());
        assertEquals(5, sample.receivedSeconds());
        assertEquals(6, sample.receivedNanos());
        assertEquals(Sample.HAS_TS_ORIGIN | Sample.HAS_TS_RECEIVED | Sample.HAS_SEQUENCE | Sample.HAS_DATA,
            sample.flags());
    }

    @Test
    void byteCountsThatAreNotAWireImageForTheSlotAreRefusedAndLeaveTheSampleAlone()
    {
        sample.length(1).flags(0);
        for (final int byteLen : new int[]{ 0, 23, 25, 31, Sample.wireLength(4), Integer.MIN_VALUE, -8 })
        {
            assertFalse(SampleWire.accept(sample, byteLen, false, 1, 1), byteLen + " bytes");
        }
        assertFalse(SampleWire.accept(sample, Sample.wireLength(1), true, 1, 1), "a UD receive without its GRH");
        assertEquals(1, sample.length());
        assertEquals(0, sample.flags());

        assertTrue(SampleWire.accept(sample, Sample.GRH_LENGTH + Sample.wireLength(3), true, 1, 1));
        assertEquals(3, sample.length());
        assertTrue(SampleWire.accept(sample, Sample.wireLength(0), false, 1, 1), "a sample without values");
    }

    @Test
    void theReasonForARefusalNamesTheByteCount()
    {
        assertEquals("31 bytes is not 24 + 8 per value", SampleWire.whyInvalid(31, false, 3));
        assertEquals("96 bytes (56 after the GRH) carry 4 values, more than the capacity 3",
            SampleWire.whyInvalid(96, true, 3));
    }
}
