package io.ibex.rdma.spi;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.ScatterGatherEntry;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.BufferUtil;

import java.nio.ByteBuffer;

/**
 * Provider support: the argument checks of the API's contract, made the same way, with the same errno and
 * words, by every provider.
 */
public final class ProviderChecks
{
    private ProviderChecks()
    {
    }

    /**
     * @param buffer a buffer to register.
     * @return its address.
     * @throws VerbsException EINVAL for a heap buffer.
     */
    public static long directAddress(final ByteBuffer buffer)
    {
        if (!buffer.isDirect())
        {
            throw new VerbsException(VerbsException.EINVAL, "only direct buffers can be registered, got " + buffer);
        }
        return BufferUtil.address(buffer);
    }

    /**
     * @param access access flags to register memory with.
     * @throws VerbsException EINVAL for a flag this API does not know.
     */
    public static void requireKnownAccess(final int access)
    {
        if ((access & ~AccessFlags.ALL) != 0)
        {
            throw new VerbsException(VerbsException.EINVAL, "unknown access flags 0x" + Integer.toHexString(access));
        }
    }

    /**
     * @param wcs the completions a poll fills.
     * @param max how many it may fill.
     * @throws IllegalArgumentException when max is negative or beyond the array.
     */
    public static void requirePollRange(final WorkCompletion[] wcs, final int max)
    {
        if (max < 0 || max > wcs.length)
        {
            throw new IllegalArgumentException("max=" + max + " outside 0.." + wcs.length);
        }
    }

    /**
     * Inline data is copied from an entry's address without a key check (by the verbs library, or the soft provider),
     * so an address outside the caller's memory would crash the JVM, or send the peer whatever lies there: an entry
     * of a request with {@link io.ibex.rdma.verbs.SendFlags#INLINE} must lie inside the open region of the QP's
     * protection domain its lkey names (stricter than verbs, which ignore the lkey of inline data).
     *
     * @param sge    an entry of an inline request.
     * @param region the open region of the QP's protection domain that the entry's lkey names, or null.
     * @return null when the entry may be copied, else why not.
     */
    public static String inlineProblem(final ScatterGatherEntry sge, final MemoryRegion region)
    {
        if (sge.length() == 0)
        {
            return null;
        }
        if (region == null || region.isClosed())
        {
            return "inline " + sge + ": its lkey names no open region of the QP's protection domain";
        }
        final long offset = sge.addr() - region.address();
        if (sge.length() < 0 || sge.addr() < region.address() || offset > region.length() - sge.length())
        {
            return "inline " + sge + " is not inside " + region;
        }
        return null;
    }

    /**
     * @param context the context a CQ is created in.
     * @param channel the completion channel asked for, or null.
     * @param type    the provider's channel class.
     * @param <T>     that class.
     * @return the channel as the provider's class, or null.
     * @throws VerbsException EINVAL for a channel of another context; IllegalStateException for a closed one.
     */
    public static <T extends ProviderResource & CompletionChannel> T channelOf(
        final Context context, final CompletionChannel channel, final Class<T> type)
    {
        if (channel == null)
        {
            return null;
        }
        if (!type.isInstance(channel) || channel.context() != context)
        {
            throw new VerbsException(VerbsException.EINVAL, "completion channel " + channel +
                " was not created from " + context);
        }
        final T own = type.cast(channel);
        own.ensureOpen();
        return own;
    }

    /**
     * @param pd   the protection domain a QP is created in.
     * @param cq   a CQ the QP is to complete into.
     * @param type the provider's CQ class.
     * @param role "send" or "receive", for the message.
     * @param <T>  that class.
     * @return the CQ as the provider's class.
     * @throws VerbsException EINVAL for a CQ of another context; IllegalStateException for a closed one.
     */
    public static <T extends CompletionQueue> T completionQueueOf(
        final ProtectionDomain pd, final CompletionQueue cq, final Class<T> type, final String role)
    {
        if (!type.isInstance(cq) || cq.context() != pd.context())
        {
            throw new VerbsException(VerbsException.EINVAL, "cannot create a QP in " + pd + ": its " + role + " CQ " +
                cq + " belongs to " + (cq == null ? null : cq.context()) + ", not to " + pd.context());
        }
        if (cq.isClosed())
        {
            throw new IllegalStateException("cannot create a QP: its " + role + " CQ " + cq + " is closed");
        }
        return type.cast(cq);
    }
}
