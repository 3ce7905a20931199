package io.ibex.rdma.provider.soft.wire;

import io.ibex.rdma.verbs.QueuePair;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The secret that ties a connected QP's link to the connection-manager exchange that connected it. The passive side
 * draws it for each connection and sends it in the REP; both sides bind it to their QP before RTR; whichever side
 * opens the link sends it in the HELLO, and the other attaches no link whose HELLO lacks it. A QP connected by verbs
 * alone (out of band, as UC always is) has none unless its user binds one ({@link QueuePair#bindLinkToken}): without
 * one it takes HELLOs whose token is all zeros, as before tokens.
 * <p>
 * Not thread-safe: the owning QP's lock guards it.
 */
public final class SoftLinkToken
{
    /** Length of a token in bytes. */
    public static final int LENGTH = QueuePair.LINK_TOKEN_LENGTH;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] bytes = new byte[LENGTH];
    private boolean bound;

    /**
     * @return a new token: {@link #LENGTH} bytes of {@link SecureRandom}.
     */
    public static byte[] generate()
    {
        final byte[] token = new byte[LENGTH];
        RANDOM.nextBytes(token);
        return token;
    }

    /**
     * @param hello a complete HELLO.
     * @return a copy of the token it carries.
     */
    public static byte[] of(final ByteBuffer hello)
    {
        final byte[] token = new byte[LENGTH];
        hello.get(SoftFrameDescriptor.HELLO_TOKEN_OFFSET, token);
        return token;
    }

    public void set(final byte[] token)
    {
        System.arraycopy(token, 0, bytes, 0, LENGTH);
        bound = true;
    }

    public void clear()
    {
        Arrays.fill(bytes, (byte)0);
        bound = false;
    }

    /** @return whether a connection manager bound a token (else the QP takes the all-zero one). */
    public boolean bound()
    {
        return bound;
    }

    /**
     * Writes the token into a HELLO being built.
     */
    void putInto(final ByteBuffer hello)
    {
        hello.put(SoftFrameDescriptor.HELLO_TOKEN_OFFSET, bytes);
    }

    /**
     * @param offered the token a HELLO carried.
     * @return whether it is this one; compared in constant time.
     */
    public boolean admits(final byte[] offered)
    {
        return MessageDigest.isEqual(bytes, offered);
    }
}
