package io.ibex.rdma.provider.soft.wire;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/**
 * The injected faults ({@link SoftFaults}) between the device's UD socket and the delivery of its datagrams: hands
 * each datagram on as the faults decide: lost, twice, after the next one, {@code delay_us} later (others pass it),
 * or with its second half gone. With the faults gone (null), datagrams pass as they came and the one held back
 * comes out at the next {@link #releaseDue}.
 * <p>
 * Not thread-safe: the device's UDP lock guards it. It allocates the buffer of the datagram it holds back once, the
 * first time.
 */
public final class SoftFaultyDatagrams
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftFaultyDatagrams.class);

    private final Consumer<ByteBuffer> delivery;
    private final int maxLength;
    /** The datagram held back (reorder, delay), while {@link #holding}. */
    private ByteBuffer held;
    private boolean holding;
    /** When the held datagram is due, or 0: after the next datagram (reorder). */
    private long heldUntil;

    /**
     * @param delivery  takes a datagram on (a direct little-endian buffer, position 0), during the call only.
     * @param maxLength the longest datagram the socket receives.
     */
    public SoftFaultyDatagrams(final Consumer<ByteBuffer> delivery, final int maxLength)
    {
        this.delivery = delivery;
        this.maxLength = maxLength;
    }

    /**
     * Hands a datagram received on as the faults say.
     *
     * @param faults the faults to draw from, or null for none.
     */
    public void receive(final SoftFaults faults, final ByteBuffer datagram)
    {
        if (faults == null)
        {
            delivery.accept(datagram);
            return;
        }
        final boolean heldForThis = holding && heldUntil == 0;
        switch (faults.next(true, !holding))
        {
            case DROP -> LOG.debug("fault injection dropped a UD datagram");
            case DUPLICATE ->
            {
                delivery.accept(datagram);
                delivery.accept(datagram);
            }
            case REORDER -> hold(datagram, 0);
            case DELAY -> hold(datagram, System.nanoTime() + faults.delayNanos() | 1);
            case TRUNCATE ->
            {
                datagram.limit(datagram.limit() / 2);
                delivery.accept(datagram);
            }
            default -> delivery.accept(datagram);
        }
        if (heldForThis)
        {
            release();
        }
    }

    /**
     * Hands on the datagram held back if it is due, or if the faults are gone.
     *
     * @param faults the faults injected now, or null.
     * @return whether one was handed on.
     */
    public boolean releaseDue(final SoftFaults faults)
    {
        if (holding && (faults == null || heldUntil != 0 && System.nanoTime() - heldUntil >= 0))
        {
            release();
            return true;
        }
        return false;
    }

    private void hold(final ByteBuffer datagram, final long until)
    {
        if (held == null)
        {
            held = ByteBuffer.allocateDirect(maxLength).order(ByteOrder.LITTLE_ENDIAN);
        }
        held.clear();
        held.put(datagram).flip();
        holding = true;
        heldUntil = until;
    }

    private void release()
    {
        holding = false;
        delivery.accept(held);
    }
}
