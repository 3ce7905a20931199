package io.ibex.samples.verbs;

import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WorkCompletion;
import io.ibex.samples.DeviceOptions;
import io.ibex.samples.RcEndpoint;
import io.ibex.samples.verbs.RdmaWriteDescriptor.Notice;
import io.ibex.samples.verbs.RdmaWriteDescriptor.Peer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.zip.CRC32;

/**
 * {@code ibex rdma-write}: the classic seed program of RDMA. Two processes exchange their queue pairs'
 * addresses and their buffers' address and rkey over TCP ({@link RdmaWriteDescriptor}), connect RC queue
 * pairs, and the server RDMA-WRITEs a message straight into the client's registered buffer; the client's CPU
 * takes no part until the server tells it the write is done. The client prints what arrived; both exit with 0
 * only when it arrived intact (same length and CRC-32 on both sides).
 */
@Command(
    name = "rdma-write",
    mixinStandardHelpOptions = true,
    description = {
        "Server: RDMA-WRITE a message into the client's registered buffer. Client (with HOST): print what " +
            "arrived.",
        "Both exit with 0 only when the message arrived intact."
    })
public final class RdmaWriteCommand implements Callable<Integer>
{
    private static final int QUEUE_DEPTH = 1;
    private static final long WRITE_WR_ID = 1;

    @Mixin
    private DeviceOptions deviceOptions;

    @Mixin
    private OutOfBandOptions outOfBand;

    @Option(names = { "-g", "--gid-idx" }, paramLabel = "INDEX", defaultValue = "1",
        description = "Address by the GID at this index (default: ${DEFAULT-VALUE}, the IPv4-mapped GID; " +
            "-1 addresses by LID on InfiniBand).")
    private int gidIndex;

    @Option(names = { "-s", "--size" }, paramLabel = "SIZE", defaultValue = "4096",
        description = "Client: bytes of the buffer the server writes into (default: ${DEFAULT-VALUE}).")
    private long size;

    @Option(names = { "-m", "--message" }, paramLabel = "TEXT",
        defaultValue = "Hello from the ibex rdma-write server, placed by RDMA WRITE",
        description = "Server: the text to write into the client's buffer (default: \"${DEFAULT-VALUE}\").")
    private String message;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the server or the client.
     *
     * @return 0 when the message arrived intact; failures are thrown.
     */
    @Override
    public Integer call()
    {
        outOfBand.check();
        final PrintWriter out = spec.commandLine().getOut();
        final Device device = deviceOptions.device(deviceOptions.provider());
        if (!outOfBand.isClient())
        {
            serve(out, device);
        }
        else
        {
            request(out, device);
        }
        out.flush();
        return 0;
    }

    private void serve(final PrintWriter out, final Device device)
    {
        final byte[] text = message.getBytes(StandardCharsets.UTF_8);
        if (text.length == 0)
        {
            throw new IllegalArgumentException("-m/--message is empty: there would be nothing to write");
        }
        try (RcEndpoint endpoint =
            RcEndpoint.open(device, deviceOptions.portNum(), gidIndex, text.length, QUEUE_DEPTH))
        {
            endpoint.mr().buffer().put(0, text);
            final Peer local = peer(endpoint);
            final ServerSocket listener = outOfBand.listen();
            out.println("  local address:  " + local.endpoint() + "; " + local.bufferText());
            out.flush();
            try (OutOfBandSocket client = outOfBand.accept(listener))
            {
                final Peer remote = readAddress(client);
                out.println("  remote address: " + remote.endpoint() + "; " + remote.bufferText());
                if (text.length > remote.length())
                {
                    throw new IllegalStateException("the " + text.length + "-byte message does not fit the " +
                        "client's buffer of " + remote.length() + " bytes");
                }
                endpoint.connect(remote.endpoint());
                client.write(RdmaWriteDescriptor.encodeAddress(local), "our address message");
                readNotice(client, RdmaWriteDescriptor.READY);

                final SendWorkRequest write = new SendWorkRequest().wrId(WRITE_WR_ID).opcode(SendOpcode.RDMA_WRITE)
                    .sendFlags(SendFlags.SIGNALED).remote(remote.address(), remote.rkey());
                write.sge(0).set(endpoint.mr(), 0, text.length);
                out.printf("RDMA WRITE of %d bytes to 0x%x (rkey 0x%x): \"%s\"%n",
                    text.length, remote.address(), remote.rkey(), message);
                out.flush();
                endpoint.qp().postSend(write);
                checkWrite(endpoint.awaitCompletion(
                    outOfBand.timeoutMillis(), "the RDMA WRITE into the client's buffer"));

                final int crc = crc32(endpoint.mr().buffer(), text.length);
                client.write(RdmaWriteDescriptor.encodeNotice(
                    new Notice(RdmaWriteDescriptor.WRITTEN, text.length, crc)), "the WRITTEN notice");
                final Notice arrived = readNotice(client, RdmaWriteDescriptor.ARRIVED);
                if (arrived.length() != text.length || arrived.crc() != crc)
                {
                    throw new IllegalStateException(String.format("the client found %d bytes with CRC-32 0x%08x " +
                        "where we wrote %d bytes with CRC-32 0x%08x", arrived.length(), arrived.crc(), text.length,
                        crc));
                }
            }
            out.printf("done: the client found the %d bytes intact%n", text.length);
        }
    }

