package io.ibex.transport.channel;

import io.ibex.transport.sample.Sample;

/**
 * What a receiver checks before it hands a sample up. The C node-type's wire image has no header, so the byte
 * count of the receive completion is all a receiver knows: it must be {@value Sample#WIRE_HEADER_LENGTH} + 8·k
 * bytes with k no more than the slot's capacity (after the GRH, for UD). Anything else is dropped and counted.
 */
final class SampleWire
{
    private SampleWire()
    {
    }

    /**
     * @param byteLen  bytes the receive completion reports (without GRH).
     * @param capacity values the receiving slot can carry.
     * @return k, the values carried, or -1 if {@code byteLen} is not a valid wire image for the slot.
     */
    static int valueCount(final int byteLen, final int capacity)
    {
        final int valueBytes = byteLen - Sample.WIRE_HEADER_LENGTH;
        if (valueBytes < 0 || (valueBytes & 7) != 0 || valueBytes >> 3 > capacity)
        {
            return -1;
        }
        return valueBytes >> 3;
    }

    /**
     * Takes a completed receive into its sample: checks the byte count, then sets the length, ts.received and
     * the flags a received sample has (ts.origin, ts.received, sequence, data).
     *
     * @param sample          the sample the receive landed in.
     * @param byteLen         bytes the completion reports.
     * @param withGrh         whether they start with the 40-byte GRH (UD).
     * @param receivedSeconds ts.received, seconds.
     * @param receivedNanos   ts.received, nanoseconds.
     * @return false, leaving the sample untouched, if the byte count is invalid: the caller drops and counts it.
     */
    static boolean accept(
        final Sample sample, final int byteLen, final boolean withGrh, final long receivedSeconds,
        final long receivedNanos)
    {
        final int values = valueCount(withGrh ? byteLen - Sample.GRH_LENGTH : byteLen, sample.capacity());
        if (values < 0)
        {
            return false;
        }
        sample.length(values)
            .received(receivedSeconds, receivedNanos)
            .flags(Sample.HAS_TS_ORIGIN | Sample.HAS_TS_RECEIVED | Sample.HAS_SEQUENCE | Sample.HAS_DATA);
        return true;
    }

    /**
     * @return why a byte count is invalid, for a log line: e.g. "31 bytes is not 24 + 8 per value".
     */
    static String whyInvalid(final int byteLen, final boolean withGrh, final int capacity)
    {
        // in long: a byte count near Integer.MIN_VALUE (a u32 above 2^31) less the GRH must not wrap to a large one
        final long wire = withGrh ? (long)byteLen - Sample.GRH_LENGTH : byteLen;
        final String what = byteLen + " bytes" + (withGrh ? " (" + wire + " after the GRH)" : "");
        if (wire < Sample.WIRE_HEADER_LENGTH || ((wire - Sample.WIRE_HEADER_LENGTH) & 7) != 0)
        {
            return what + " is not " + Sample.WIRE_HEADER_LENGTH + " + 8 per value";
        }
        return what + " carry " + ((wire - Sample.WIRE_HEADER_LENGTH) >> 3) + " values, more than the capacity " +
            capacity;
    }
}
