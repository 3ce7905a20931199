package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.qp.SoftQueuePair;
import io.ibex.rdma.spi.ProviderChecks;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AsyncEvent;
import io.ibex.rdma.verbs.AsyncEventType;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.BitUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A soft completion queue: completions in preallocated primitive rings. Polling first drives the QPs that
 * complete into it (reads their links, processes frames, sends owed ACKs), so a busy-polling thread moves
 * its own traffic without any hand-off. Overflow raises {@link AsyncEventType#CQ_ERR} and puts the QPs
 * using the CQ in error.
 */
public final class SoftCompletionQueue extends ProviderResource implements CompletionQueue
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftCompletionQueue.class);
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final WcStatus[] STATUSES = WcStatus.values();

    private final SoftContext context;
    private final SoftCompletionChannel channel;
    private final int id = IDS.incrementAndGet();
    private final int capacity;
    private final int mask; // an entry's slot is its index masked: the arrays round cqe up to a power of two
    private final long[] wrIds;
    private final byte[] statuses;
    private final WcOpcode[] opcodes;
    private final int[] byteLens;
    private final int[] immData;
    private final int[] qpNums;
    private final int[] srcQps;
    private final int[] wcFlags;
    private long head;
    private long tail;
    private boolean armed;
    private boolean solicitedOnly;
    private volatile boolean overflowed;
    private volatile SoftQueuePair[] queuePairs = new SoftQueuePair[0];
    private volatile boolean drivesUdp;

    SoftCompletionQueue(final SoftContext context, final int cqe, final SoftCompletionChannel channel)
    {
        super(context);
        this.context = context;
        this.channel = channel;
        this.capacity = cqe;
        final int slots = BitUtil.findNextPositivePowerOfTwo(cqe);
        mask = slots - 1;
        wrIds = new long[slots];
        statuses = new byte[slots];
        opcodes = new WcOpcode[slots];
        byteLens = new int[slots];
        immData = new int[slots];
        qpNums = new int[slots];
        srcQps = new int[slots];
        wcFlags = new int[slots];
        if (channel != null)
        {
            channel.attach(this);
        }
    }

    @Override
    public Context context()
    {
        return context;
    }

    @Override
    public int cqe()
    {
        return capacity;
    }

    @Override
    public CompletionChannel channel()
    {
        return channel;
    }

    @Override
    public int poll(final WorkCompletion[] wcs)
    {
        return poll(wcs, wcs.length);
    }

    @Override
    public int poll(final WorkCompletion[] wcs, final int max)
    {
        ensureOpen();
        ProviderChecks.requirePollRange(wcs, max);
        final SoftQueuePair[] qps = queuePairs;
        for (final SoftQueuePair qp : qps)
        {
            qp.drive(true);
        }
        if (drivesUdp)
        {
            context.softDevice().driveUdp(true);
        }
        synchronized (this)
        {
            int count = 0;
            while (count < max && head < tail)
            {
                final int slot = (int)(head & mask);
                wcs[count++].set(wrIds[slot], STATUSES[statuses[slot]], opcodes[slot], 0, byteLens[slot],
                    immData[slot], qpNums[slot], srcQps[slot], wcFlags[slot], 0);
                head++;
            }
            return count;
        }
    }

    @Override
    public void requestNotify(final boolean solicitedOnly)
    {
        ensureOpen();
        synchronized (this)
        {
            armed = true;
            this.solicitedOnly = solicitedOnly;
        }
    }

    /**
     * Adds a completion.
     *
     * @return false if the CQ was full (it is now in error: the caller's QP must enter ERR).
     */
    public boolean push(
        final long wrId,
        final WcStatus status,
        final WcOpcode opcode,
        final int byteLen,
        final int imm,
        final int qpNum,
        final int srcQp,
        final int flags,
        final boolean solicited)
    {
        boolean raise = false;
        synchronized (this)
        {
            if (overflowed)
            {
                return false;
            }
            if (tail - head >= capacity)
            {
                overflowed = true;
                LOG.error("{} overflowed ({} entries): completion of wr_id {} from QP 0x{} lost; CQ_ERR raised, " +
                    "its QPs move to ERR", describe(), capacity, wrId, Integer.toHexString(qpNum));
                context.raise(new AsyncEvent(AsyncEventType.CQ_ERR, null, this, 0));
                return false;
            }
            final int slot = (int)(tail & mask);
            wrIds[slot] = wrId;
            statuses[slot] = (byte)status.value();
            opcodes[slot] = opcode;
            byteLens[slot] = byteLen;
            immData[slot] = imm;
            qpNums[slot] = qpNum;
            srcQps[slot] = srcQp;
            wcFlags[slot] = flags;
            tail++;
            if (armed && channel != null && (!solicitedOnly || solicited || status != WcStatus.SUCCESS))
            {
                armed = false;
                raise = true;
            }
        }
        if (raise)
        {
            channel.raise(this);
        }
        return true;
    }

    public boolean overflowed()
    {
        return overflowed;
    }

    public void attach(final SoftQueuePair qp)
    {
        ensureOpen();
        synchronized (this)
        {
            final SoftQueuePair[] grown = Arrays.copyOf(queuePairs, queuePairs.length + 1);
            grown[grown.length - 1] = qp;
            queuePairs = grown;
            drivesUdp |= qp.type() == QpType.UD;
        }
    }

    public void detach(final SoftQueuePair qp)
    {
        synchronized (this)
        {
            final SoftQueuePair[] current = queuePairs;
            final SoftQueuePair[] shrunk = new SoftQueuePair[current.length - 1];
            int j = 0;
            boolean udp = false;
            for (final SoftQueuePair other : current)
            {
                if (other != qp && j < shrunk.length)
                {
                    shrunk[j++] = other;
                    udp |= other.type() == QpType.UD;
                }
            }
            queuePairs = shrunk;
            drivesUdp = udp;
        }
    }

    /**
     * The caller is about to block on the channel: let the progress thread drive this CQ's QPs at once.
     */
    void handOverToProgress()
    {
        for (final SoftQueuePair qp : queuePairs)
        {
            qp.handOverToProgress();
        }
        if (drivesUdp)
        {
            context.softDevice().forgetAppUdpDrive();
        }
    }

    @Override
    protected String describe()
    {
        return "CQ #" + id;
    }

    @Override
    protected int closeRank()
    {
        return 1;
    }

    @Override
    protected void release()
    {
        if (queuePairs.length > 0)
        {
            throw new VerbsException(VerbsException.EBUSY, "cannot close " + describe() + ": still used by " +
                Arrays.toString(queuePairs));
        }
        if (channel != null)
        {
            channel.detach(this);
        }
    }
}
