package io.ibex.rdma.verbs;

/**
 * Path MTU; {@link #value()} is the number of {@code enum ibv_mtu}.
 */
public enum Mtu
{
    /** 256 bytes. */
    MTU_256(1, 256),
    /** 512 bytes. */
    MTU_512(2, 512),
    /** 1024 bytes. */
    MTU_1024(3, 1024),
    /** 2048 bytes. */
    MTU_2048(4, 2048),
    /** 4096 bytes. */
    MTU_4096(5, 4096);

    private final int value;
    private final int bytes;

    Mtu(final int value, final int bytes)
    {
        this.value = value;
        this.bytes = bytes;
    }

    /**
     * @return the numeric value of {@code enum ibv_mtu}.
     */
    public int value()
    {
        return value;
    }

    /**
     * @return the MTU in bytes.
     */
    public int bytes()
    {
        return bytes;
    }

    /**
     * @param bytes an MTU in bytes (256, 512, 1024, 2048 or 4096).
     * @return the MTU.
     * @throws IllegalArgumentException for any other size.
     */
    public static Mtu ofBytes(final int bytes)
    {
        for (final Mtu mtu : values())
        {
            if (mtu.bytes == bytes)
            {
                return mtu;
            }
        }
        throw new IllegalArgumentException("MTU " + bytes + " is not one of 256, 512, 1024, 2048, 4096");
    }
}
