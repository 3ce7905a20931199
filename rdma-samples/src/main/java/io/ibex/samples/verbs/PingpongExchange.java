package io.ibex.samples.verbs;

import io.ibex.samples.EndpointAddress;

import java.util.function.Consumer;

/**
 * The TCP exchange of {@code ibv_rc_pingpong} and {@code ibv_ud_pingpong}, byte for byte (see
 * {@link PingpongMessageDescriptor}): the client sends its address, the server connects its queue pair to the
 * client's and answers with its own address, and the client closes the exchange with "done".
 */
final class PingpongExchange
{
    private static final String ADDRESS = "its address message";
    private static final String DONE = "its closing \"done\"";

    private PingpongExchange()
    {
    }

    /**
     * The server's side: reads the client's address, connects to it, answers, and awaits "done".
     *
     * @param connection the connection to the client.
     * @param local      this endpoint's address.
     * @param connect    connects this endpoint's queue pair to the client's address.
     * @return the client's address.
     */
    static EndpointAddress serve(
        final OutOfBandSocket connection, final EndpointAddress local, final Consumer<EndpointAddress> connect)
    {
        final EndpointAddress remote = readAddress(connection);
        connect.accept(remote);
        connection.write(PingpongMessageDescriptor.encode(local), "our address message");
        final byte[] done = new byte[PingpongMessageDescriptor.done().length];
        connection.readFully(done, DONE);
        if (!PingpongMessageDescriptor.isDone(done))
        {
            throw new IllegalStateException("the peer at " + connection.peer() + " ended the exchange with " +
                hex(done) + ", expected \"done\" and NUL (64 6f 6e 65 00)");
        }
        return remote;
    }

    /**
     * The client's side: sends this endpoint's address, reads the server's, and sends "done".
     *
     * @param connection the connection to the server.
     * @param local      this endpoint's address.
     * @return the server's address.
     */
    static EndpointAddress request(final OutOfBandSocket connection, final EndpointAddress local)
    {
        connection.write(PingpongMessageDescriptor.encode(local), "our address message");
        final EndpointAddress remote = readAddress(connection);
        connection.write(PingpongMessageDescriptor.done(), "\"done\"");
        return remote;
    }

    private static EndpointAddress readAddress(final OutOfBandSocket connection)
    {
        final byte[] message = new byte[PingpongMessageDescriptor.LENGTH];
        connection.readFully(message, ADDRESS);
        try
        {
            return PingpongMessageDescriptor.decode(message);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalStateException("the peer at " + connection.peer() +
                " sent a malformed address message: " + ex.getMessage(), ex);
        }
    }

    private static String hex(final byte[] bytes)
    {
        final StringBuilder text = new StringBuilder(3 * bytes.length);
        for (final byte b : bytes)
        {
            text.append(text.length() > 0 ? " " : "").append(String.format("%02x", b & 0xff));
        }
        return text.toString();
    }
}
