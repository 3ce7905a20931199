package io.ibex.samples.cm;

import io.ibex.rdma.verbs.Gid;

import java.nio.ByteBuffer;

/**
 * The 40-byte global routing header in front of every UD receive, in the two forms a receive can hold, told
 * apart as {@code ibv_init_ah_from_wc} does (by the IP version in the first nibble):
 * <pre>
 *   IB, RoCE v1, soft: an IPv6 header            RoCE v2 over IPv4 (rxe): the IPv4 header at the end
 *    0  version 6 | traffic class | flow label      0..19  zero
 *    4  payload length | next header | hop limit   20      version 4 | IHL 5 (0x45) ... 12 bytes
 *    8  source GID (16 bytes)                      32      source IPv4 address
 *   24  destination GID (16 bytes)                 36      destination IPv4 address
 * </pre>
 * An IPv4 address stands for its IPv4-mapped GID ({@code ::ffff:a.b.c.d}), as RoCE v2 GIDs are formed.
 */
final class GrhDescriptor
{
    /** Bytes of the GRH. */
    static final int LENGTH = 40;
    /** Offset of the IPv6 form's source GID. */
    static final int SGID_OFFSET = 8;
    /** Offset of the IPv6 form's destination GID. */
    static final int DGID_OFFSET = 24;
    /** Offset of the IPv4 header in the RoCE v2 IPv4 form. */
    static final int IPV4_HEADER_OFFSET = 20;
    /** Offset of the IPv4 form's source address. */
    static final int IPV4_SOURCE_OFFSET = IPV4_HEADER_OFFSET + 12;
    /** Offset of the IPv4 form's destination address. */
    static final int IPV4_DESTINATION_OFFSET = IPV4_HEADER_OFFSET + 16;

    private static final int IPV4_MAPPED_PREFIX = 10;
    private static final int VERSION_SHIFT = 4;

    private GrhDescriptor()
    {
    }

    /**
     * @param buffer the receive buffer.
     * @param offset where the GRH starts.
     * @return the sender's GID.
     * @throws IllegalStateException if the GRH is in neither form.
     */
    static Gid sourceGid(final ByteBuffer buffer, final int offset)
    {
        return isIpv4(buffer, offset) ?
            ipv4MappedGid(buffer, offset + IPV4_SOURCE_OFFSET) : gid(buffer, offset + SGID_OFFSET);
    }

    /**
     * @param buffer the receive buffer.
     * @param offset where the GRH starts.
     * @return the GID the sender addressed (one of the receiving port's).
     * @throws IllegalStateException if the GRH is in neither form.
     */
    static Gid destinationGid(final ByteBuffer buffer, final int offset)
    {
        return isIpv4(buffer, offset) ?
            ipv4MappedGid(buffer, offset + IPV4_DESTINATION_OFFSET) : gid(buffer, offset + DGID_OFFSET);
    }

    private static boolean isIpv4(final ByteBuffer buffer, final int offset)
    {
        final int ipv6Version = (buffer.get(offset) & 0xff) >>> VERSION_SHIFT;
        final int ipv4Version = (buffer.get(offset + IPV4_HEADER_OFFSET) & 0xff) >>> VERSION_SHIFT;
        if (ipv6Version == 6)
        {
            return false;
        }
        if (ipv4Version == 4)
        {
            return true;
        }
        throw new IllegalStateException(String.format("the GRH holds neither an IPv6 header (byte 0 is 0x%02x) nor " +
            "a RoCE v2 IPv4 header (byte %d is 0x%02x)", buffer.get(offset) & 0xff, IPV4_HEADER_OFFSET,
            buffer.get(offset + IPV4_HEADER_OFFSET) & 0xff));
    }

    private static Gid gid(final ByteBuffer buffer, final int offset)
    {
        final byte[] raw = new byte[Gid.LENGTH];
        buffer.get(offset, raw);
        return Gid.of(raw);
    }

    private static Gid ipv4MappedGid(final ByteBuffer buffer, final int offset)
    {
        final byte[] raw = new byte[Gid.LENGTH];
        raw[IPV4_MAPPED_PREFIX] = (byte)0xff;
        raw[IPV4_MAPPED_PREFIX + 1] = (byte)0xff;
        buffer.get(offset, raw, IPV4_MAPPED_PREFIX + 2, Integer.BYTES);
        return Gid.of(raw);
    }
}
