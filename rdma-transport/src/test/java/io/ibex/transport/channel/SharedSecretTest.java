package io.ibex.transport.channel;

import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SharedSecretTest
{
    private static final String SECRET = "SECRET-0123456789abcdef";

    @TempDir
    Path dir;

    @Test
    void aConfigWithoutASecretFileHasNoSecret()
    {
        assertNull(SharedSecret.of(config(null)));
    }

    @Test
    void theSecretIsTheFileWithoutItsTrailingNewlineAndItsTextNamesOnlyTheFile() throws IOException
    {
        final Path file = secret(SECRET + "\n", "rw-------");
        final SharedSecret fromFile = SharedSecret.of(config(file));

        assertEquals("SharedSecret[" + file + "]", fromFile.toString());
        assertArrayEquals(mac(new SharedSecret(Path.of("secret"), SECRET.getBytes())), mac(fromFile),
            "the same key as the file's bytes without the newline");
        assertFalse(fromFile.toString().contains(SECRET.substring(0, 7)));
        assertEquals("SharedSecret[" + Path.of("").toAbsolutePath().resolve("secret") + "]",
            new SharedSecret(Path.of("secret"), SECRET.getBytes()).toString(),
            "a relative file is the working directory's");
    }

    @Test
    void aFileThatChangedSinceTheCheckFailsAtTheKeysLocationWithoutTheSecret() throws IOException
    {
        final Path file = secret(SECRET, "rw-------");
        final ChannelConfig config = config(file).check();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        final String message = assertThrows(ConfigException.class, () -> SharedSecret.of(config)).getMessage();
        assertEquals("ChannelConfig.builder().secretFile: secret_file " + file + " is readable by every user " +
            "(mode 0644): chmod 600 it", message);
        assertFalse(message.contains(SECRET.substring(0, 7)));
    }

    private ChannelConfig config(final Path file)
    {
        return ChannelConfig.builder().in(in -> in.address(new InetSocketAddress("127.0.0.1", 1)))
            .secretFile(file).build();
    }

    private Path secret(final String content, final String permissions) throws IOException
    {
        final Path file = Files.writeString(dir.resolve("secret"), content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    private static byte[] mac(final SharedSecret secret)
    {
        return secret.newMac().doFinal(Arrays.copyOf(SECRET.getBytes(), 4));
    }
}
