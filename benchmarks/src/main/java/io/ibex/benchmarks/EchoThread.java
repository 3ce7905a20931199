package io.ibex.benchmarks;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;

/**
 * Runs the echo side of a {@link PingPong} on its own busy-spinning thread, and lets the measuring thread
 * find out when it has failed instead of waiting forever for an echo that will not come.
 */
final class EchoThread implements AutoCloseable
{
    private final AgentRunner runner;
    private volatile Throwable failure;

    /**
     * Starts the thread.
     *
     * @param echo the echo side's duty cycle.
     */
    EchoThread(final Agent echo)
    {
        runner = new AgentRunner(new BusySpinIdleStrategy(), this::onError, null, echo);
        AgentRunner.startOnThread(runner);
    }

    /**
     * @throws IllegalStateException if the echo side has failed, with its failure as the cause.
     */
    void checkAlive()
    {
        final Throwable failed = failure;
        if (failed != null)
        {
            throw new IllegalStateException("the echo side (" + runner.agent().roleName() + ") failed: " + failed,
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
