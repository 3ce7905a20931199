package io.ibex.samples.runner.hook;

/**
 * A hook could not start or stop: the message names the hook, where it is configured and what failed.
 */
public final class HookException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param hook    the hook as a reader finds it: type, owner and config location.
     * @param message what went wrong.
     * @param cause   the underlying failure, or null.
     */
    public HookException(final String hook, final String message, final Throwable cause)
    {
        super(hook + ": " + message, cause);
    }
}
