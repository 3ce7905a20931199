package io.ibex.rdma.provider.soft.wire;

import org.agrona.BufferUtil;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.HEADER_LENGTH;
import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.MAX_FRAME_LENGTH;
import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.SEGMENT_LENGTH_OFFSET;
import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.isValidSegment;
import static io.ibex.rdma.provider.soft.wire.SoftUnsafe.UNSAFE;

/**
 * The injected faults ({@link SoftFaults}) between a {@link SoftLink}'s wire and its receive buffer: reads the wire
 * into a staging buffer of its own and hands the receive buffer whole frames as the faults decide for each: lost,
 * twice, after the next one, once {@code delay_us} has passed (the stream stalls behind it), or with half its
 * payload. With the faults gone (null), what it still holds back comes out as it would have; once it holds nothing
 * ({@link #idle}), the link reads its wire directly again.
 * <p>
 * Not thread-safe: the owning QP's lock guards it, as it does the link. Its buffers are allocated once, when a link
 * first reads through it.
 */
final class SoftFaultyFrames
{
    private static final int STAGING_LENGTH = 4 * MAX_FRAME_LENGTH;

    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final long stagingAddress = BufferUtil.address(staging);
    private final ByteBuffer held = ByteBuffer.allocateDirect(MAX_FRAME_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final long heldAddress = BufferUtil.address(held);
    private int stagingStart;
    private int heldLength;
    private boolean holding;
    /** While not 0, the frame at {@link #stagingStart} is delayed until this time. */
    private long stallUntil;
    private boolean endOfStream;

    /**
     * @return whether it holds nothing back: no frame or part of one staged, held back or delayed.
     */
    boolean idle()
    {
        return stagingStart == staging.position() && !holding && stallUntil == 0 && !endOfStream;
    }

    /**
     * Reads what the wire has and appends to {@code rx} the whole frames that come out of the faults.
     *
     * @param faults    the faults to draw from, or null to let out what is held back.
     * @param rxStart   where the frames not yet consumed start in {@code rx}; when this holds nothing, the part of a
     *                  frame at the end of {@code rx} moves here, so that frames arrive whole.
     * @param rxAddress the address of {@code rx}.
     * @return bytes appended, 0 while the stream stalls or nothing came, -1 at end of stream with nothing left.
     */
    int read(final SoftWire wire, final SoftFaults faults, final ByteBuffer rx, final long rxAddress, final int rxStart)
        throws IOException
    {
        if (idle())
        {
            takePartialFrame(rx, rxAddress, rxStart);
        }
        if (!endOfStream && completeFrameLength() < 0)
        {
            if (stagingStart > 0 && staging.remaining() < MAX_FRAME_LENGTH)
            {
                compactStaging();
            }
            endOfStream = wire.read(staging) < 0;
        }
        final int before = rx.position();
        int length;
        while ((length = completeFrameLength()) > 0 && rx.remaining() >= 2 * length + heldLength)
        {
            if (stallUntil != 0)
            {
                if (System.nanoTime() - stallUntil < 0)
                {
                    break;
                }
                stallUntil = 0;
                append(rx, rxAddress, stagingAddress + stagingStart, length); // the delayed frame, due now
            }
            else if (!decide(faults, rx, rxAddress, length))
            {
                break; // delayed: the stream stalls behind it
            }
            stagingStart += length;
        }
        if (length == 0)
        {
            passMalformed(rx, rxAddress); // the receiver refuses it
        }
        if (stagingStart == staging.position())
        {
            staging.clear();
            stagingStart = 0;
        }
        final int appended = rx.position() - before;
        return appended == 0 && endOfStream && stallUntil == 0 && completeFrameLength() < 0 ? -1 : appended;
    }

    /**
     * Draws the fate of the frame at {@link #stagingStart} and appends what arrives of it, then the frame held back
     * for after it.
     *
     * @return false if it is delayed (it stays staged), else true.
     */
    private boolean decide(final SoftFaults faults, final ByteBuffer rx, final long rxAddress, final int length)
    {
        final long frame = stagingAddress + stagingStart;
        final boolean heldForThis = holding;
        switch (faults == null ? SoftFaults.Fault.NONE : faults.next(false, !holding))
        {
            case DROP ->
            {
                // lost
            }
            case DUPLICATE ->
            {
                append(rx, rxAddress, frame, length);
                append(rx, rxAddress, frame, length);
            }
            case REORDER ->
            {
                UNSAFE.copyMemory(frame, heldAddress, length);
                heldLength = length;
                holding = true;
            }
            case DELAY ->
            {
                stallUntil = System.nanoTime() + faults.delayNanos() | 1;
                return false;
            }
            case TRUNCATE ->
            {
                final int segment = length - HEADER_LENGTH;
                if (segment > 0)
                {
                    final int at = rx.position();
                    append(rx, rxAddress, frame, HEADER_LENGTH + segment / 2);
                    rx.putInt(at + SEGMENT_LENGTH_OFFSET, segment / 2);
                }
            }
            default -> append(rx, rxAddress, frame, length);
        }
        if (heldForThis)
        {
            holding = false;
            append(rx, rxAddress, heldAddress, heldLength);
            heldLength = 0;
        }
        return true;
    }

    /**
     * @return the length of the frame at {@link #stagingStart} if it is all staged, -1 if it is not, 0 if its header
     *         is malformed.
     */
    private int completeFrameLength()
    {
        final int available = staging.position() - stagingStart;
        if (available < HEADER_LENGTH)
        {
            return -1;
        }
        final int segment = staging.getInt(stagingStart + SEGMENT_LENGTH_OFFSET);
        if (!isValidSegment(segment))
        {
            return 0;
        }
        return available >= HEADER_LENGTH + segment ? HEADER_LENGTH + segment : -1;
    }

    /**
     * Moves the part of a frame at the end of {@code rx} (bytes that arrived before the faults did) here, so that
     * what follows it goes through the faults whole. A malformed header stays where it is, for the receiver.
     */
    private void takePartialFrame(final ByteBuffer rx, final long rxAddress, final int rxStart)
    {
        final int end = rx.position();
        int at = rxStart;
        while (end - at >= HEADER_LENGTH)
        {
            final int segment = rx.getInt(at + SEGMENT_LENGTH_OFFSET);
            if (!isValidSegment(segment))
            {
                return;
            }
            if (end - at < HEADER_LENGTH + segment)
            {
                break;
            }
            at += HEADER_LENGTH + segment;
        }
        UNSAFE.copyMemory(rxAddress + at, stagingAddress, end - at);
        staging.clear().position(end - at);
        stagingStart = 0;
        rx.position(at);
    }

    /**
     * Hands a malformed frame's bytes over as they came, as far as they fit: the receiver refuses them and ends the
     * link.
     */
    private void passMalformed(final ByteBuffer rx, final long rxAddress)
    {
        final int length = Math.min(staging.position() - stagingStart, rx.remaining());
        append(rx, rxAddress, stagingAddress + stagingStart, length);
        stagingStart += length;
    }

    private static void append(final ByteBuffer rx, final long rxAddress, final long from, final int length)
    {
        final int at = rx.position();
        UNSAFE.copyMemory(from, rxAddress + at, length);
        rx.position(at + length);
    }

    private void compactStaging()
    {
        final int end = staging.position();
        staging.limit(end).position(stagingStart);
        staging.compact();
        stagingStart = 0;
    }
}
