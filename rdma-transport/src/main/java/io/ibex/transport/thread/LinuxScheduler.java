package io.ibex.transport.thread;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;

import java.util.BitSet;

/**
 * The C library's scheduling calls, through JNA: {@code sched_setaffinity} and {@code sched_setscheduler} for a
 * thread id (0: the calling thread).
 */
final class LinuxScheduler
{
    private static final int SCHED_FIFO = 1;
    private static final int EPERM = 1;
    private static final int EINVAL = 22;
    private static final Object LOCK = new Object();
    private static LinuxScheduler instance;
    private static Throwable unavailable;

    private final CLibrary libc;

    private LinuxScheduler(final CLibrary libc)
    {
        this.libc = libc;
    }

    /**
     * @param placement the placement to be applied, for the message.
     * @return the scheduler, loaded once.
     * @throws ThreadPlacementException if this is not Linux or JNA cannot load the C library.
     */
    static LinuxScheduler get(final ThreadPlacement placement)
    {
        synchronized (LOCK)
        {
            if (instance == null && unavailable == null)
            {
                try
                {
                    if (!Platform.isLinux())
                    {
                        throw new UnsupportedOperationException("this is not Linux but " + System.getProperty("os.name"));
                    }
                    instance = new LinuxScheduler(Native.load(Platform.C_LIBRARY_NAME, CLibrary.class));
                }
                catch (final RuntimeException | LinkageError ex)
                {
                    unavailable = ex;
                }
            }
            if (instance == null)
            {
                throw new ThreadPlacementException(placement + " not applied: the C library's scheduling calls " +
                    "are not available (" + unavailable + ")", unavailable);
            }
            return instance;
        }
    }

    void setAffinity(final int tid, final BitSet cpus, final ThreadPlacement placement)
    {
        final byte[] mask = new byte[Math.max(8, (cpus.length() + 63) / 64 * 8)];
        final byte[] bits = cpus.toByteArray();
        System.arraycopy(bits, 0, mask, 0, bits.length);
        try
        {
            libc.sched_setaffinity(tid, new NativeLong(mask.length), mask);
        }
        catch (final LastErrorException ex)
        {
            throw new ThreadPlacementException("CPUs " + ThreadPlacement.cpuList(cpus) + " not applied: " +
                (ex.getErrorCode() == EINVAL ? "none of them is a CPU this process may use (it may use " +
                Runtime.getRuntime().availableProcessors() + ")" : "sched_setaffinity failed: " + ex.getMessage()),
                ex);
        }
    }

    void setFifoPriority(final int tid, final int priority, final ThreadPlacement placement)
    {
        try
        {
            libc.sched_setscheduler(tid, SCHED_FIFO, new int[] {priority});
        }
        catch (final LastErrorException ex)
        {
            throw new ThreadPlacementException("SCHED_FIFO priority " + priority + " not applied: " +
                (ex.getErrorCode() == EPERM ? "not permitted (it needs CAP_SYS_NICE, e.g. root, or an " +
                "RLIMIT_RTPRIO of at least " + priority + ": ulimit -r)" : "sched_setscheduler failed: " +
                ex.getMessage()), ex);
        }
    }

    /** The calls used, as glibc declares them. */
    interface CLibrary extends Library
    {
        int sched_setaffinity(int pid, NativeLong cpusetsize, byte[] mask) throws LastErrorException;

        int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;
    }
}
