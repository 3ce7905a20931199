package io.ibex.benchmarks;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import io.ibex.samples.DeviceOptions;
import io.ibex.samples.RcEndpoint;

/**
 * What one verbs call costs through ibex; {@code benchmarks/src/main/c/verbs_call_cost.c} makes the same calls
 * through libibverbs in the same procedure, and {@code softroce/bench-calls.sh} runs both in the Soft-RoCE guest.
 * <p>
 * Two connected RC QPs in one process, x and y. Each cycle posts {@link #RECEIVES} receives on y one at a time,
 * posts {@link #LISTS} lists of {@link #LIST_LENGTH} 64-byte SENDs on x (the last one signaled), polls y's
 * receive completions one poll at a time until all arrived (timing the polls that return one), drains x's
 * send completions, then makes {@link #EMPTY_POLLS} empty polls and as many clock reads. The first half of the
 * cycles warms up (the JIT); the second half is measured with {@link System#nanoTime}, whose own cost is the
 * last figure printed.
 * <p>
 * usage: {@code VerbsCallCost PROVIDER DEVICE GID_INDEX CYCLES}
 */
public final class VerbsCallCost
{
    static final int MESSAGE_LENGTH = 64;
    static final int LIST_LENGTH = 16;
    static final int LISTS = 4;
    static final int RECEIVES = LIST_LENGTH * LISTS;
    static final int EMPTY_POLLS = 1000;

    private VerbsCallCost()
    {
    }

    public static void main(final String[] args)
    {
        if (args.length != 4)
        {
            System.err.println("usage: VerbsCallCost PROVIDER DEVICE GID_INDEX CYCLES");
            System.exit(2);
        }
        System.out.println(measure(args[0], args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3])));
    }

    /**
     * @return the line of figures of one run on port 1 of the device.
     */
    static String measure(final String provider, final String deviceName, final int gidIndex, final int cycles)
    {
        final Device device = DeviceOptions.devices(DeviceOptions.provider(provider), deviceName).get(0);
        try (RcEndpoint x = RcEndpoint.open(device, 1, gidIndex, MESSAGE_LENGTH, RECEIVES);
            RcEndpoint y = RcEndpoint.open(device, 1, gidIndex, MESSAGE_LENGTH, RECEIVES))
        {
            x.connect(y.address());
            y.connect(x.address());
            return new Run(x, y).measure(cycles);
        }
    }

    /** The work requests and completions of one run, built once so the measured loop allocates nothing. */
    private static final class Run
    {
        private final QueuePair sender;
        private final CompletionQueue sendCq;
        private final QueuePair receiver;
        private final CompletionQueue recvCq;
        private final ReceiveWorkRequest recv = new ReceiveWorkRequest();
        private final SendWorkRequest list;
        private final WorkCompletion[] wcs = new WorkCompletion[LIST_LENGTH];

        Run(final RcEndpoint x, final RcEndpoint y)
        {
            sender = x.qp();
            sendCq = x.cq();
            receiver = y.qp();
            recvCq = y.resources().recvCq();
            recv.sge(0).set(y.mr(), 0, MESSAGE_LENGTH);
            SendWorkRequest next = null;
            for (int i = LIST_LENGTH - 1; i >= 0; i--)
            {
                final SendWorkRequest wr = new SendWorkRequest().opcode(SendOpcode.SEND).next(next)
                    .sendFlags(i == LIST_LENGTH - 1 ? SendFlags.SIGNALED : 0);
                wr.sge(0).set(x.mr(), 0, MESSAGE_LENGTH);
                next = wr;
            }
            list = next;
            for (int i = 0; i < LIST_LENGTH; i++)
            {
                wcs[i] = new WorkCompletion();
            }
        }

        String measure(final int cycles)
        {
            long postRecv = 0;
            long postList = 0;
            long pollOne = 0;
            long emptyPoll = 0;
            long clock = 0;
            long measured = 0;
            for (int cycle = 0; cycle < cycles; cycle++)
            {
                final long t0 = System.nanoTime();
                for (int i = 0; i < RECEIVES; i++)
                {
                    receiver.postRecv(recv);
                }
                final long t1 = System.nanoTime();
                for (int i = 0; i < LISTS; i++)
                {
                    sender.postSend(list);
                }
                final long t2 = System.nanoTime();
                long polls = 0;
                for (int received = 0; received < RECEIVES; )
                {
                    final long s = System.nanoTime();
                    final int n = recvCq.poll(wcs, 1);
                    final long e = System.nanoTime();
                    if (n == 1)
                    {
                        check(wcs[0], "receive");
                        received++;
                        polls += e - s;
                    }
                }
                drain();
                final long t3 = System.nanoTime();
                for (int i = 0; i < EMPTY_POLLS; i++)
                {
                    recvCq.poll(wcs, 1);
                }
                final long t4 = System.nanoTime();
                for (int i = 0; i < EMPTY_POLLS; i++)
                {
                    System.nanoTime();
                }
                final long t5 = System.nanoTime();
                if (cycle >= cycles / 2)
                {
                    postRecv += t1 - t0;
                    postList += t2 - t1;
                    pollOne += polls;
                    emptyPoll += t4 - t3;
                    clock += t5 - t4;
                    measured++;
                }
            }
            return String.format("java: empty poll %d ns, poll returning one %d ns, post one receive %d ns, " +
                "clock read %d ns, post %d SENDs %d ns (%d cycles measured)",
                emptyPoll / (measured * EMPTY_POLLS), pollOne / (measured * RECEIVES),
                postRecv / (measured * RECEIVES), clock / (measured * EMPTY_POLLS), LIST_LENGTH,
                postList / (measured * LISTS), measured);
        }

        private void drain()
        {
            for (int lists = 0; lists < LISTS; )
            {
                final int n = sendCq.poll(wcs, LIST_LENGTH);
                for (int i = 0; i < n; i++)
                {
                    check(wcs[i], "SEND");
                }
                lists += n;
            }
        }

        private static void check(final WorkCompletion wc, final String what)
        {
            if (wc.status() != WcStatus.SUCCESS)
            {
                throw new IllegalStateException(what + " failed: " + wc);
            }
        }
    }
}
