package io.ibex.transport.channel;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalType;
import io.ibex.transport.sample.SignalValues;
import io.ibex.transport.stats.ChannelStats;
import io.ibex.transport.stats.Counter;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes what a channel does with a receive a peer filled: the byte count check ({@link SampleWire}), the
 * received sample's stats ({@link ChannelStats#onReceived}) and reading its values as its signals' types. The
 * check must agree with the wire rule (24 + 8·k bytes, k no more than the capacity, after the GRH for UD) for any
 * byte count a completion could report, say why it refuses one, leave a refused sample as it was, and nothing may
 * read or write outside the sample's slot, whose neighbours are guard bytes that must stay as they were.
 *
 * <p>An input is: capacity (u16, taken modulo {@value Sample#MAX_CAPACITY}, plus 1), whether the receive has a GRH
 * (lowest bit of a byte), the completion's byte count (i32), the signal types (two bits per value, from a u64,
 * repeating), then the bytes the peer sent, which land where the receive points, truncated to its length as a
 * device would. Integers are little-endian. {@code mvn verify} replays the corpus in
 * {@code SampleWireFuzzTestInputs/received/}; {@code .ci/fuzz} fuzzes.
 */
class SampleWireFuzzTest
{
    private static final int HEADER = 2 + 1 + 4 + 8;
    private static final int GUARD = 256;
    private static final byte GUARD_BYTE = (byte)0xa5;
    private static final long NOW_NANOS = 1_700_000_000_123_456_789L;
    private static final SignalType[] TYPES = SignalType.values();

    private final ChannelStats stats = new ChannelStats(ChannelStats.DEFAULT_WARM_UP, () -> NOW_NANOS);
    private final Sample sample = new Sample();

    @FuzzTest
    void received(final byte[] input)
    {
        if (input.length < HEADER)
        {
            return;
        }
        final ByteBuffer header = ByteBuffer.wrap(input, 0, HEADER).order(ByteOrder.LITTLE_ENDIAN);
        final int capacity = (header.getShort() & 0xffff) % Sample.MAX_CAPACITY + 1;
        final boolean withGrh = (header.get() & 1) != 0;
        final int byteLen = header.getInt();
        final long typeBits = header.getLong();

        final int slotLength = Sample.slotLength(capacity);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[GUARD + slotLength + GUARD]);
        memory.setMemory(0, memory.capacity(), GUARD_BYTE);
        sample.wrap(memory, GUARD, capacity);
        sample.flags(0).length(0);
        // the receive points at the wire image, or at the GRH room before it, for the largest sample the slot holds
        final int receiveOffset = withGrh ? sample.grhOffset() : sample.wireOffset();
        final int receiveLength = (withGrh ? Sample.GRH_LENGTH : 0) + Sample.wireLength(capacity);
        memory.putBytes(receiveOffset, input, HEADER, Math.min(receiveLength, input.length - HEADER));

        final long wire = (long)byteLen - (withGrh ? Sample.GRH_LENGTH : 0);
        final boolean valid = wire >= Sample.WIRE_HEADER_LENGTH && (wire - Sample.WIRE_HEADER_LENGTH) % 8 == 0 &&
            (wire - Sample.WIRE_HEADER_LENGTH) / 8 <= capacity;
        final boolean accepted = SampleWire.accept(sample, byteLen, withGrh, NOW_NANOS / 1_000_000_000L,
            NOW_NANOS % 1_000_000_000L);

        assertEquals(valid, accepted, () -> byteLen + " bytes, GRH " + withGrh + ", capacity " + capacity);
        if (accepted)
        {
            assertEquals((int)((wire - Sample.WIRE_HEADER_LENGTH) / 8), sample.length());
            readReceived(typeBits);
        }
        else
        {
            assertEquals(0, sample.flags(), "a refused sample is left as it was");
            assertEquals(0, sample.length(), "a refused sample is left as it was");
            final String why = SampleWire.whyInvalid(byteLen, withGrh, capacity);
            assertTrue(why.startsWith(byteLen + " bytes"), why);
            assertEquals(wire < Sample.WIRE_HEADER_LENGTH || (wire - Sample.WIRE_HEADER_LENGTH) % 8 != 0,
                why.contains("is not 24 + 8 per value"), why);
        }
        for (int i = 0; i < GUARD; i++)
        {
            assertEquals(GUARD_BYTE, memory.getByte(i), "guard before the slot");
            assertEquals(GUARD_BYTE, memory.getByte(GUARD + slotLength + i), "guard after the slot");
        }
    }

    /**
     * What the receive path and an application do with an accepted sample: record its stats, read every value as
     * its signal's type, print it.
     */
    private void readReceived(final long typeBits)
    {
        final long received = stats.get(Counter.RECEIVED);
        stats.onReceived(sample);
        assertEquals(received + 1, stats.get(Counter.RECEIVED));
        for (int i = 0; i < sample.length(); i++)
        {
            final long bits = sample.bits(i);
            switch (TYPES[(int)(typeBits >>> (2 * (i % 32))) & 3])
            {
                case FLOAT -> assertEquals(bits, SignalValues.ofFloat(sample.floatValue(i)));
                case INTEGER -> assertEquals(bits, sample.integerValue(i));
                case BOOLEAN -> assertEquals(bits != 0, sample.booleanValue(i));
                case COMPLEX -> assertEquals(bits,
                    SignalValues.ofComplex(SignalValues.real(bits), SignalValues.imag(bits)));
            }
        }
        assertFalse(sample.toString().isEmpty());
        assertTrue(stats.snapshot().toString().length() > 0);
    }
}
