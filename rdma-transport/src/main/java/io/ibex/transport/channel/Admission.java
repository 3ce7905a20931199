package io.ibex.transport.channel;

import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A target's connections between accept and proof. A connection holds the target only once it is set up
 * completely: rdma_cm's handshake done, then the peer's queue pair answering a zero-length RDMA WRITE on the
 * connection's RC queue pair (the probe: it needs no key and no posted receive, and its ACK can only come from a
 * live queue pair at the other end of a working link), or the first message from the peer's queue pair arriving
 * on it (which proves as much, and comes first when the probe is slow: on rxe it sometimes stays unanswered for
 * longer than a short-lived source lives). Up to {@link #SLOTS} connections are set up at once, so a
 * half-open one cannot keep a real source out; the first proven wins, and one not proven within
 * in.admission_timeout is dropped. A new request when every slot is taken pushes out the oldest: a connection
 * being set up keeps its place while {@link #SLOTS} more requests are taken, and the connector takes every other
 * event before a request, so a real peer, which proves itself within a round trip of rdma_cm's handshake, is not
 * starved by a flood of half-open ones (each costs the target a queue pair until pushed out).
 * <p>
 * The connection that holds the target is probed the same way when another source asks to connect: a source gone
 * without a word (its host lost its link or crashed, so its disconnect never came) leaves that connection half-open,
 * and a target that only receives would otherwise turn every new source away for ever.
 * <p>
 * The connector's thread only; probe completions arrive through the send path, which polls the shared CQ.
 */
final class Admission
{
    /** How many connections a target sets up at once. */
    static final int SLOTS = 16;
    /** Work request ids with this bit set are probes: a send's id is a running count from 0. */
    static final long PROBE = Long.MIN_VALUE;

    private final long timeoutNanos;
    private final List<Candidate> candidates = new ArrayList<>(SLOTS);
    /** The connection holding the target while its probe is out or failed, else null. */
    private Candidate holder;
    private final SendWorkRequest probe = new SendWorkRequest(1).opcode(SendOpcode.RDMA_WRITE).numSge(0)
        .remote(0, 0).sendFlags(SendFlags.SIGNALED);
    private long nextProbe;

    /** @param timeoutNanos in.admission_timeout. */
    Admission(final long timeoutNanos)
    {
        this.timeoutNanos = timeoutNanos;
    }

    boolean isEmpty()
    {
        return candidates.isEmpty();
    }

    /** @return whether a new request takes the oldest connection's slot. */
    boolean isFull()
    {
        return candidates.size() >= SLOTS;
    }

    /** @return the connection accepted longest ago, or null. */
    Connection oldest()
    {
        return candidates.isEmpty() ? null : candidates.get(0).connection;
    }

    /** Starts the clock of a connection just accepted. */
    void add(final Connection connection, final long nowNanos)
    {
        candidates.add(new Candidate(connection, nowNanos));
    }

    void remove(final Connection connection)
    {
        candidates.removeIf(candidate -> candidate.connection == connection);
        holder = holder != null && holder.connection == connection ? null : holder;
    }

    /** @return whether this connection is being set up. */
    boolean contains(final Connection connection)
    {
        return candidate(connection) != null;
    }

    /** @return the connection being set up whose id or queue pair this is, or null. */
    Connection find(final Object idOrQp)
    {
        for (final Candidate candidate : candidates)
        {
            final Connection connection = candidate.connection;
            if (connection.id() == idOrQp || connection.qp() == idOrQp || connection.id().qp() == idOrQp)
            {
                return connection;
            }
        }
        return null;
    }

    /**
     * rdma_cm says the connection is established: probes the peer's queue pair.
     *
     * @return null, or why the probe could not be posted.
     */
    String established(final Connection connection)
    {
        final Candidate candidate = candidate(connection);
        return candidate == null ? null : post(candidate);
    }

    /**
     * Another source asks to connect while this connection holds the target: probes the holder's peer, unless its
     * probe is out already. One that cannot be posted (a send queue full of the target's own sends) is not.
     */
    void probeHolder(final Connection connection)
    {
        if (holder == null || holder.connection != connection || holder.status == WcStatus.SUCCESS)
        {
            holder = new Candidate(connection, 0);
            if (post(holder) != null)
            {
                holder = null;
            }
        }
    }

    /** @return whether the holder's probe is out or failed, so that {@link #goneHolder} may name it. */
    boolean isProbingHolder()
    {
        return holder != null && holder.status != WcStatus.SUCCESS;
    }

    /** @return the connection holding the target if its peer did not answer the probe: its source is gone. */
    Connection goneHolder()
    {
        return holder != null && holder.status != null && holder.status != WcStatus.SUCCESS ? holder.connection : null;
    }

    /** @return why {@link #goneHolder} names its connection, for the log. */
    String whyGone()
    {
        return "its source did not answer the probe of its queue pair (" + holder.status + ") sent when another " +
            "source asked to connect: it is gone";
    }

    private String post(final Candidate candidate)
    {
        candidate.probeId = PROBE | nextProbe++;
        probe.wrId(candidate.probeId);
        try
        {
            candidate.connection.id().qp().postSend(probe);
            return null;
        }
        catch (final PostException ex)
        {
            return "posting the probe of its queue pair failed: " + ex.getMessage();
        }
    }

    /** Takes a probe's completion (a stale one, of a connection gone already, is ignored). */
    void completed(final long wrId, final WcStatus status)
    {
        for (final Candidate candidate : candidates)
        {
            if (candidate.probeId == wrId)
            {
                candidate.status = status;
            }
        }
        if (holder != null && holder.probeId == wrId)
        {
            holder.status = status;
        }
    }

    /** @return the first connection whose peer answered the probe, or null. */
    Connection proven()
    {
        for (final Candidate candidate : candidates)
        {
            if (candidate.status == WcStatus.SUCCESS)
            {
                return candidate.connection;
            }
        }
        return null;
    }

    /** @return a connection to drop now, as its probe failed or its time ran out, or null. */
    Connection failed(final long nowNanos)
    {
        for (final Candidate candidate : candidates)
        {
            if ((candidate.status != null && candidate.status != WcStatus.SUCCESS) ||
                nowNanos - candidate.acceptedNanos > timeoutNanos)
            {
                return candidate.connection;
            }
        }
        return null;
    }

    /** @return why {@link #failed} names this connection, for the log. */
    String whyFailed(final Connection connection)
    {
        final Candidate candidate = candidate(connection);
        if (candidate.status != null)
        {
            return "its peer did not answer the probe of its queue pair (" + candidate.status + ")";
        }
        return "not set up within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms (in.admission_timeout): " +
            (candidate.probeId == 0 ? "rdma_cm's handshake did not finish" : "its peer's queue pair did not answer");
    }

    private Candidate candidate(final Connection connection)
    {
        for (final Candidate candidate : candidates)
        {
            if (candidate.connection == connection)
            {
                return candidate;
            }
        }
        return null;
    }

    /** A connection being set up: when it was accepted, its probe's id once posted (else 0) and completion. */
    private static final class Candidate
    {
        private final Connection connection;
        private final long acceptedNanos;
        private long probeId;
        private WcStatus status;

        Candidate(final Connection connection, final long acceptedNanos)
        {
            this.connection = connection;
            this.acceptedNanos = acceptedNanos;
        }
    }
}
