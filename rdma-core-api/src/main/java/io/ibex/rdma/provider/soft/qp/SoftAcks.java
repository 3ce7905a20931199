package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftLink;

import java.io.IOException;
import java.nio.ByteBuffer;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;

/**
 * What a QP's {@link SoftResponder} acknowledges: the PSN it expects next, the cumulative ACK every frame the QP
 * sends carries ({@link #putHeader}), so the requester's frames acknowledge for free, and the ACK owed alone when no
 * frame has carried it within {@link #ACK_DELAY_NANOS}; for messages whose requester did not ask for a prompt ACK
 * ({@link SoftFrameDescriptor#FLAG_ACK_REQUEST}), at most once every {@link #UNREQUESTED_ACK_INTERVAL_NANOS}: each
 * lone ACK costs both sides a system call, and a stream of unsignaled SENDs needs none. It writes the frames that
 * are a header alone: ACK, NAK, goodbye.
 * <p>
 * Not thread-safe: the QP lock guards it.
 */
public final class SoftAcks
{
    /** How long an ACK may wait for a frame to carry it before it is sent alone. */
    public static final long ACK_DELAY_NANOS = 5_000;
    /** The least time between two lone ACKs that no requester asked for (well below the 10 ms transport timer). */
    public static final long UNREQUESTED_ACK_INTERVAL_NANOS = 200_000;

    private final boolean reliable;
    private int expectedPsn;
    private boolean owed;
    private long due;
    private long lastLoneAck = System.nanoTime() - UNREQUESTED_ACK_INTERVAL_NANOS;

    /**
     * @param reliable whether what is executed is acknowledged (RC), else only the PSNs are followed (UC, UD).
     */
    SoftAcks(final boolean reliable)
    {
        this.reliable = reliable;
    }

    /**
     * @return the PSN of the next request expected.
     */
    int expectedPsn()
    {
        return expectedPsn;
    }

    /**
     * Expects {@code psn} next: the QP's rq_psn, or where a UC stream starts afresh after a loss.
     */
    void expect(final int psn)
    {
        expectedPsn = psn;
    }

    /**
     * The request at the expected PSN is done with, and owes no ACK of its own: its response carries it (READ,
     * atomic), it was refused or it was dropped.
     */
    void advance()
    {
        expectedPsn = (expectedPsn + 1) & PSN_MASK;
    }

    /**
     * The request at the expected PSN was executed: on RC an ACK is owed, due after {@link #ACK_DELAY_NANOS}, or
     * no earlier than {@link #UNREQUESTED_ACK_INTERVAL_NANOS} after the last lone ACK if the requester did not ask
     * for one.
     */
    void executed(final long now, final boolean ackRequested)
    {
        advance();
        if (reliable)
        {
            long dueAt = now + ACK_DELAY_NANOS;
            final long nextUnrequested = lastLoneAck + UNREQUESTED_ACK_INTERVAL_NANOS;
            if (!ackRequested && nextUnrequested - dueAt > 0)
            {
                dueAt = nextUnrequested;
            }
            if (!owed || dueAt - due < 0)
            {
                due = dueAt;
            }
            owed = true;
        }
    }

    /**
     * @return whether an ACK is owed and comes due within {@code windowNanos} from {@code now} (not already: one
     *         that is due and still owed waits for room on the link).
     */
    boolean dueWithin(final long now, final long windowNanos)
    {
        return owed && due - now > 0 && due - now <= windowNanos;
    }

    /**
     * Sends the ACK no frame has carried by the time it is due, if the transmit buffer has room.
     *
     * @return whether it was written.
     */
    boolean writeOwed(final SoftLink link, final long now) throws IOException
    {
        if (owed && now - due >= 0 && writeOwedNow(link))
        {
            lastLoneAck = now;
            return true;
        }
        return false;
    }

    /**
     * Sends the ACK still owed at once, delay or not: for a QP about to stop driving its link, which an HCA
     * would have acknowledged on.
     *
     * @return whether it was written.
     */
    boolean writeOwedNow(final SoftLink link) throws IOException
    {
        if (owed && link.ensureTxRoom(HEADER_LENGTH))
        {
            writeAck(link, SYNDROME_ACK, (expectedPsn - 1) & PSN_MASK, 0);
            return true;
        }
        return false;
    }

    /**
     * Ends the link for a QP being destroyed or reset: the goodbye carries the ACK still owed, as every frame does.
     *
     * @return whether it was written.
     */
    boolean writeGoodbye(final SoftLink link) throws IOException
    {
        if (!link.ensureTxRoom(HEADER_LENGTH))
        {
            return false;
        }
        putHeaderFrame(link, OP_GOODBYE, 0);
        return true;
    }

    /**
     * Appends an ACK or NAK ({@code syndrome}) of {@code psn} to the transmit buffer, which has room for it.
     */
    void writeAck(final SoftLink link, final byte syndrome, final int psn, final int rnrTimer)
    {
        final int at = putHeaderFrame(link, OP_ACK, psn);
        link.tx().put(at + SYNDROME_OFFSET, syndrome).put(at + RNR_TIMER_OFFSET, (byte)rnrTimer);
    }

    /**
     * Writes a frame header at {@code at}, carrying the cumulative ACK of what the responder has executed.
     */
    void putHeader(
        final ByteBuffer tx,
        final int at,
        final byte opcode,
        final int flags,
        final int psn,
        final int segment,
        final long offset,
        final long length)
    {
        tx.put(at + OPCODE_OFFSET, opcode);
        tx.put(at + FLAGS_OFFSET, (byte)flags);
        tx.put(at + SYNDROME_OFFSET, SYNDROME_ACK);
        tx.put(at + RNR_TIMER_OFFSET, (byte)0);
        tx.putInt(at + PSN_OFFSET, psn);
        tx.putInt(at + ACK_PSN_OFFSET, (expectedPsn - 1) & PSN_MASK);
        tx.putInt(at + SEGMENT_LENGTH_OFFSET, segment);
        tx.putInt(at + SEGMENT_OFFSET_OFFSET, (int)offset);
        tx.putInt(at + MESSAGE_LENGTH_OFFSET, (int)length);
        owed = false; // every frame carries the cumulative ACK
    }

    /**
     * Owes nothing any more: the QP flushed or reset.
     */
    void forget()
    {
        owed = false;
    }

    /**
     * Appends a frame that is a header alone to the transmit buffer, which has room for it.
     *
     * @return where it starts.
     */
    private int putHeaderFrame(final SoftLink link, final byte opcode, final int psn)
    {
        final ByteBuffer tx = link.tx();
        final int at = tx.position();
        putHeader(tx, at, opcode, 0, psn, 0, 0, 0);
        tx.position(at + HEADER_LENGTH);
        return at;
    }
}
