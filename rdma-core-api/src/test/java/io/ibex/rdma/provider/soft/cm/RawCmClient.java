package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.SoftFrames;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An attacker's client of the soft connection manager and of the device behind it, on raw sockets. It sends a REQ
 * claiming an endpoint nothing serves (127.0.0.1:1, lower than any device's, so the target's QP waits for the link),
 * takes the REP (and the link token in it) and answers with an RTU; then it opens the link itself, with a HELLO of
 * its choosing, and writes SEND frames on it.
 */
final class RawCmClient implements AutoCloseable
{
    /** The QPN the client claims. */
    static final int QPN = 0x51;
    /** The starting PSN the client claims: its first SEND's. */
    static final int PSN = 0x1234;
    /** The port of the endpoint the client claims. */
    static final int PORT = 1;

    private final Socket cm = new Socket();
    private final DataInputStream in;
    private final CmMessage message = new CmMessage();
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocate(CmMessageDescriptor.MAX_FRAME_LENGTH));
    private final Socket link = new Socket();
    private byte[] token;
    private byte[] replyData;
    private int targetQpn;

    /**
     * Connects to a listening id and sends the REQ.
     */
    RawCmClient(final InetSocketAddress target) throws IOException
    {
        this(target, new byte[0]);
    }

    /**
     * Connects to a listening id and sends the REQ with {@code privateData}.
     */
    RawCmClient(final InetSocketAddress target, final byte[] privateData) throws IOException
    {
        cm.connect(target, 5_000);
        cm.setSoTimeout(5_000);
        in = new DataInputStream(cm.getInputStream());
        message.wrap(buffer, 0).header(CmMessageDescriptor.TYPE_REQ, PortSpace.TCP).qpNum(QPN).startPsn(PSN)
            .resources(1, 1, 7, 7).gid(SoftGidDescriptor.encode(1, loopback(), PORT)).privateData(privateData);
        cm.getOutputStream().write(buffer.byteArray(), 0, message.frameLength());
    }

    /**
     * Reads the REP (once the target accepted) and answers with the RTU: the handshake is complete.
     */
    void completeHandshake() throws IOException
    {
        final byte[] header = new byte[CmMessageDescriptor.HEADER_LENGTH];
        in.readFully(header);
        final CmMessage rep = new CmMessage().wrap(new UnsafeBuffer(header), 0);
        if (rep.type() != CmMessageDescriptor.TYPE_REP)
        {
            throw new IOException("the target answered the REQ with message type " + rep.type() + ", not a REP");
        }
        replyData = new byte[rep.privateDataLength()];
        in.readFully(replyData);
        token = rep.linkToken();
        targetQpn = rep.qpNum();
        message.wrap(buffer, 0).header(CmMessageDescriptor.TYPE_RTU, PortSpace.TCP);
        cm.getOutputStream().write(buffer.byteArray(), 0, message.frameLength());
    }

    /** @return a copy of the REP's private data. */
    byte[] replyData()
    {
        return replyData.clone();
    }

    /** @return a copy of the link token the REP carried. */
    byte[] token()
    {
        return token.clone();
    }

    /**
     * @param linkToken the token to send.
     * @return the HELLO of the claimed endpoint's QP naming the target's QP, carrying {@code linkToken}.
     */
    ByteBuffer hello(final byte[] linkToken) throws IOException
    {
        return hello(linkToken, QPN, targetQpn);
    }

    /**
     * @return the HELLO of the claimed endpoint's QP {@code srcQpn} naming the target's QP {@code dstQpn}, carrying
     *     {@code linkToken}.
     */
    ByteBuffer hello(final byte[] linkToken, final int srcQpn, final int dstQpn) throws IOException
    {
        final ByteBuffer hello = ByteBuffer.allocate(SoftFrames.HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        hello.putInt(SoftFrames.HELLO_MAGIC_OFFSET, SoftFrames.HELLO_MAGIC);
        hello.putInt(SoftFrames.HELLO_VERSION_OFFSET, SoftFrames.HELLO_VERSION);
        hello.putInt(SoftFrames.HELLO_SRC_IPV4_OFFSET, SoftGidDescriptor.ipv4(
            SoftGidDescriptor.encode(1, loopback(), PORT)));
        hello.putInt(SoftFrames.HELLO_SRC_PORT_OFFSET, PORT);
        hello.putInt(SoftFrames.HELLO_SRC_QPN_OFFSET, srcQpn);
        hello.putInt(SoftFrames.HELLO_DST_QPN_OFFSET, dstQpn);
        hello.put(SoftFrames.HELLO_TOKEN_OFFSET, linkToken);
        return hello;
    }

    /**
     * Opens the link to the device at {@code devicePort} and sends {@code hello} (from its position to its limit),
     * then {@code sends} SEND frames of {@code payload}, without waiting for anything in between.
     */
    void openLink(final int devicePort, final ByteBuffer hello, final int sends, final byte[] payload)
        throws IOException
    {
        link.connect(new InetSocketAddress(loopback(), devicePort), 5_000);
        link.setTcpNoDelay(true);
        final ByteBuffer frames = ByteBuffer.allocate(sends * (SoftFrames.HEADER_LENGTH + payload.length))
            .order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < sends; i++)
        {
            final int at = frames.position();
            frames.put(at + SoftFrames.OPCODE_OFFSET, SoftFrames.OP_SEND);
            frames.put(at + SoftFrames.FLAGS_OFFSET, SoftFrames.FLAG_ACK_REQUEST);
            frames.putInt(at + SoftFrames.PSN_OFFSET, (PSN + i) & SoftFrames.PSN_MASK);
            frames.putInt(at + SoftFrames.ACK_PSN_OFFSET, SoftFrames.PSN_MASK);
            frames.putInt(at + SoftFrames.SEGMENT_LENGTH_OFFSET, payload.length);
            frames.putInt(at + SoftFrames.MESSAGE_LENGTH_OFFSET, payload.length);
            frames.put(at + SoftFrames.HEADER_LENGTH, payload);
            frames.position(at + SoftFrames.HEADER_LENGTH + payload.length);
        }
        link.getOutputStream().write(hello.array(), hello.position(), hello.remaining());
        link.getOutputStream().write(frames.array(), 0, frames.position());
    }

    /**
     * @param millis how long to wait.
     * @return whether the device closed the link within that time (whatever it sent before is skipped).
     */
    boolean linkClosed(final long millis) throws IOException
    {
        link.setSoTimeout((int)millis);
        final byte[] sink = new byte[4096];
        try
        {
            while (link.getInputStream().read(sink) >= 0)
            {
                // an ACK of an accepted link: keep reading until the timeout
            }
            return true;
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final SocketException ex)
        {
            return true; // reset: the device closed it
        }
    }

    /** @return the local address of the link, as the device sees its peer. */
    String linkAddress()
    {
        return String.valueOf(link.getLocalSocketAddress());
    }

    @Override
    public void close() throws IOException
    {
        link.close();
        cm.close();
    }

    private static Inet4Address loopback() throws IOException
    {
        return (Inet4Address)InetAddress.getByName("127.0.0.1");
    }
}
