package io.ibex.samples.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order in which a peer's last message and its DISCONNECTED event are seen, replayed with scripted doubles
 * of the completion queue and the event channel (a real pair shows each order only now and then).
 */
@Timeout(5) // each wait's own limit is 10 s: a test that ends in time ended at once
class CompletionWatchTest
{
    private static final long TIMEOUT_MILLIS = 10_000;

    private final ScriptedCq cq = new ScriptedCq();
    private final ScriptedChannel channel = new ScriptedChannel();
    // The QP only names itself in the message of a timeout, which these tests never reach.
    private final CompletionWatch watch =
        new CompletionWatch(null, cq, new CmSequence(channel, TIMEOUT_MILLIS, event -> { }));

    @Test
    void aReplyThatCompletedBeforeThePeerDisconnectedIsTakenThenTheNextWaitEndsAtOnce()
    {
        cq.emptyPolls = 1; // the first poll finds nothing; meanwhile the reply lands and the peer disconnects
        cq.results.add(new WorkCompletion().set(7, WcStatus.SUCCESS, WcOpcode.RECV, 0, 16, 0, 1, 0, 0, 0));
        channel.events.add(new CmEvent(CmEventType.DISCONNECTED, null, null, 0, null, 0, null));

        assertEquals(7, watch.await(WcOpcode.RECV, "the server's reply").wrId());

        final PeerDisconnectedException ex = assertThrows(PeerDisconnectedException.class,
            () -> watch.await(WcOpcode.RECV, "the next message"));
        assertEquals("the peer disconnected before the next message", ex.getMessage());
    }

    @Test
    void aDisconnectWithNothingToTakeEndsTheWaitAfterAShortGrace()
    {
        channel.events.add(new CmEvent(CmEventType.DISCONNECTED, null, null, 0, null, 0, null));

        final long start = System.nanoTime();
        final PeerDisconnectedException ex = assertThrows(PeerDisconnectedException.class,
            () -> watch.await(WcOpcode.RECV, "the server's reply"));
        assertEquals("the peer disconnected while awaiting the server's reply", ex.getMessage());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2), "ended well before the 10-s timeout");
    }

    @Test
    void aSendCompletionThatComesAfterTheDisconnectEventIsStillTaken()
    {
        // rxe: the peer acknowledged the SEND, then disconnected; the event came before the deferred completion
        channel.events.add(new CmEvent(CmEventType.DISCONNECTED, null, null, 0, null, 0, null));
        cq.emptyPolls = 50;
        cq.results.add(new WorkCompletion().set(8, WcStatus.SUCCESS, WcOpcode.SEND, 0, 0, 0, 1, 0, 0, 0));

        assertEquals(8, watch.await(WcOpcode.SEND, "the completion of the message").wrId());
    }

    @Test
    void aReplyThatCompletesBeforeTheOwnSendIsKeptForTheNextReceiveWait()
    {
        cq.results.add(new WorkCompletion().set(7, WcStatus.SUCCESS, WcOpcode.RECV, 0, 16, 0, 1, 0, 0, 0));
        cq.results.add(new WorkCompletion().set(8, WcStatus.SUCCESS, WcOpcode.SEND, 0, 0, 0, 1, 0, 0, 0));

        assertEquals(8, watch.await(WcOpcode.SEND, "the completion of the message").wrId());
        assertEquals(7, watch.await(WcOpcode.RECV, "the server's reply").wrId());
    }

    @Test
    void aSecondEarlyReceiveIsStillAnError()
    {
        cq.results.add(new WorkCompletion().set(7, WcStatus.SUCCESS, WcOpcode.RECV, 0, 16, 0, 1, 0, 0, 0));
        cq.results.add(new WorkCompletion().set(9, WcStatus.SUCCESS, WcOpcode.RECV, 0, 16, 0, 1, 0, 0, 0));

        final IllegalStateException ex = assertThrows(IllegalStateException.class,
            () -> watch.await(WcOpcode.SEND, "the completion of the message"));
        assertEquals("awaiting the completion of the message (SEND), got a RECV completion", ex.getMessage());
    }

    /** The first {@code emptyPolls} polls find nothing; each later one returns the next scripted completion. */
    private static final class ScriptedCq implements CompletionQueue
    {
        final Queue<WorkCompletion> results = new ArrayDeque<>();
        int emptyPolls;

        @Override
        public int poll(final WorkCompletion[] wcs, final int max)
        {
            if (emptyPolls > 0 || results.isEmpty())
            {
                emptyPolls--;
                return 0;
            }
            wcs[0].copyFrom(results.remove());
            return 1;
        }

        @Override
        public int poll(final WorkCompletion[] wcs)
        {
            return poll(wcs, wcs.length);
        }

        @Override
        public Context context()
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public int cqe()
        {
            return 1;
        }

        @Override
        public CompletionChannel channel()
        {
            return null;
        }

        @Override
        public void requestNotify(final boolean solicitedOnly)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isClosed()
        {
            return false;
        }

        @Override
        public void close()
        {
        }
    }

    /** Hands out the scripted events, then none. */
    private static final class ScriptedChannel implements EventChannel
    {
        final Queue<CmEvent> events = new ArrayDeque<>();

        @Override
        public CmEvent getEvent(final long timeoutMillis)
        {
            return events.poll();
        }

        @Override
        public CmId createId(final PortSpace portSpace)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isClosed()
        {
            return false;
        }

        @Override
        public void close()
        {
        }
    }
}
