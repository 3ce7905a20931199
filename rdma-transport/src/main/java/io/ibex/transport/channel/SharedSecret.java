package io.ibex.transport.channel;

import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.internal.SecretFile;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret of a channel's {@code secret_file}, which both ends of a connection prove they know
 * ({@link ConnectProof}). Its bytes never leave this object but as an HMAC key: {@link #toString()} names the file.
 */
final class SharedSecret
{
    /** The MAC of {@link ConnectProof}. */
    static final String ALGORITHM = "HmacSHA256";

    private final Path file;
    private final byte[] bytes;

    /**
     * @param file  where the secret came from, for {@link #toString()}.
     * @param bytes the secret, which this object now owns.
     */
    SharedSecret(final Path file, final byte[] bytes)
    {
        this.file = file.toAbsolutePath().normalize();
        this.bytes = bytes;
    }

    /**
     * @param config a channel's config.
     * @return the secret of its {@code secret_file}, read and checked now, or null if it has none.
     * @throws io.ibex.transport.config.ConfigException at the key's location, saying what is wrong with the file.
     */
    static SharedSecret of(final ChannelConfig config)
    {
        final byte[] bytes = SecretFile.read(config);
        return bytes == null ? null : new SharedSecret(config.secretFile(), bytes);
    }

    /** @return a new HMAC-SHA256 keyed with the secret. */
    Mac newMac()
    {
        try
        {
            final Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(bytes, ALGORITHM));
            return mac;
        }
        catch (final GeneralSecurityException ex)
        {
            throw new IllegalStateException(ALGORITHM + ", which every Java platform has, is missing: " + ex, ex);
        }
    }

    /** @return {@code "SharedSecret[<file>]"}, the file as an absolute path. */
    @Override
    public String toString()
    {
        return "SharedSecret[" + file + "]";
    }
}
