package io.ibex.benchmarks;

import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * A stream of messages on one Aeron stream through an {@link EmbeddedAeron} driver: the sender offers one message
 * per duty cycle, and the publication pushes back (the offer returns {@code BACK_PRESSURED}) while the
 * subscriber is a window behind, so nothing is dropped; the receiver polls and counts whole messages (reassembled
 * by a {@link FragmentAssembler} when longer than a fragment), and runs the driver before each poll in its
 * {@code INVOKER} threading mode. Both wait with the {@link AeronSetup}'s idle strategy.
 */
final class AeronStream extends MessageStream
{
    static final int STREAM_ID = 1003;
    /** Fragments taken per poll, as in Aeron's throughput samples' order of magnitude. */
    static final int FRAGMENT_LIMIT = 64;

    private final EmbeddedAeron aeron;
    private final Subscription subscription;
    private final FragmentHandler onMessage = new FragmentAssembler(this::onMessage);
    private int received;

    /**
     * Starts the driver, connects the stream and starts the sender.
     *
     * @param transport     {@value Transports#AERON_UDP} or {@value Transports#AERON_IPC}.
     * @param messageLength bytes of each message.
     * @param setup         the driver's threading mode and the idle strategy of both threads.
     */
    AeronStream(final String transport, final int messageLength, final AeronSetup setup)
    {
        super(setup.newIdleStrategy());
        aeron = new EmbeddedAeron(transport, setup);
        try
        {
            final ExclusivePublication publication = aeron.publication(STREAM_ID);
            subscription = aeron.subscription(STREAM_ID);
            aeron.awaitConnected(new Publication[] { publication }, new Subscription[] { subscription });
            startSender(new Sender(publication, messageLength), setup.newIdleStrategy());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(aeron);
            throw ex;
        }
    }

    @Override
    int poll()
    {
        aeron.invokeDriver();
        received = 0;
        subscription.poll(onMessage, FRAGMENT_LIMIT);
        return received;
    }

    private void onMessage(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        received++;
    }

    @Override
    void closeTransport()
    {
        CloseHelper.close(aeron);
    }

    /**
     * Offers one message per duty cycle.
     */
    private static final class Sender extends MessageStream.Sender
    {
        private final ExclusivePublication publication;
        private final UnsafeBuffer message;

        Sender(final ExclusivePublication publication, final int messageLength)
        {
            this.publication = publication;
            this.message = new UnsafeBuffer(ByteBuffer.allocateDirect(messageLength));
        }

        @Override
        int send()
        {
            return EmbeddedAeron.offered(publication.offer(message, 0, message.capacity()), publication) ? 1 : 0;
        }

        @Override
        public String roleName()
        {
            return "aeron-stream-sender";
        }
    }
}
