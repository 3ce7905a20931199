package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/**
 * An attacker's client of the soft connection manager, as a raw socket: it sends a REQ that claims an endpoint
 * nothing serves (127.0.0.1:1, lower than any device's, so the target waits for a link that never comes), takes
 * the REP, answers with an RTU, and then only holds the socket. To the target it is a source whose handshake
 * completed and whose data link never opens.
 */
public final class CmSquatter implements AutoCloseable
{
    private final Socket socket = new Socket();
    private DataInputStream in;
    private final CmMessage message = new CmMessage();
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocate(CmMessageDescriptor.HEADER_LENGTH));

    /**
     * Connects and completes the handshake.
     *
     * @param target the listening target's address.
     * @throws IOException if the target does not answer the REQ with a REP (a rejection, say).
     */
    public CmSquatter(final InetSocketAddress target) throws IOException
    {
        try
        {
            socket.connect(target, 5_000);
            socket.setSoTimeout(5_000);
            in = new DataInputStream(socket.getInputStream());
            message.wrap(buffer, 0).header(CmMessageDescriptor.TYPE_REQ, PortSpace.TCP).qpNum(0x51)
                .startPsn(0x1234).resources(1, 1, 7, 7)
                .gid(SoftGidDescriptor.encode(0, (Inet4Address)InetAddress.getLoopbackAddress(), 1)).privateData(new byte[0]);
            write();
            final int type = readType();
            if (type != CmMessageDescriptor.TYPE_REP)
            {
                throw new IOException("the target answered the REQ with message type " + type + ", not a REP");
            }
            message.wrap(buffer, 0).header(CmMessageDescriptor.TYPE_RTU, PortSpace.TCP);
            write();
        }
        catch (final IOException | RuntimeException ex)
        {
            socket.close();
            throw ex;
        }
    }

    /**
     * @param millis how long to wait.
     * @return whether the target ended the connection (a DREQ, a REJ or end of stream) within that time.
     */
    public boolean awaitDropped(final long millis) throws IOException
    {
        socket.setSoTimeout((int)millis);
        try
        {
            final int type = readType();
            return type < 0 || type == CmMessageDescriptor.TYPE_DREQ || type == CmMessageDescriptor.TYPE_REJ;
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final SocketException ex)
        {
            return true; // reset: the target closed it
        }
    }

    private void write() throws IOException
    {
        socket.getOutputStream().write(buffer.byteArray(), 0, message.frameLength());
    }

    /** @return the type of the next frame (its header read, the rest skipped), or -1 at end of stream. */
    private int readType() throws IOException
    {
        final byte[] header = new byte[CmMessageDescriptor.HEADER_LENGTH];
        try
        {
            in.readFully(header);
        }
        catch (final EOFException ex)
        {
            return -1;
        }
        final CmMessage received = new CmMessage().wrap(new UnsafeBuffer(header), 0);
        in.skipNBytes(received.privateDataLength());
        return received.type();
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
