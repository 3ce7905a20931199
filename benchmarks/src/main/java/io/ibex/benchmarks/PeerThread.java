package io.ibex.benchmarks;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Runs the far side of a benchmark (the echo of a {@link PingPong}, the reader or sender of a stream) on its own
 * thread, busy-spinning unless told otherwise, and lets the measuring thread find out when it has failed instead of waiting forever for
 * an answer that will not come.
 */
final class PeerThread implements AutoCloseable
{
    private final AgentRunner runner;
    private volatile Throwable failure;

    /**
     * Starts the thread, busy-spinning between duty cycles that found no work.
     *
     * @param peer the far side's duty cycle.
     */
    PeerThread(final Agent peer)
    {
        this(peer, new BusySpinIdleStrategy());
    }

    /**
     * Starts the thread.
     *
     * @param peer the far side's duty cycle.
     * @param idle what the thread does after a duty cycle that found no work.
     */
    PeerThread(final Agent peer, final IdleStrategy idle)
    {
        runner = new AgentRunner(idle, this::onError, null, peer);
        AgentRunner.startOnThread(runner);
    }

    /**
     * @throws IllegalStateException if the far side has failed, with its failure as the cause.
     */
    void checkAlive()
    {
        final Throwable failed = failure;
        if (failed != null)
        {
            throw new IllegalStateException("the peer thread (" + runner.agent().roleName() + ") failed: " + failed,
                failed);
        }
    }

    private void onError(final Throwable error)
    {
        if (failure == null)
        {
            failure = error;
        }
    }

    /**
     * Stops the thread and waits for it to end.
     */
    @Override
    public void close()
    {
        runner.close();
    }
}
