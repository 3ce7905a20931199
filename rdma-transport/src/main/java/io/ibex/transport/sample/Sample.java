package io.ibex.transport.sample;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * A flyweight over one sample slot in registered memory. A slot holds, in this order:
 * <pre>
 *   0  flags (i32), length (i32), ts.received seconds (i64), nanoseconds (i64), 8 reserved bytes
 *  32  room for the 40-byte GRH a UD receive writes first
 *  72  the wire image, as VILLASnode's infiniband node-type sends it (little-endian, no header):
 *        sequence (u64), ts.origin seconds (i64), nanoseconds (i64), then one 8-byte slot per value
 * </pre>
 * so a work request points straight at the wire image (or, for a UD receive, at the GRH room before it) and
 * nothing is copied. Value slots hold {@link SignalValues slot bits}; the typed accessors convert.
 * <p>
 * Not thread safe; allocates nothing. Indexes are checked against the capacity, so a flyweight never reads or
 * writes outside its slot.
 */
public final class Sample
{
    /** The most values a sample may carry (the wire image then fits one 8 KiB receive with its GRH). */
    public static final int MAX_CAPACITY = 1000;
    /** Bytes of sequence and ts.origin before the values on the wire. */
    public static final int WIRE_HEADER_LENGTH = 24;
    /** Bytes of each value on the wire and in a slot. */
    public static final int VALUE_LENGTH = 8;
    /** Bytes of the GRH in front of every UD receive. */
    public static final int GRH_LENGTH = 40;
    /** Offset of the GRH room in a slot. */
    public static final int GRH_OFFSET = 32;
    /** Offset of the wire image in a slot. */
    public static final int WIRE_OFFSET = GRH_OFFSET + GRH_LENGTH;

    /** ts.origin is set. */
    public static final int HAS_TS_ORIGIN = 1;
    /** ts.received is set. */
    public static final int HAS_TS_RECEIVED = 1 << 1;
    /** The offset of ts.origin from ts.received is known. */
    public static final int HAS_OFFSET = 1 << 2;
    /** The sequence is set. */
    public static final int HAS_SEQUENCE = 1 << 3;
    /** The values are set. */
    public static final int HAS_DATA = 1 << 4;
    /** First sample of a new frame. */
    public static final int NEW_FRAME = 1 << 16;
    /** First sample of a new simulation. */
    public static final int NEW_SIMULATION = 1 << 17;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int FLAGS_OFFSET = 0;
    private static final int LENGTH_OFFSET = 4;
    private static final int RECEIVED_SECONDS_OFFSET = 8;
    private static final int RECEIVED_NANOS_OFFSET = 16;
    private static final int SEQUENCE_OFFSET = WIRE_OFFSET;
    private static final int ORIGIN_SECONDS_OFFSET = WIRE_OFFSET + 8;
    private static final int ORIGIN_NANOS_OFFSET = WIRE_OFFSET + 16;
    private static final int VALUES_OFFSET = WIRE_OFFSET + WIRE_HEADER_LENGTH;
    private static final int SLOT_ALIGNMENT = 64;

    private MutableDirectBuffer buffer;
    private int offset;
    private int capacity;

    /**
     * @param capacity values a sample can carry.
     * @return bytes of a slot for that capacity, a multiple of 64 so slots start on cache lines.
     */
    public static int slotLength(final int capacity)
    {
        checkCapacity(capacity);
        return (VALUES_OFFSET + VALUE_LENGTH * capacity + SLOT_ALIGNMENT - 1) & -SLOT_ALIGNMENT;
    }

    /**
     * @param length values carried.
     * @return bytes of the wire image: {@value #WIRE_HEADER_LENGTH} + 8 per value.
     */
    public static int wireLength(final int length)
    {
        return WIRE_HEADER_LENGTH + VALUE_LENGTH * length;
    }

    /**
     * Points this flyweight at a slot.
     *
     * @param buffer   the memory holding the slot.
     * @param offset   where the slot starts.
     * @param capacity values the slot can carry.
     * @return this.
     * @throws IllegalArgumentException if the slot does not fit the buffer.
     */
    public Sample wrap(final MutableDirectBuffer buffer, final int offset, final int capacity)
    {
        final int slotLength = slotLength(capacity);
        if (offset < 0 || offset > buffer.capacity() - slotLength)
        {
            throw new IllegalArgumentException("a slot of " + slotLength + " bytes at offset " + offset +
                " does not fit a buffer of " + buffer.capacity() + " bytes");
        }
        this.buffer = buffer;
        this.offset = offset;
        this.capacity = capacity;
        return this;
    }

