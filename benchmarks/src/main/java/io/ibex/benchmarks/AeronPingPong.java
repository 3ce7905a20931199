package io.ibex.benchmarks;

import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * An Aeron ping-pong through an {@link EmbeddedAeron} driver: the caller's thread offers a message on the ping
 * stream and polls the pong stream for the echo; the echo thread polls the ping stream and offers each message
 * back on the pong stream. Both wait with the {@link AeronSetup}'s idle strategy; in the driver's {@code INVOKER}
 * threading mode the caller's thread runs the driver while it waits. Messages longer than a
 * fragment (the MTU less the header) are reassembled by a {@link FragmentAssembler}, created once per
 * subscriber; handlers are fields, so polling allocates nothing.
 */
final class AeronPingPong implements PingPong
{
    static final int PING_STREAM_ID = 1001;
    static final int PONG_STREAM_ID = 1002;
    /** Fragments taken per poll: a message of 4 KiB is 3 or 4 fragments. */
    static final int FRAGMENT_LIMIT = 16;

    private final EmbeddedAeron aeron;
    private final ExclusivePublication ping;
    private final Subscription pong;
    private final UnsafeBuffer message;
    private final FragmentHandler onPong = new FragmentAssembler(this::onPong);
    private final IdleStrategy idle;
    private final PeerThread echo;
    private boolean answered;

    /**
     * Starts the driver, connects both streams and starts the echo thread.
     *
     * @param transport     {@value Transports#AERON_UDP} or {@value Transports#AERON_IPC}.
     * @param messageLength bytes of the message each way.
     * @param setup         the driver's threading mode and the idle strategy of both threads.
     */
    AeronPingPong(final String transport, final int messageLength, final AeronSetup setup)
    {
        message = new UnsafeBuffer(ByteBuffer.allocateDirect(messageLength));
        idle = setup.newIdleStrategy();
        aeron = new EmbeddedAeron(transport, setup);
        try
        {
            ping = aeron.publication(PING_STREAM_ID);
            pong = aeron.subscription(PONG_STREAM_ID);
            final Subscription echoPings = aeron.subscription(PING_STREAM_ID);
            final ExclusivePublication echoPongs = aeron.publication(PONG_STREAM_ID);
            aeron.awaitConnected(new Publication[] { ping, echoPongs }, new Subscription[] { pong, echoPings });
            echo = new PeerThread(new Echo(echoPings, echoPongs, setup.newIdleStrategy()), setup.newIdleStrategy());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(aeron);
            throw ex;
        }
    }

    @Override
    public void roundTrip()
    {
        idle.reset();
        while (!EmbeddedAeron.offered(ping.offer(message, 0, message.capacity()), ping))
        {
            echo.checkAlive();
            idle.idle(aeron.invokeDriver());
        }
        answered = false;
        idle.reset();
        while (!answered)
        {
            final int work = aeron.invokeDriver() + pong.poll(onPong, FRAGMENT_LIMIT);
            if (work == 0)
            {
                echo.checkAlive();
            }
            idle.idle(work);
        }
    }

    private void onPong(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (length != message.capacity())
        {
            throw new IllegalStateException("a " + message.capacity() + "-byte ping was answered by " + length +
                " bytes");
        }
        answered = true;
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(echo, aeron);
    }

    /**
     * Offers every message that arrives back on the pong stream, retrying while the publication pushes back.
     */
    private static final class Echo implements Agent
    {
        private final Subscription pings;
        private final ExclusivePublication pongs;
        private final IdleStrategy offerIdle;
        private final FragmentHandler onPing = new FragmentAssembler(this::onPing);

        Echo(final Subscription pings, final ExclusivePublication pongs, final IdleStrategy offerIdle)
        {
            this.pings = pings;
            this.pongs = pongs;
            this.offerIdle = offerIdle;
        }

        @Override
        public int doWork()
        {
            return pings.poll(onPing, FRAGMENT_LIMIT);
        }

        private void onPing(final DirectBuffer buffer, final int offset, final int length, final Header header)
        {
            offerIdle.reset();
            while (!EmbeddedAeron.offered(pongs.offer(buffer, offset, length), pongs))
            {
                offerIdle.idle();
            }
        }

        @Override
        public String roleName()
        {
            return "aeron-echo";
        }
    }
}
