package io.ibex.benchmarks;

import io.ibex.rdma.Provider;
import org.agrona.concurrent.BusySpinIdleStrategy;

/**
 * A stream of RC SENDs between the two queue pairs of an {@link RcPair}, with credit-based flow control as RC
 * applications do it: the receiver keeps {@value #WINDOW} receives posted, the sender sends only while it holds a
 * credit (it starts with {@value #WINDOW}), and the receiver returns {@value #CREDIT_BATCH} credits in one
 * {@value #CREDIT_LENGTH}-byte SEND after it has re-posted that many receives. So a SEND never finds the receive
 * queue empty: no RNR NAK, whose retry would stall the stream for the RNR timer (0.64 ms). The send queue
 * ({@value #WINDOW} deep, every SEND signaled) bounds the SENDs in flight as well. Both sides busy-poll.
 */
final class RcStream extends MessageStream
{
    /** Receives the receiver keeps posted, and the sender's credits at the start. */
    static final int WINDOW = 128;
    /** Credits returned per credit message. */
    static final int CREDIT_BATCH = WINDOW / 4;
    /** Bytes of a credit message (a message's worth of credits is implied: one message is {@value #CREDIT_BATCH}). */
    static final int CREDIT_LENGTH = 8;

    private final RcPair endpoints;
    private final RcMessenger receiver;
    private int toReturn;

    /**
     * Connects the two queue pairs and starts the sender.
     *
     * @param provider      the provider whose first device both endpoints open.
     * @param messageLength bytes of each message.
     */
    RcStream(final Provider provider, final int messageLength)
    {
        super(new BusySpinIdleStrategy());
        endpoints = new RcPair(provider, RcMessenger.bufferLength(messageLength, CREDIT_LENGTH), WINDOW);
        receiver = new RcMessenger(endpoints.client(), WINDOW, CREDIT_LENGTH, messageLength);
        startSender(new Sender(new RcMessenger(endpoints.server(), WINDOW, messageLength, CREDIT_LENGTH)),
            new BusySpinIdleStrategy());
    }

    @Override
    int poll()
    {
        final int received = receiver.poll();
        toReturn += received;
        while (toReturn >= CREDIT_BATCH)
        {
            receiver.send();
            toReturn -= CREDIT_BATCH;
        }
        return received;
    }

    @Override
    void closeTransport()
    {
        endpoints.close();
    }

    /**
     * Sends one message per duty cycle while it holds a credit.
     */
    private static final class Sender extends MessageStream.Sender
    {
        private final RcMessenger messenger;
        private long credits = WINDOW;

        Sender(final RcMessenger messenger)
        {
            this.messenger = messenger;
        }

        @Override
        int send()
        {
            credits += (long)CREDIT_BATCH * messenger.poll();
            if (credits == 0)
            {
                return 0;
            }
            messenger.send();
            credits--;
            return 1;
        }

        @Override
        public String roleName()
        {
            return "rc-stream-sender";
        }
    }
}