    /** @return the memory of the slot. */
    public MutableDirectBuffer buffer()
    {
        return buffer;
    }

    /** @return where the slot starts in {@link #buffer()}. */
    public int offset()
    {
        return offset;
    }

    /** @return values the slot can carry. */
    public int capacity()
    {
        return capacity;
    }

    /** @return the {@code HAS_...} and {@code NEW_...} flags. */
    public int flags()
    {
        return buffer.getInt(offset + FLAGS_OFFSET, ORDER);
    }

    /**
     * @param flags the flags: {@code HAS_*} and the frame bits.
     * @return this.
     */
    public Sample flags(final int flags)
    {
        buffer.putInt(offset + FLAGS_OFFSET, flags, ORDER);
        return this;
    }

    /** @return values carried, at most {@link #capacity()}. */
    public int length()
    {
        return buffer.getInt(offset + LENGTH_OFFSET, ORDER);
    }

    /**
     * @param length values carried.
     * @return this.
     * @throws IndexOutOfBoundsException if it exceeds the capacity.
     */
    public Sample length(final int length)
    {
        if (length < 0 || length > capacity)
        {
            throw new IndexOutOfBoundsException("length " + length + " outside 0.." + capacity);
        }
        buffer.putInt(offset + LENGTH_OFFSET, length, ORDER);
        return this;
    }

    /** @return the sequence number. */
    public long sequence()
    {
        return buffer.getLong(offset + SEQUENCE_OFFSET, ORDER);
    }

