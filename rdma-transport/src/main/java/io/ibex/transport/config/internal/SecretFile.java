package io.ibex.transport.config.internal;

import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.Set;

/**
 * Reads a shared-secret file ({@code secret_file}) after checking it: a regular file (a link to one is followed),
 * neither readable nor writable by other users, on a file system with POSIX permissions (elsewhere that cannot be
 * checked, so it is refused), holding {@link #MIN_BYTES} to {@link #MAX_BYTES} bytes once one trailing newline
 * ({@code "\n"} or {@code "\r\n"}) is stripped. Messages name the file, never a byte of what it holds.
 */
public final class SecretFile
{
    /** The config key naming the file. */
    public static final String KEY = "secret_file";
    /** The fewest bytes of secret: 128 bits. */
    public static final int MIN_BYTES = 16;
    /** The most bytes of secret: more is no stronger, and a larger file is likely the wrong one. */
    public static final int MAX_BYTES = 4096;

    private SecretFile()
    {
    }

    /**
     * @param config a config.
     * @return the secret of its {@code secret_file}, read and checked now (the caller should zero it when done), or
     *     null if it has none.
     * @throws ConfigException at the key's location, saying what is wrong with the file.
     */
    public static byte[] read(final ChannelConfig config)
    {
        return config.secretFile() == null ? null : read(config.secretFile(), config.location(KEY));
    }

    /**
     * @param file     the file, relative to the working directory if relative.
     * @param location where it was named, for errors.
     * @return its bytes less one trailing newline.
     * @throws ConfigException at {@code location}, e.g. {@code "secret_file /x/y is readable by every user (mode
     *                         0644): chmod 600 it"}.
     */
    static byte[] read(final Path file, final ConfigLocation location)
    {
        final Path path = file.toAbsolutePath().normalize();
        final String named = KEY + " " + path;
        final PosixFileAttributes attributes = attributes(path, named, location);
        if (attributes.isDirectory())
        {
            throw new ConfigException(location, named + " is a directory, not a file");
        }
        if (!attributes.isRegularFile())
        {
            throw new ConfigException(location, named + " is not a regular file (a device, pipe or socket)");
        }
        final Set<PosixFilePermission> permissions = attributes.permissions();
        if (permissions.contains(PosixFilePermission.OTHERS_READ))
        {
            throw new ConfigException(location, named + " is readable by every user (mode " + mode(permissions) +
                "): chmod 600 it");
        }
        if (permissions.contains(PosixFilePermission.OTHERS_WRITE))
        {
            throw new ConfigException(location, named + " is writable by every user, who could put a secret of " +
                "their own in it (mode " + mode(permissions) + "): chmod 600 it");
        }
        final byte[] bytes = bytes(path, named, location);
        final int newline = bytes.length > 0 && bytes[bytes.length - 1] == '\n' ?
            (bytes.length > 1 && bytes[bytes.length - 2] == '\r' ? 2 : 1) : 0;
        final int length = bytes.length - newline;
        if (length > MAX_BYTES)
        {
            Arrays.fill(bytes, (byte)0);
            throw new ConfigException(location, named + " holds more than the " + MAX_BYTES + " bytes a secret may " +
                "have: is it the right file?");
        }
        if (length < MIN_BYTES)
        {
            Arrays.fill(bytes, (byte)0);
            throw new ConfigException(location, named + " holds " + length + " bytes of secret" +
                (newline > 0 ? " (without its trailing newline)" : "") + ", fewer than " + MIN_BYTES +
                ": make one with (umask 077; head -c 32 /dev/urandom > " + path + ")");
        }
        final byte[] secret = Arrays.copyOf(bytes, length);
        Arrays.fill(bytes, (byte)0);
        return secret;
    }

    private static PosixFileAttributes attributes(final Path path, final String named,
        final ConfigLocation location)
    {
        try
        {
            return Files.readAttributes(path, PosixFileAttributes.class);
        }
        catch (final UnsupportedOperationException ex)
        {
            throw new ConfigException(location, named + " is on a file system without POSIX permissions, where " +
                "whether other users can read it cannot be checked: put it on one that has them");
        }
        catch (final NoSuchFileException ex)
        {
            throw new ConfigException(location, named + " does not exist");
        }
        catch (final IOException ex)
        {
            throw cannotRead(named, location, ex);
        }
    }

    private static byte[] bytes(final Path path, final String named, final ConfigLocation location)
    {
        try (InputStream in = Files.newInputStream(path))
        {
            return in.readNBytes(MAX_BYTES + 3);
        }
        catch (final IOException ex)
        {
            throw cannotRead(named, location, ex);
        }
    }

    private static ConfigException cannotRead(final String named, final ConfigLocation location,
        final IOException ex)
    {
        final String why = ex instanceof AccessDeniedException ? "permission denied" : ex.toString();
        return new ConfigException(location, named + " cannot be read: " + why, ex);
    }

    /**
     * @return the permission bits in octal, as chmod takes them ({@code "0644"}); PosixFilePermission's constants
     *     run owner, group, others, each read, write, execute, from bit 8 down to bit 0.
     */
    private static String mode(final Set<PosixFilePermission> permissions)
    {
        int mode = 0;
        for (final PosixFilePermission permission : permissions)
        {
            mode |= 0400 >>> permission.ordinal();
        }
        return String.format("%04o", mode);
    }
}
