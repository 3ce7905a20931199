package io.ibex.benchmarks;

/**
 * A ping-pong between two endpoints of one process: the caller's thread sends a message and polls until the
 * echo comes back; the echo side polls on its own thread. Both loops allocate nothing. {@link Transports#pingPong}
 * opens one on a transport.
 */
interface PingPong extends AutoCloseable
{
    /**
     * Sends one message and waits, polling, for its echo.
     */
    void roundTrip();

    /**
     * Stops the echo thread and releases both endpoints.
     */
    @Override
    void close();
}
