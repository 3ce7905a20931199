package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftAddressHandle;
import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.WcStatus;
import org.agrona.BufferUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;

/**
 * The send side of a UD {@link SoftQueuePair}: each queued request of its {@link SoftSendQueue} goes out as one
 * datagram on the device's UDP socket, built in one preallocated buffer, and completes at once (UD has no ACKs; a
 * datagram the socket cannot take is lost, as UD may lose it).
 * <p>
 * Not thread-safe: runs with the QP lock held. Allocates nothing after construction.
 */
final class SoftDatagramSender
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftDatagramSender.class);

    private final SoftQueuePair qp;
    private final SoftSendQueue sq;
    private final SoftDevice device;
    private final SoftProtectionDomain pd;
    private final ByteBuffer tx;
    private final long txAddress;

    SoftDatagramSender(
        final SoftQueuePair qp, final SoftSendQueue sq, final SoftDevice device, final SoftProtectionDomain pd)
    {
        this.qp = qp;
        this.sq = sq;
        this.device = device;
        this.pd = pd;
        tx = ByteBuffer.allocateDirect(UD_HEADER_LENGTH + Mtu.MTU_4096.bytes()).order(ByteOrder.LITTLE_ENDIAN);
        txAddress = BufferUtil.address(tx);
    }

    /**
     * Sends every queued request as one datagram and completes it.
     *
     * @param qkey the QP's own Q_Key, for requests that ask for it.
     */
    void transmit(final int qkey)
    {
        while (sq.transmit < sq.tail)
        {
            final int slot = (int)(sq.transmit & sq.mask);
            if (!sq.inline[slot])
            {
                final WcStatus status = sq.sges.check(slot, device, pd, false);
                if (status != WcStatus.SUCCESS)
                {
                    sq.fail(sq.transmit, status);
                    return;
                }
            }
            final long length = sq.lengths[slot];
            // like rxe (IB C10-93.1.1): a UD message above the path MTU is not sent, yet completes successfully
            if (length <= device.activeMtu().bytes())
            {
                send(slot, (int)length, qkey);
            }
            sq.transmit++;
            sq.complete(WcStatus.SUCCESS);
        }
    }

    private void send(final int slot, final int length, final int qkey)
    {
        final SoftAddressHandle ah = sq.ahs[slot];
        final int remoteQkey = sq.remoteQkeys[slot];
        tx.clear();
        tx.put(UD_OPCODE_OFFSET, SoftRequester.frameOpcode(sq.opcodes[slot]));
        tx.put(UD_FLAGS_OFFSET, (sq.flags[slot] & SendFlags.SOLICITED) != 0 ? FLAG_SOLICITED : 0);
        tx.putInt(UD_SRC_QPN_OFFSET, qp.qpNum());
        tx.putInt(UD_DST_QPN_OFFSET, sq.remoteQpns[slot]);
        tx.putInt(UD_QKEY_OFFSET, remoteQkey < 0 ? qkey : remoteQkey); // high bit set: use the QP's own Q_Key
        tx.putInt(UD_IMM_OFFSET, sq.imm[slot]);
        tx.putInt(UD_PAYLOAD_LENGTH_OFFSET, length);
        final Gid sgid = device.gid(ah.attr().sgidIndex() == 0 ? 0 : 1);
        final Gid dgid = ah.attr().dgid();
        for (int i = 0; i < Gid.LENGTH; i++)
        {
            tx.put(UD_SRC_GID_OFFSET + i, sgid.byteAt(i));
            tx.put(UD_DST_GID_OFFSET + i, dgid.byteAt(i));
        }
        sq.gather(slot, 0, txAddress + UD_HEADER_LENGTH, length);
        tx.limit(UD_HEADER_LENGTH + length);
        try
        {
            device.udp().send(tx, ah.target()); // 0 when the socket buffer is full: lost, as UD may be
        }
        catch (final IOException ex)
        {
            LOG.debug("{}: UD datagram to {} lost: {}", qp, ah.target(), ex.toString());
        }
    }
}
