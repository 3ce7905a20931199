package io.ibex.transport.channel;

import io.ibex.rdma.cm.ConnParam;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.EpochClock;

import javax.crypto.Mac;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

import static io.ibex.transport.channel.ConnectProofDescriptor.NONCE_OFFSET;
import static io.ibex.transport.channel.ConnectProofDescriptor.REPLY_LENGTH;
import static io.ibex.transport.channel.ConnectProofDescriptor.REQUEST_LENGTH;
import static io.ibex.transport.channel.ConnectProofDescriptor.REQUEST_MAC_LENGTH;
import static io.ibex.transport.channel.ConnectProofDescriptor.REQUEST_MAC_OFFSET;
import static io.ibex.transport.channel.ConnectProofDescriptor.TIME_OFFSET;

/**
 * Proves, in rdma_cm's private data, that both ends of a connection know the shared secret: the same on the soft
 * provider and on real rdma_cm, in RC's and UC's REQ and REP and in UD's SIDR REQ and REP (the blocks' layout is
 * {@link ConnectProofDescriptor}'s).
 * <ul>
 * <li>The source's REQ carries a time, a random nonce and a MAC: HMAC-SHA256(secret, "ibex-connect-request-v1" |
 *     target IP | target port | time | nonce | the private data before the block).</li>
 * <li>The target accepts a request whose MAC is right, whose time is within {@link #WINDOW_SECONDS} of its own
 *     clock and whose nonce it has not accepted before; its REP answers with HMAC-SHA256(secret,
 *     "ibex-connect-reply-v1" | the request block | the private data before the reply block).</li>
 * <li>The source accepts a reply whose MAC is right for the request it sent.</li>
 * </ul>
 * The target's IP (16 bytes, an IPv4 address as {@code ::ffff:a.b.c.d}, so both forms of one address agree) and
 * port (u16, little-endian) tie a request to one target, so it cannot be replayed to another that shares the
 * secret: the source names out.address, the target its connection id's local address (the address the request
 * reached). The bytes before a block (UC's endpoint) are covered too, so they cannot be changed on the way.
 * <p>
 * An accepted nonce is remembered until its request's time leaves the window, after which the time check refuses
 * the request anyway; only requests that passed every other check are remembered, so the cache holds at most the
 * authenticated requests of two windows. It dies with the process: a request captured within the window could be
 * replayed once to a target that restarted since.
 * <p>
 * Not thread-safe: a channel's connector thread uses it.
 */
final class ConnectProof
{
    /** How far apart, in seconds, the two ends' clocks may be; also how long a request stays valid. */
    static final int WINDOW_SECONDS = 60;
    /** Why a target refuses a request without a proof (a block of zeros, or none). */
    static final String NO_PROOF = "sent no proof that it knows the secret";
    /** Why a target refuses a request whose MAC is wrong. */
    static final String WRONG_PROOF = "its proof does not match the secret";
    /** Why a target refuses a request it accepted before. */
    static final String REPLAYED = "replayed a request it saw before";
    /** Why a source refuses a reply without a proof. */
    static final String NO_TARGET_PROOF = "the target sent no proof that it knows the secret";
    /** Why a source refuses a reply whose MAC is wrong. */
    static final String WRONG_TARGET_PROOF = "the target's proof does not match the secret";

    private static final byte[] REQUEST_LABEL = "ibex-connect-request-v1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REPLY_LABEL = "ibex-connect-reply-v1".getBytes(StandardCharsets.US_ASCII);
    private static final int IP_LENGTH = 16;

    private final Mac mac;
    private final EpochClock clock;
    private final SecureRandom random = new SecureRandom();
    /** The nonces of accepted requests, each with the last second (of the target's clock) its request is valid. */
    private final Long2LongHashMap accepted = new Long2LongHashMap(Long.MIN_VALUE);

    /**
     * @param secret the shared secret.
     * @param clock  the time in milliseconds since the epoch (SystemEpochClock; tests set their own).
     */
    ConnectProof(final SharedSecret secret, final EpochClock clock)
    {
        this.mac = secret.newMac();
        this.clock = clock;
    }

    /**
     * Source: writes a fresh request block into a REQ's private data.
     *
     * @param target the target's address (out.address).
     * @param data   the private data: what goes before the block in its first {@code offset} bytes, room for the
     *               block after them.
     * @param offset where the block goes.
     * @throws IllegalArgumentException if the block does not fit in {@code data}, or {@code data} not in a REQ.
     */
    void writeRequest(final InetSocketAddress target, final byte[] data, final int offset)
    {
        requireFit(data, offset, REQUEST_LENGTH, ConnParam.MAX_CONNECT_PRIVATE_DATA, "a REQ");
        final ByteBuffer block = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        block.putInt(offset + TIME_OFFSET, (int)seconds());
        block.putLong(offset + NONCE_OFFSET, random.nextLong());
        System.arraycopy(requestMac(target, data, offset), 0, data, offset + REQUEST_MAC_OFFSET, REQUEST_MAC_LENGTH);
    }

