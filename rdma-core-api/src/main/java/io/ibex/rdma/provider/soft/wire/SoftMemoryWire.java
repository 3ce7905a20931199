package io.ibex.rdma.provider.soft.wire;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A link between two QPs of the same device, in memory: each end reads one {@link SoftByteRing} and writes the
 * other, so a frame costs two copies and no system call (rxe, too, loops packets to its own address back inside
 * the device). Closing either end closes both directions: the peer reads what was sent, then end of stream, and
 * its writes fail as on a socket the peer closed.
 */
final class SoftMemoryWire implements SoftWire
{
    private final SoftByteRing in;
    private final SoftByteRing out;
    private final String peer;

    private SoftMemoryWire(final SoftByteRing in, final SoftByteRing out, final String peer)
    {
        this.in = in;
        this.out = out;
        this.peer = peer;
    }

    /**
     * @return the two ends of a new wire: index 0 for QP {@code first}, 1 for QP {@code second}.
     */
    static SoftMemoryWire[] pair(final int first, final int second)
    {
        final SoftByteRing toSecond = new SoftByteRing();
        final SoftByteRing toFirst = new SoftByteRing();
        return new SoftMemoryWire[]{ new SoftMemoryWire(toFirst, toSecond, qpName(second)),
            new SoftMemoryWire(toSecond, toFirst, qpName(first)) };
    }

    @Override
    public int read(final ByteBuffer dst) throws IOException
    {
        return in.read(dst);
    }

    @Override
    public int write(final ByteBuffer src) throws IOException
    {
        if (out.isClosed())
        {
            throw new IOException("the link to " + peer + " was closed");
        }
        return out.write(src);
    }

    @Override
    public boolean finishConnect()
    {
        return true;
    }

    @Override
    public void watch(final SoftWireWatcher progress)
    {
        in.watcher(progress);
    }

    @Override
    public void unwatch()
    {
        in.watcher(null);
    }

    @Override
    public void close()
    {
        in.close();
        out.close();
    }

    @Override
    public String peer()
    {
        return peer;
    }

    private static String qpName(final int qpn)
    {
        return "QP 0x" + Integer.toHexString(qpn) + " of this device";
    }
}
