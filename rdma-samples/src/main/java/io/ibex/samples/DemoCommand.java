package io.ibex.samples;

import io.ibex.rdma.Provider;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WorkCompletion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * {@code ibex demo}: connects two RC queue pairs of this process out of band, as {@code ibv_rc_pingpong}
 * does between two processes, then QP A SENDs a message into a receive QP B posted, and RDMA-WRITEs a second
 * message straight into QP B's registered buffer. Prints both endpoints' addresses, every completion, and
 * what arrived; fails unless both messages arrived intact.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Connect two RC queue pairs in this process, SEND a message and RDMA-WRITE another into " +
        "the peer's buffer, and print what arrived.")
public final class DemoCommand implements Callable<Integer>
{
    /** Bytes of each endpoint's registered buffer: a slot for SENDs, then a slot for RDMA WRITEs. */
    private static final int SLOT_LENGTH = 1024;
    private static final int SEND_SLOT_OFFSET = 0;
    private static final int WRITE_SLOT_OFFSET = SEND_SLOT_OFFSET + SLOT_LENGTH;
    private static final int BUFFER_LENGTH = WRITE_SLOT_OFFSET + SLOT_LENGTH;
    private static final int QUEUE_DEPTH = 4;

    private static final long SEND_WR_ID = 1;
    private static final long RECV_WR_ID = 2;
    private static final long WRITE_WR_ID = 3;

    private static final String SEND_TEXT = "Hello from QP A, delivered by RDMA SEND";
    private static final String WRITE_TEXT = "Hello from QP A, placed by RDMA WRITE";

    @Mixin
    private DeviceOptions deviceOptions;

    @Option(names = { "-g", "--gid-idx" }, paramLabel = "INDEX", defaultValue = "1",
        description = "Address by the GID at this index (default: ${DEFAULT-VALUE}, the IPv4-mapped GID).")
    private int gidIndex;

    @Option(names = "--timeout-ms", paramLabel = "MILLIS", defaultValue = "5000",
        description = "How long to wait for each completion (default: ${DEFAULT-VALUE}).")
    private long timeoutMillis;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the demo.
     *
     * @return 0 when both messages arrived intact; failures are thrown and reported by {@link IbexCommand}.
     */
    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final Provider provider = deviceOptions.provider();
        final Device device = deviceOptions.device(provider);
        final int portNum = deviceOptions.portNum();
        out.printf("provider %s, device %s, port %d, GID index %d%n",
            provider.name(), device.name(), portNum, gidIndex);

        try (RcEndpoint a = RcEndpoint.open(device, portNum, gidIndex, BUFFER_LENGTH, QUEUE_DEPTH);
            RcEndpoint b = RcEndpoint.open(device, portNum, gidIndex, BUFFER_LENGTH, QUEUE_DEPTH))
        {
            final EndpointAddress addressA = a.address();
            final EndpointAddress addressB = b.address();
            out.println("  QP A address: " + addressA);
            out.println("  QP B address: " + addressB);
            a.connect(addressB);
            b.connect(addressA);
            out.printf("  QP A is %s, QP B is %s%n", a.qp().state(), b.qp().state());

            send(a, b, out);
            write(a, b, out);
        }
        out.println("done: both messages arrived intact");
        out.flush();
        return 0;
    }

    private void send(final RcEndpoint a, final RcEndpoint b, final PrintWriter out)
    {
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(RECV_WR_ID);
        recv.sge(0).set(b.mr(), SEND_SLOT_OFFSET, SLOT_LENGTH);
        b.qp().postRecv(recv);

        final int length = put(a.mr(), SEND_SLOT_OFFSET, SEND_TEXT);
        final SendWorkRequest send = new SendWorkRequest().wrId(SEND_WR_ID)
            .opcode(SendOpcode.SEND).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(a.mr(), SEND_SLOT_OFFSET, length);
        out.printf("SEND A -> B, %d bytes: \"%s\"%n", length, SEND_TEXT);
        a.qp().postSend(send);

        expect(a.awaitCompletion(timeoutMillis, "the SEND of QP A"), "A", WcOpcode.SEND, out);
        final WorkCompletion received = b.awaitCompletion(timeoutMillis, "the receive of QP B");
        expect(received, "B", WcOpcode.RECV, out);
        check("B received", get(b.mr(), SEND_SLOT_OFFSET, received.byteLen()), SEND_TEXT, out);
    }

    private void write(final RcEndpoint a, final RcEndpoint b, final PrintWriter out)
    {
        final int length = put(a.mr(), WRITE_SLOT_OFFSET, WRITE_TEXT);
        final long remoteAddress = b.mr().address() + WRITE_SLOT_OFFSET;
        final SendWorkRequest write = new SendWorkRequest().wrId(WRITE_WR_ID)
            .opcode(SendOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED).remote(remoteAddress, b.mr().rkey());
        write.sge(0).set(a.mr(), WRITE_SLOT_OFFSET, length);
        out.printf("RDMA WRITE A -> B at 0x%x (rkey 0x%x), %d bytes: \"%s\"%n",
            remoteAddress, b.mr().rkey(), length, WRITE_TEXT);
        a.qp().postSend(write);

        // An RDMA WRITE completes at the requester once acknowledged: the bytes are in B's memory by now.
        expect(a.awaitCompletion(timeoutMillis, "the RDMA WRITE of QP A"), "A", WcOpcode.RDMA_WRITE, out);
        check("B's buffer holds", get(b.mr(), WRITE_SLOT_OFFSET, length), WRITE_TEXT, out);
    }

    private static void expect(
        final WorkCompletion wc, final String endpoint, final WcOpcode opcode, final PrintWriter out)
    {
        out.printf("  completion on %s: wr_id %d, status %s, opcode %s, byte_len %d, qp_num 0x%06x%n",
            endpoint, wc.wrId(), wc.status(), wc.isSuccess() ? wc.opcode() : "-", wc.byteLen(), wc.qpNum());
        if (!wc.isSuccess())
        {
            throw new IllegalStateException(String.format("%s on QP %s (0x%06x) failed: status %s, vendor_err 0x%x",
                opcode, endpoint, wc.qpNum(), wc.status(), wc.vendorErr()));
        }
        if (wc.opcode() != opcode)
        {
            throw new IllegalStateException(
                "expected a " + opcode + " completion on QP " + endpoint + ", got " + wc.opcode());
        }
    }

    private static void check(final String what, final String actual, final String expected, final PrintWriter out)
    {
        out.printf("  %s: \"%s\"%n", what, actual);
        if (!expected.equals(actual))
        {
            throw new IllegalStateException(what + " \"" + actual + "\", expected \"" + expected + "\"");
        }
    }

    private static int put(final MemoryRegion mr, final int offset, final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        mr.buffer().put(offset, bytes);
        return bytes.length;
    }

    private static String get(final MemoryRegion mr, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        mr.buffer().get(offset, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
