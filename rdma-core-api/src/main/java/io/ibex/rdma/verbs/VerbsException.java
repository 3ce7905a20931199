package io.ibex.rdma.verbs;

/**
 * A verbs call failed. Carries the errno a C verbs call would have returned (for example
 * {@link #ENOMEM} when a post exceeds the queue depth) so callers can react the way C code does.
 */
public class VerbsException extends RuntimeException
{
    /** Operation not permitted. */
    public static final int EPERM = 1;
    /** No such entry. */
    public static final int ENOENT = 2;
    /** I/O error. */
    public static final int EIO = 5;
    /** Try again. */
    public static final int EAGAIN = 11;
    /** Out of queue or memory resources (for example a full send queue). */
    public static final int ENOMEM = 12;
    /** Permission denied. */
    public static final int EACCES = 13;
    /** Bad address. */
    public static final int EFAULT = 14;
    /** Resource still in use (for example a PD that still has MRs or QPs). */
    public static final int EBUSY = 16;
    /** Invalid argument, or the operation is not allowed in the current state. */
    public static final int EINVAL = 22;
    /** Operation not supported by the transport or provider. */
    public static final int EOPNOTSUPP = 95;
    /** Network is down: a port that is not ACTIVE cannot carry traffic. */
    public static final int ENETDOWN = 100;
    /** Address already in use. */
    public static final int EADDRINUSE = 98;
    /** Connection timed out. */
    public static final int ETIMEDOUT = 110;
    /** Connection refused. */
    public static final int ECONNREFUSED = 111;

    /** The errno C would return. */
    private final int errno;

    /**
     * @param errno   the errno a C verbs call would have returned.
     * @param message what went wrong, naming the object and the value that was wrong.
     */
    public VerbsException(final int errno, final String message)
    {
        super(message + " (errno " + errno + ")");
        this.errno = errno;
    }

    /**
     * @param errno   the errno a C verbs call would have returned.
     * @param message what went wrong.
     * @param cause   the underlying failure.
     */
    public VerbsException(final int errno, final String message, final Throwable cause)
    {
        super(message + " (errno " + errno + ")", cause);
        this.errno = errno;
    }

    /**
     * @return the errno a C verbs call would have returned.
     */
    public int errno()
    {
        return errno;
    }
}