    private void request(final PrintWriter out, final Device device)
    {
        final int bufferLength = RcPingpongCommand.checkedSize(size);
        try (RcEndpoint endpoint =
            RcEndpoint.open(device, deviceOptions.portNum(), gidIndex, bufferLength, QUEUE_DEPTH))
        {
            final Peer local = peer(endpoint);
            out.println("  local address:  " + local.endpoint() + "; " + local.bufferText());
            out.flush();
            try (OutOfBandSocket server = outOfBand.connect())
            {
                server.write(RdmaWriteDescriptor.encodeAddress(local), "our address message");
                final Peer remote = readAddress(server);
                out.println("  remote address: " + remote.endpoint() + "; " + remote.bufferText());
                out.flush();
                endpoint.connect(remote.endpoint());
                server.write(RdmaWriteDescriptor.encodeNotice(new Notice(RdmaWriteDescriptor.READY, 0, 0)),
                    "the READY notice");

                final Notice written = readNotice(server, RdmaWriteDescriptor.WRITTEN);
                if (written.length() > bufferLength)
                {
                    throw new IllegalStateException("the server says it wrote " + written.length() +
                        " bytes into our buffer of " + bufferLength);
                }
                final ByteBuffer buffer = endpoint.mr().buffer();
                final byte[] arrived = new byte[written.length()];
                buffer.get(0, arrived);
                final int crc = crc32(buffer, arrived.length);
                out.printf("arrived: %d bytes at 0x%x: \"%s\"%n",
                    arrived.length, endpoint.mr().address(), new String(arrived, StandardCharsets.UTF_8));
                out.flush();
                server.write(RdmaWriteDescriptor.encodeNotice(
                    new Notice(RdmaWriteDescriptor.ARRIVED, arrived.length, crc)), "the ARRIVED notice");
                if (crc != written.crc())
                {
                    throw new IllegalStateException(String.format("the %d bytes in our buffer are not what the " +
                        "server wrote: CRC-32 0x%08x, the server's 0x%08x", arrived.length, crc, written.crc()));
                }
            }
            out.println("done: the message arrived intact");
        }
    }

    private static Peer peer(final RcEndpoint endpoint)
    {
        return new Peer(endpoint.address(), endpoint.mr().address(), endpoint.mr().rkey(),
            (int)endpoint.mr().length());
    }

    private static Peer readAddress(final OutOfBandSocket connection)
    {
        final byte[] bytes = new byte[RdmaWriteDescriptor.ADDRESS_LENGTH];
        connection.readFully(bytes, "its address message");
        try
        {
            return RdmaWriteDescriptor.decodeAddress(bytes);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException("the peer at " + connection.peer() + " sent a malformed address " +
                "message: " + ex.getMessage(), ex);
        }
    }

    private static Notice readNotice(final OutOfBandSocket connection, final int kind)
    {
        final byte[] bytes = new byte[RdmaWriteDescriptor.NOTICE_LENGTH];
        connection.readFully(bytes, "its " + RdmaWriteDescriptor.kindName(kind) + " notice");
        try
        {
            return RdmaWriteDescriptor.decodeNotice(bytes, kind);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException("the peer at " + connection.peer() + " sent a malformed notice: " +
                ex.getMessage(), ex);
        }
    }

    private static void checkWrite(final WorkCompletion wc)
    {
        if (!wc.isSuccess() || wc.opcode() != WcOpcode.RDMA_WRITE)
        {
            throw new IllegalStateException(String.format("the RDMA WRITE failed: status %s (%d), opcode %s, " +
                "vendor_err 0x%x", wc.status(), wc.status().value(), wc.isSuccess() ? wc.opcode() : "-",
                wc.vendorErr()));
        }
    }

    private static int crc32(final ByteBuffer buffer, final int length)
    {
        final CRC32 crc = new CRC32();
        crc.update(buffer.duplicate().position(0).limit(length));
        return (int)crc.getValue();
    }
}
