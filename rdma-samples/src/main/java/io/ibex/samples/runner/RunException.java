package io.ibex.samples.runner;

/**
 * A run could not start or went wrong in the runner itself (not in one node): the message says what.
 */
public final class RunException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong.
     */
    public RunException(final String message)
    {
        super(message);
    }
}
