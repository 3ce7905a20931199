package io.ibex.benchmarks;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * A one-way stream of messages of one length between two endpoints of one process: a {@link Sender} on its own
 * thread sends as fast as the transport's flow control lets it (TCP's window, Aeron's back-pressure, RC credits),
 * and the caller's thread receives and counts them. {@link Transports#stream} opens one on a transport.
 */
abstract class MessageStream implements AutoCloseable
{
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final IdleStrategy idle;
    private Sender sender;
    private PeerThread senderThread;

    /**
     * @param idle what {@link #awaitMessages()} does between polls that found nothing.
     */
    MessageStream(final IdleStrategy idle)
    {
        this.idle = idle;
    }

    /**
     * Starts the sender on its own thread; the subclass calls it once its endpoints are connected.
     *
     * @param sender     the sending side.
     * @param senderIdle what the sender's thread does when it could not send.
     */
    final void startSender(final Sender sender, final IdleStrategy senderIdle)
    {
        this.sender = sender;
        this.senderThread = new PeerThread(sender, senderIdle);
    }

    /**
     * Polls the receiving end once, without waiting.
     *
     * @return how many whole messages arrived.
     */
    abstract int poll();

    /**
     * Polls until at least one message arrived.
     *
     * @return how many whole messages arrived, at least one.
     * @throws IllegalStateException if the sender's thread has failed.
     */
    final int awaitMessages()
    {
        idle.reset();
        int received;
        while ((received = poll()) == 0)
        {
            senderThread.checkAlive();
            idle.idle();
        }
        return received;
    }

    /**
     * Stops the sender, then receives what it sent that has not been received yet.
     *
     * @param received how many messages the caller has received so far.
     * @return how many messages the caller has received in all: as many as were sent.
     * @throws IllegalStateException if the sender failed, or if messages are still missing after 30 s.
     */
    final long drain(final long received)
    {
        senderThread.close();
        senderThread.checkAlive();
        final long sent = sender.sentInAll();
        long total = received;
        final long deadline = System.nanoTime() + DRAIN_TIMEOUT_NANOS;
        while (total < sent && System.nanoTime() - deadline < 0)
        {
            total += poll();
        }
        if (total != sent)
        {
            throw new IllegalStateException(this + ": " + sent + " messages sent, " + total + " received");
        }
        return total;
    }

    /**
     * Stops the sender's thread, then closes the transport.
     */
    @Override
    public final void close()
    {
        try
        {
            CloseHelper.close(senderThread);
        }
        finally
        {
            closeTransport();
        }
    }

    /**
     * Releases both endpoints; the sender's thread has stopped.
     */
    abstract void closeTransport();

    /**
     * The sending side's duty cycle: each one sends as much as flow control lets it, and counts the messages.
     */
    abstract static class Sender implements Agent
    {
        private static final long RUNNING = -1;

        private long sent;
        private volatile long sentInAll = RUNNING;

        @Override
        public final int doWork() throws Exception
        {
            final int count = send();
            sent += count;
            return count;
        }

        /**
         * Sends what flow control allows now, without waiting.
         *
         * @return how many whole messages went out.
         * @throws Exception if the transport fails.
         */
        abstract int send() throws Exception;

        /** Publishes the count to the thread that stopped this one. */
        @Override
        public final void onClose()
        {
            sentInAll = sent;
        }

        /**
         * @return how many messages were sent in all.
         * @throws IllegalStateException if the sender's thread has not stopped yet.
         */
        final long sentInAll()
        {
            final long count = sentInAll;
            if (count == RUNNING)
            {
                throw new IllegalStateException(roleName() + " has not stopped");
            }
            return count;
        }
    }
}
