package io.ibex.transport.channel;

import io.ibex.transport.config.ChannelConfig;
import org.agrona.concurrent.SystemEpochClock;

import java.util.Arrays;

/**
 * Where a channel's proof of the shared secret ({@link ConnectProof}) sits in rdma_cm's private data: after the UC
 * endpoint in a request, after the UC endpoint and its link token in a reply, at the start otherwise. Immutable
 * apart from the proof's own state; used by the connector's thread only.
 */
final class ConnectAuth
{
    private final ConnectProof proof;
    private final int requestOffset;
    private final int replyOffset;

    /**
     * @param config the channel's config: its secret_file, read now, if any.
     * @param uc     whether the channel is UC, whose private data carries the UC endpoint first.
     */
    ConnectAuth(final ChannelConfig config, final boolean uc)
    {
        final SharedSecret secret = SharedSecret.of(config);
        this.proof = secret != null ? new ConnectProof(secret, SystemEpochClock.INSTANCE) : null;
        this.requestOffset = uc ? UcEndpoint.LENGTH : 0;
        this.replyOffset = uc ? UcEndpoint.REPLY_LENGTH : 0;
    }

    /** @return the proof of the shared secret, or null without secret_file. */
    ConnectProof proof()
    {
        return proof;
    }

    /** @return where the proof goes in a request's private data. */
    int requestOffset()
    {
        return requestOffset;
    }

    /** @return where the proof goes in a reply's private data. */
    int replyOffset()
    {
        return replyOffset;
    }

    /**
     * @param endpoint    the UC endpoint's private data (UC), or null.
     * @param proofLength the length of the proof that follows it.
     * @return the private data of a connect or an accept: the UC endpoint (UC), then room for a proof of this
     *     length when there is a secret; null if that is nothing.
     */
    byte[] withRoom(final byte[] endpoint, final int proofLength)
    {
        if (proof == null)
        {
            return endpoint;
        }
        final byte[] head = endpoint != null ? endpoint : new byte[0];
        return Arrays.copyOf(head, head.length + proofLength);
    }
}
