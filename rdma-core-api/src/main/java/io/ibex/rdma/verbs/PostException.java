package io.ibex.rdma.verbs;

/**
 * A post to a send or receive queue failed at one work request of a list, as ibv_post_send and
 * ibv_post_recv report it through {@code bad_wr}: the requests before it were posted, it and the
 * ones after it were not.
 */
public final class PostException extends VerbsException
{
    /** The index of the work request of the list that failed. */
    private final int badIndex;

    /**
     * @param errno    the errno a C verbs call would have returned.
     * @param badIndex the 0-based position in the list of the request that failed.
     * @param message  what went wrong.
     */
    public PostException(final int errno, final int badIndex, final String message)
    {
        super(errno, message + " at work request #" + badIndex);
        this.badIndex = badIndex;
    }

    /**
     * @return the 0-based position in the posted list of the first request not posted; this many
     *         requests were posted.
     */
    public int badIndex()
    {
        return badIndex;
    }
}
