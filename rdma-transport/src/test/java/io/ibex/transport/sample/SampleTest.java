package io.ibex.transport.sample;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SampleTest
{
    private final UnsafeBuffer memory = new UnsafeBuffer(ByteBuffer.allocateDirect(4 * Sample.slotLength(3)));
    private final Sample sample = new Sample().wrap(memory, Sample.slotLength(3), 3);

    @Test
    void theWireImageIsTheCNodeTypesLittleEndianSequenceOriginAndValues()
    {
        sample.sequence(0x0102030405060708L).origin(1_700_000_000L, 123_456_789L).length(3)
            .floatValue(0, 1.5).integerValue(1, -2).complexValue(2, 0.25f, -4f);

        final ByteBuffer wire = memory.byteBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
        final int at = sample.wireOffset();
        assertEquals(0x08, wire.get(at), "sequence, least significant byte first");
        assertEquals(0x0102030405060708L, wire.getLong(at));
        assertEquals(1_700_000_000L, wire.getLong(at + 8));
        assertEquals(123_456_789L, wire.getLong(at + 16));
        assertEquals(1.5, wire.getDouble(at + 24));
        assertEquals(-2L, wire.getLong(at + 32));
        assertEquals(0.25f, wire.getFloat(at + 40), "complex: real part first");
        assertEquals(-4f, wire.getFloat(at + 44));
        assertEquals(48, Sample.wireLength(3));
    }

    @Test
    void typedValuesReadBackAsWritten()
    {
        sample.floatValue(0, -0.0).booleanValue(1, true).complexValue(2, 3f, 4f);

        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(sample.floatValue(0)));
        assertTrue(sample.booleanValue(1));
        assertEquals(1L, sample.integerValue(1));
        assertEquals(3f, SignalValues.real(sample.bits(2)));
        assertEquals(4f, SignalValues.imag(sample.bits(2)));
    }

    @Test
    void slotsAreCacheLineMultiplesAndNeitherReadNorWriteBeyondTheirCapacity()
    {
        assertEquals(128, Sample.slotLength(3), "72 + 24 + 3 x 8 = 120, rounded up to 64");
        assertEquals(0, Sample.slotLength(Sample.MAX_CAPACITY) % 64);
        assertThrows(IndexOutOfBoundsException.class, () -> sample.floatValue(3, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> sample.bits(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> sample.length(4));
        assertThrows(IllegalArgumentException.class, () -> new Sample().wrap(memory, 3 * 128 + 1, 3));
        assertThrows(IllegalArgumentException.class, () -> Sample.slotLength(Sample.MAX_CAPACITY + 1));
        assertThrows(IllegalArgumentException.class, () -> Sample.slotLength(0));
    }

    @Test
    void initialiseSetsEverySignalsInitialValueAndTheLength()
    {
        final SignalList signals = new SignalList(List.of(
            new Signal("f", "V", SignalType.FLOAT, SignalValues.ofFloat(230.0)),
            new Signal("on", "", SignalType.BOOLEAN, SignalValues.ofBoolean(true))));

        sample.initialise(signals);

        assertEquals(2, sample.length());
        assertEquals(230.0, sample.floatValue(0));
        assertTrue(sample.booleanValue(1));
        assertThrows(IndexOutOfBoundsException.class, () -> sample.initialise(SignalList.ofCount(4)));
    }

    @Test
    void copyFromTakesFlagsTimestampsSequenceAndTheCarriedValuesOnly()
    {
        final Sample wide = new Sample().wrap(new UnsafeBuffer(new byte[Sample.slotLength(8)]), 0, 8);
        wide.initialise(SignalList.ofCount(8)).floatValue(7, 9.0);
        wide.length(2).sequence(42).origin(7, 8).received(9, 10).flags(Sample.HAS_SEQUENCE | Sample.NEW_FRAME)
            .floatValue(0, 1.5).integerValue(1, -3);

        sample.floatValue(2, 2.5);
        sample.copyFrom(wide);

        assertEquals(2, sample.length());
        assertEquals(42, sample.sequence());
        assertEquals(7, sample.originSeconds());
        assertEquals(8, sample.originNanos());
        assertEquals(9, sample.receivedSeconds());
        assertEquals(10, sample.receivedNanos());
        assertEquals(Sample.HAS_SEQUENCE | Sample.NEW_FRAME, sample.flags());
        assertEquals(1.5, sample.floatValue(0));
        assertEquals(-3, sample.integerValue(1));
        assertEquals(2.5, sample.floatValue(2), "a value beyond the source's length is left alone");
        wide.length(4);
        assertThrows(IndexOutOfBoundsException.class, () -> sample.copyFrom(wide));
    }

    @Test
    void originFromEpochNanosIsSecondsAndNanosOnTheWire()
    {
        sample.origin(1_700_000_000_123_456_789L);

        assertEquals(1_700_000_000L, sample.originSeconds());
        assertEquals(123_456_789L, sample.originNanos());
        assertEquals(1_700_000_000_123_456_789L, sample.originEpochNanos());
        sample.origin(-1L);
        assertEquals(-1L, sample.originSeconds(), "before the epoch, the nanoseconds stay within the second");
        assertEquals(999_999_999L, sample.originNanos());
    }
}