    /**
     * Target: checks the request block of a REQ's private data, and remembers its nonce if it passes.
     *
     * @param target the address the request reached: its connection id's local address.
     * @param data   the private data as rdma_cm delivered it.
     * @param offset where the block is.
     * @return null if the source proved it knows the secret, else why not (for the REJ's private data and the log).
     */
    String checkRequest(final InetSocketAddress target, final byte[] data, final int offset)
    {
        if (absent(data, offset, REQUEST_LENGTH))
        {
            return NO_PROOF;
        }
        if (!matches(requestMac(target, data, offset), data, offset + REQUEST_MAC_OFFSET, REQUEST_MAC_LENGTH))
        {
            return WRONG_PROOF;
        }
        final ByteBuffer block = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        final long now = seconds();
        final int skew = block.getInt(offset + TIME_OFFSET) - (int)now; // modulo 2^32, as the u32 time wraps in 2106
        if (skew > WINDOW_SECONDS || skew < -WINDOW_SECONDS)
        {
            return "its clock is " + Math.abs((long)skew) + " s " + (skew > 0 ? "ahead of" : "behind") +
                " the target's: clocks must agree within " + WINDOW_SECONDS + " s";
        }
        forgetExpired(now);
        final long nonce = block.getLong(offset + NONCE_OFFSET);
        if (accepted.containsKey(nonce))
        {
            return REPLAYED;
        }
        accepted.put(nonce, now + skew + WINDOW_SECONDS);
        return null;
    }

    /**
     * Target: writes the reply block into a REP's private data, answering a request that passed
     * {@link #checkRequest}. A UD target's SIDR REP carries 136 bytes, fewer than a REP's 196.
     *
     * @param request       the request's private data.
     * @param requestOffset where its block is.
     * @param reply         the REP's private data: what goes before the block in its first {@code offset} bytes,
     *                      room for the block after them.
     * @param offset        where the reply block goes.
     * @throws IllegalArgumentException if the block does not fit in {@code reply}, or {@code reply} not in a REP.
     */
    void writeReply(final byte[] request, final int requestOffset, final byte[] reply, final int offset)
    {
        requireFit(reply, offset, REPLY_LENGTH, ConnParam.MAX_ACCEPT_PRIVATE_DATA, "a REP");
        System.arraycopy(replyMac(request, requestOffset, reply, offset), 0, reply, offset, REPLY_LENGTH);
    }

    /**
     * Source: checks the reply block of a REP's private data against the request it sent.
     *
     * @param request       the private data of the REQ it sent.
     * @param requestOffset where its block is.
     * @param reply         the REP's private data as rdma_cm delivered it.
     * @param offset        where the reply block is.
     * @return null if the target proved it knows the secret, else why not (for the log).
     */
    String checkReply(final byte[] request, final int requestOffset, final byte[] reply, final int offset)
    {
        if (absent(reply, offset, REPLY_LENGTH))
        {
            return NO_TARGET_PROOF;
        }
        return matches(replyMac(request, requestOffset, reply, offset), reply, offset, REPLY_LENGTH) ? null :
            WRONG_TARGET_PROOF;
    }

    /** @return how many nonces of accepted requests are remembered now, those of expired requests forgotten. */
    int remembered()
    {
        forgetExpired(seconds());
        return accepted.size();
    }

    private byte[] requestMac(final InetSocketAddress target, final byte[] data, final int offset)
    {
        mac.update(REQUEST_LABEL);
        mac.update(ip(target.getAddress()));
        mac.update((byte)target.getPort());
        mac.update((byte)(target.getPort() >>> 8));
        mac.update(data, offset + TIME_OFFSET, REQUEST_MAC_OFFSET - TIME_OFFSET);
        mac.update(data, 0, offset);
        return mac.doFinal();
    }

    private byte[] replyMac(final byte[] request, final int requestOffset, final byte[] reply, final int offset)
    {
        mac.update(REPLY_LABEL);
        mac.update(request, requestOffset, REQUEST_LENGTH);
        mac.update(reply, 0, offset);
        return mac.doFinal();
    }

    private void forgetExpired(final long now)
    {
        accepted.values().removeIfLong(lastValid -> lastValid < now);
    }

    private long seconds()
    {
        return Math.floorDiv(clock.time(), 1000L);
    }

    /** @return the IP in 16 bytes, an IPv4 address IPv4-mapped. */
    private static byte[] ip(final InetAddress address)
    {
        final byte[] bytes = address.getAddress();
        if (bytes.length == IP_LENGTH)
        {
            return bytes;
        }
        final byte[] mapped = new byte[IP_LENGTH];
        mapped[10] = (byte)0xff;
        mapped[11] = (byte)0xff;
        System.arraycopy(bytes, 0, mapped, IP_LENGTH - bytes.length, bytes.length);
        return mapped;
    }

    /** @return whether the block is missing from the data or all zeros, as rdma_cm pads private data. */
    private static boolean absent(final byte[] data, final int offset, final int length)
    {
        if (offset < 0 || data.length < offset + length)
        {
            return true;
        }
        int bits = 0;
        for (int i = offset; i < offset + length; i++)
        {
            bits |= data[i];
        }
        return bits == 0;
    }

    /** @return whether data holds the MAC's first {@code length} bytes at offset, in time independent of where not. */
    private static boolean matches(final byte[] mac, final byte[] data, final int offset, final int length)
    {
        int difference = 0;
        for (int i = 0; i < length; i++)
        {
            difference |= mac[i] ^ data[offset + i];
        }
        return difference == 0;
    }

    private static void requireFit(final byte[] data, final int offset, final int length, final int max,
        final String message)
    {
        if (offset < 0 || offset + length > data.length || data.length > max)
        {
            throw new IllegalArgumentException("a proof of " + length + " bytes at offset " + offset + " must fit " +
                "in the " + data.length + " bytes of private data, and they in the " + max + " bytes " + message +
                " carries");
        }
    }
}