    /**
     * @param sequence the sequence number.
     * @return this.
     */
    public Sample sequence(final long sequence)
    {
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence, ORDER);
        return this;
    }

    /** @return the seconds of ts.origin. */
    public long originSeconds()
    {
        return buffer.getLong(offset + ORIGIN_SECONDS_OFFSET, ORDER);
    }

    /** @return the nanoseconds of ts.origin. */
    public long originNanos()
    {
        return buffer.getLong(offset + ORIGIN_NANOS_OFFSET, ORDER);
    }

    /**
     * Sets ts.origin, when the sample was taken, from nanoseconds since the epoch (as {@link SampleClock} and
     * {@code SampleChannel.clock()} give them).
     *
     * @param epochNanos nanoseconds since 1970-01-01T00:00Z.
     * @return this.
     */
    public Sample origin(final long epochNanos)
    {
        return origin(Math.floorDiv(epochNanos, NANOS_PER_SECOND), Math.floorMod(epochNanos, NANOS_PER_SECOND));
    }

    /** @return ts.origin in nanoseconds since the epoch. */
    public long originEpochNanos()
    {
        return originSeconds() * NANOS_PER_SECOND + originNanos();
    }

    /**
     * Sets ts.origin as the wire carries it: seconds and nanoseconds, as a C {@code struct timespec}.
     *
     * @param seconds seconds since the epoch.
     * @param nanos   nanoseconds within the second, 0 to 999,999,999.
     * @return this.
     */
    public Sample origin(final long seconds, final long nanos)
    {
        buffer.putLong(offset + ORIGIN_SECONDS_OFFSET, seconds, ORDER);
        buffer.putLong(offset + ORIGIN_NANOS_OFFSET, nanos, ORDER);
        return this;
    }

    /** @return the seconds of ts.received. */
    public long receivedSeconds()
    {
        return buffer.getLong(offset + RECEIVED_SECONDS_OFFSET, ORDER);
    }

    /** @return the nanoseconds of ts.received. */
    public long receivedNanos()
    {
        return buffer.getLong(offset + RECEIVED_NANOS_OFFSET, ORDER);
    }

    /**
     * Sets ts.received; the channel sets it on every sample it hands to a reader.
     *
     * @param seconds seconds since the epoch.
     * @param nanos   nanoseconds within the second.
     * @return this.
     */
    public Sample received(final long seconds, final long nanos)
    {
        buffer.putLong(offset + RECEIVED_SECONDS_OFFSET, seconds, ORDER);
        buffer.putLong(offset + RECEIVED_NANOS_OFFSET, nanos, ORDER);
        return this;
    }

    /**
     * @param index the value, 0 to {@code capacity() - 1}.
     * @return its 8 bytes as the wire carries them.
     */
    public long bits(final int index)
    {
        return buffer.getLong(valueOffset(index), ORDER);
    }

    /**
     * @param index the value, 0 to {@code capacity() - 1}.
     * @param bits  its 8 bytes as the wire carries them.
     * @return this.
     */
    public Sample bits(final int index, final long bits)
    {
        buffer.putLong(valueOffset(index), bits, ORDER);
        return this;
    }

    /**
     * Reads a VILLAS {@code float} signal, which is a 64-bit IEEE 754 double (C {@code double}), not a Java float.
     *
     * @param index the value, 0 to {@code capacity() - 1}.
     * @return the value.
     */
    public double floatValue(final int index)
    {
        return SignalValues.toFloat(bits(index));
    }

    /**
     * Writes a VILLAS {@code float} signal, which is a 64-bit IEEE 754 double (C {@code double}), not a Java float.
     *
     * @param index the value, 0 to {@code capacity() - 1}.
     * @param value the value.
     * @return this.
     */
    public Sample floatValue(final int index, final double value)
    {
        return bits(index, SignalValues.ofFloat(value));
    }

    /**
     * Reads a VILLAS {@code integer} signal, a signed 64-bit integer.
     *
     * @param index the value, 0 to {@code capacity() - 1}.
     * @return the value.
     */
    public long integerValue(final int index)
    {
        return bits(index);
    }

    /**
     * Writes a VILLAS {@code integer} signal, a signed 64-bit integer.
     *
     * @param index the value, 0 to {@code capacity() - 1}.
     * @param value the value.
     * @return this.
     */
    public Sample integerValue(final int index, final long value)
    {
        return bits(index, value);
    }

    /**
     * Reads a VILLAS {@code boolean} signal (8 bytes on the wire; any bit set is true).
     *
     * @param index the value, 0 to {@code capacity() - 1}.
     * @return the value.
     */
    public boolean booleanValue(final int index)
    {
        return SignalValues.toBoolean(bits(index));
    }

    /**
     * Writes a VILLAS {@code boolean} signal (8 bytes on the wire).
     *
     * @param index the value, 0 to {@code capacity() - 1}.
     * @param value the value.
     * @return this.
     */
    public Sample booleanValue(final int index, final boolean value)
    {
        return bits(index, SignalValues.ofBoolean(value));
    }

    /**
     * Writes a VILLAS {@code complex} signal: two 32-bit floats, real then imaginary.
     *
     * @param index the value, 0 to {@code capacity() - 1}.
     * @param real  the real part.
     * @param imag  the imaginary part.
     * @return this.
     */
    public Sample complexValue(final int index, final float real, final float imag)
    {
        return bits(index, SignalValues.ofComplex(real, imag));
    }

    /**
     * Sets every value of the signal list to its initial value, and the length to the list's size.
     *
     * @param signals the channel's signals.
     * @return this.
     * @throws IndexOutOfBoundsException if there are more signals than the capacity.
     */
    public Sample initialise(final SignalList signals)
    {
        length(signals.size());
        final DirectBuffer initialValues = signals.initialValues();
        buffer.putBytes(valueOffset(0), initialValues, 0, initialValues.capacity());
        return this;
    }

    /**
     * Copies another sample into this one: flags, length, ts.received, and the wire image (sequence, ts.origin and
     * the values it carries), in two copies.
     *
     * @param source the sample to copy, in any memory.
     * @return this.
     * @throws IndexOutOfBoundsException if the source carries more values than this slot holds.
     */
    public Sample copyFrom(final Sample source)
    {
        final int length = source.length();
        length(length);
        buffer.putBytes(offset, source.buffer, source.offset, RECEIVED_NANOS_OFFSET + Long.BYTES);
        buffer.putBytes(wireOffset(), source.buffer, source.wireOffset(), wireLength(length));
        return this;
    }

    /** @return the offset of the wire image in {@link #buffer()}. */
    public int wireOffset()
    {
        return offset + WIRE_OFFSET;
    }

    /** @return the offset of the GRH room in {@link #buffer()}. */
    public int grhOffset()
    {
        return offset + GRH_OFFSET;
    }

    @Override
    public String toString()
    {
        return buffer == null ? "Sample{unwrapped}" : "Sample{sequence=" + sequence() + ", origin=" + originSeconds() +
            "." + String.format("%09d", originNanos()) + ", length=" + length() + ", capacity=" + capacity +
            ", flags=0x" + Integer.toHexString(flags()) + '}';
    }

    private int valueOffset(final int index)
    {
        if (index < 0 || index >= capacity)
        {
            throw new IndexOutOfBoundsException("value " + index + " outside 0.." + (capacity - 1));
        }
        return offset + VALUES_OFFSET + VALUE_LENGTH * index;
    }

    private static void checkCapacity(final int capacity)
    {
        if (capacity < 1 || capacity > MAX_CAPACITY)
        {
            throw new IllegalArgumentException("sample capacity " + capacity + " outside 1.." + MAX_CAPACITY);
        }
    }
}
