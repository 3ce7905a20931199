package io.ibex.samples.runner.node;

/**
 * A node could not start or failed while running: the message names the node and what went wrong.
 */
public final class NodeException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param node    the node's name.
     * @param message what went wrong.
     * @param cause   the underlying failure, or null.
     */
    public NodeException(final String node, final String message, final Throwable cause)
    {
        super("node '" + node + "': " + message, cause);
    }
}
