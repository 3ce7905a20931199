package io.ibex.rdma.provider.soft.wire;

import io.ibex.rdma.verbs.Gid;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * How a soft device's GIDs name its wire endpoint (IPv4 address and port of its TCP/UDP sockets).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |     prefix: fe80 (index 0) or 0000 (index 1)  |  0000         |  bytes 0..3
 *  +---------------------------------------------------------------+
 *  |                             0000 0000                         |  bytes 4..7
 *  +-------------------------------+-------------------------------+
 *  |        port (big endian)      |            ffff               |  bytes 8..11
 *  +-------------------------------+-------------------------------+
 *  |                      IPv4 address (big endian)                |  bytes 12..15
 *  +---------------------------------------------------------------+
 * </pre>
 * Index 0 looks like a link-local GID, index 1 like rxe's IPv4-mapped GID with the port in bytes 8..9, so
 * code written for rxe (which uses GID index 1 for RoCEv2 over IPv4) works unchanged. Both resolve to the
 * same endpoint.
 */
public final class SoftGidDescriptor
{
    /** Number of GID table entries a soft port has. */
    public static final int GID_TABLE_LENGTH = 2;
    /** Offset of the two prefix bytes (fe80 for index 0, zero for index 1). */
    public static final int PREFIX_OFFSET = 0;
    /** Offset of the big-endian port. */
    public static final int PORT_OFFSET = 8;
    /** Offset of the two ff marker bytes. */
    public static final int MARKER_OFFSET = 10;
    /** Offset of the big-endian IPv4 address. */
    public static final int IPV4_OFFSET = 12;

    private static final int LINK_LOCAL_PREFIX = 0xfe80;

    private SoftGidDescriptor()
    {
    }

    /**
     * @param index   GID table index, 0 or 1.
     * @param address IPv4 address of the endpoint.
     * @param port    port of the endpoint.
     * @return the GID naming the endpoint.
     */
    public static Gid encode(final int index, final Inet4Address address, final int port)
    {
        final byte[] raw = new byte[Gid.LENGTH];
        if (index == 0)
        {
            raw[PREFIX_OFFSET] = (byte)(LINK_LOCAL_PREFIX >>> 8);
            raw[PREFIX_OFFSET + 1] = (byte)LINK_LOCAL_PREFIX;
        }
        raw[PORT_OFFSET] = (byte)(port >>> 8);
        raw[PORT_OFFSET + 1] = (byte)port;
        raw[MARKER_OFFSET] = (byte)0xff;
        raw[MARKER_OFFSET + 1] = (byte)0xff;
        System.arraycopy(address.getAddress(), 0, raw, IPV4_OFFSET, 4);
        return Gid.of(raw);
    }

    /**
     * @param gid a GID.
     * @return whether it names a soft endpoint (either index form, with a non-zero port).
     */
    public static boolean isSoftEndpoint(final Gid gid)
    {
        final int prefix = ((gid.byteAt(PREFIX_OFFSET) & 0xff) << 8) | (gid.byteAt(PREFIX_OFFSET + 1) & 0xff);
        if (prefix != 0 && prefix != LINK_LOCAL_PREFIX)
        {
            return false;
        }
        for (int i = PREFIX_OFFSET + 2; i < PORT_OFFSET; i++)
        {
            if (gid.byteAt(i) != 0)
            {
                return false;
            }
        }
        return gid.byteAt(MARKER_OFFSET) == (byte)0xff && gid.byteAt(MARKER_OFFSET + 1) == (byte)0xff &&
            port(gid) != 0;
    }

    /**
     * @param gid a soft GID.
     * @return the endpoint port it names.
     */
    public static int port(final Gid gid)
    {
        return ((gid.byteAt(PORT_OFFSET) & 0xff) << 8) | (gid.byteAt(PORT_OFFSET + 1) & 0xff);
    }

    /**
     * @param gid a soft GID.
     * @return the IPv4 address it names, as a big-endian int.
     */
    public static int ipv4(final Gid gid)
    {
        int value = 0;
        for (int i = IPV4_OFFSET; i < IPV4_OFFSET + 4; i++)
        {
            value = (value << 8) | (gid.byteAt(i) & 0xff);
        }
        return value;
    }

    /**
     * Packs an endpoint into one comparable number: the IPv4 address in the high bits, the port below.
     *
     * @param ipv4 big-endian IPv4 address.
     * @param port port.
     * @return the packed endpoint.
     */
    public static long endpointKey(final int ipv4, final int port)
    {
        return ((ipv4 & 0xffffffffL) << 16) | (port & 0xffff);
    }

    /**
     * @param gid a GID.
     * @return the socket address it names.
     * @throws IllegalArgumentException naming the GID if it is not a soft endpoint GID.
     */
    public static InetSocketAddress toSocketAddress(final Gid gid)
    {
        if (!isSoftEndpoint(gid))
        {
            throw new IllegalArgumentException("GID " + gid + " does not name a soft device endpoint " +
                "(expected fe80::PPPP:ffff:a.b.c.d or ::PPPP:ffff:a.b.c.d, see SoftGidDescriptor)");
        }
        final int ip = ipv4(gid);
        try
        {
            final byte[] bytes = {(byte)(ip >>> 24), (byte)(ip >>> 16), (byte)(ip >>> 8), (byte)ip};
            return new InetSocketAddress(InetAddress.getByAddress(bytes), port(gid));
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex); // cannot happen for 4 bytes
        }
    }
}
