package io.ibex.rdma.verbs;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A 128-bit global identifier (an IPv6-format address), as in {@code union ibv_gid}. Immutable.
 */
public final class Gid
{
    /** Length of a GID in bytes. */
    public static final int LENGTH = 16;

    /** The all-zero GID (an unused GID-table entry). */
    public static final Gid ZERO = new Gid(new byte[LENGTH]);

    private final byte[] raw;

    private Gid(final byte[] raw)
    {
        this.raw = raw;
    }

    /**
     * @param raw 16 bytes in network order.
     * @return the GID (the array is copied).
     */
    public static Gid of(final byte[] raw)
    {
        if (raw.length != LENGTH)
        {
            throw new IllegalArgumentException("a GID has 16 bytes, got " + raw.length);
        }
        return new Gid(raw.clone());
    }

    /**
     * @param address an IPv6 address, or an IPv4 address that becomes {@code ::ffff:a.b.c.d} as RoCEv2 does.
     * @return the GID.
     */
    public static Gid of(final InetAddress address)
    {
        if (address instanceof Inet6Address)
        {
            return new Gid(address.getAddress());
        }
        final byte[] raw = new byte[LENGTH];
        raw[10] = (byte)0xff;
        raw[11] = (byte)0xff;
        System.arraycopy(address.getAddress(), 0, raw, 12, 4);
        return new Gid(raw);
    }

    /**
     * Parses the text form {@code ibv_devinfo} prints, e.g. {@code fe80:0000:0000:0000:5054:00ff:fe12:3456}
     * or any IPv6 text form such as {@code ::ffff:10.0.0.1}.
     *
     * @param text the GID as text.
     * @return the GID.
     */
    public static Gid parse(final String text)
    {
        if (text.indexOf(':') < 0)
        {
            throw new IllegalArgumentException("not a GID (expected IPv6 text form): '" + text + "'");
        }
        try
        {
            final InetAddress address = InetAddress.getByName(text);
            if (address instanceof Inet4Address)
            {
                return of(address); // Java folds ::ffff:a.b.c.d into an Inet4Address
            }
            return new Gid(address.getAddress());
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("not a GID: '" + text + "'", ex);
        }
    }

    /**
     * @return a copy of the 16 bytes in network order.
     */
    public byte[] toBytes()
    {
        return raw.clone();
    }

    /**
     * @param index 0..15.
     * @return one byte of the GID.
     */
    public byte byteAt(final int index)
    {
        return raw[index];
    }

    /**
     * @return the subnet prefix (the high 64 bits).
     */
    public long subnetPrefix()
    {
        return readLong(0);
    }

    /**
     * @return the interface id (the low 64 bits).
     */
    public long interfaceId()
    {
        return readLong(8);
    }

    /**
     * @return true if this is an IPv4-mapped GID ({@code ::ffff:a.b.c.d}).
     */
    public boolean isIpv4Mapped()
    {
        for (int i = 0; i < 10; i++)
        {
            if (raw[i] != 0)
            {
                return false;
            }
        }
        return raw[10] == (byte)0xff && raw[11] == (byte)0xff;
    }

    /**
     * @return the IP address this GID encodes (IPv4 for an IPv4-mapped GID).
     */
    public InetAddress toInetAddress()
    {
        try
        {
            return isIpv4Mapped() ?
                InetAddress.getByAddress(Arrays.copyOfRange(raw, 12, 16)) : InetAddress.getByAddress(raw);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex); // cannot happen for 4 or 16 bytes
        }
    }

    private long readLong(final int offset)
    {
        long value = 0;
        for (int i = offset; i < offset + 8; i++)
        {
            value = (value << 8) | (raw[i] & 0xffL);
        }
        return value;
    }

    /**
     * @return the GID as eight groups of four hex digits, as {@code ibv_devinfo -v} prints it.
     */
    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < LENGTH; i += 2)
        {
            if (i > 0)
            {
                sb.append(':');
            }
            sb.append(String.format("%02x%02x", raw[i] & 0xff, raw[i + 1] & 0xff));
        }
        return sb.toString();
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof Gid && Arrays.equals(raw, ((Gid)o).raw);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(raw);
    }
}
