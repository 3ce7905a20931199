package io.ibex.transport.config.internal;

import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SecretFileTest
{
    private static final String ADDRESS = "in = { address = \"127.0.0.1:1337\" }\n";

    /** What the files hold: no message may contain it, nor its start. */
    private static final String SECRET = "SECRET-0123456789abcdef";
    private static final ConfigLocation WHERE = ConfigLocation.of("test");

    @TempDir
    Path dir;

    @Test
    void aPrivateFileIsReadWithoutOneTrailingNewline() throws IOException
    {
        assertArrayEquals(bytes(SECRET), SecretFile.read(secret("a", SECRET, "rw-------"), WHERE));
        assertArrayEquals(bytes(SECRET), SecretFile.read(secret("b", SECRET + "\n", "r--------"), WHERE));
        assertArrayEquals(bytes(SECRET), SecretFile.read(secret("c", SECRET + "\r\n", "rw-------"), WHERE));
        assertArrayEquals(bytes(SECRET + "\n"), SecretFile.read(secret("d", SECRET + "\n\n", "rw-------"), WHERE),
            "one newline only");
        assertArrayEquals(bytes(SECRET + "\r"), SecretFile.read(secret("e", SECRET + "\r", "rw-------"), WHERE),
            "a lone CR is no newline");
        assertArrayEquals(bytes(SECRET), SecretFile.read(secret("f", SECRET, "rw-r-----"), WHERE),
            "the group may read it: a service account's group, say");
    }

    @Test
    void aFileOthersCanReadOrWriteIsRefusedWithItsModeAndTheFix() throws IOException
    {
        final Path readable = secret("r", SECRET, "rw-r--r--");
        final Path writable = secret("w", SECRET, "rw-----w-");

        assertEquals("test: secret_file " + readable + " is readable by every user (mode 0644): chmod 600 it",
            error(readable));
        assertEquals("test: secret_file " + writable + " is writable by every user, who could put a secret of " +
            "their own in it (mode 0602): chmod 600 it", error(writable));
    }

    @Test
    void fewerThan16BytesOfSecretAreRefusedCountingWithoutTheNewline() throws IOException
    {
        final Path shortFile = secret("s", "0123456789abcde", "rw-------");
        final Path shortLine = secret("l", "0123456789abcde\n", "rw-------");
        final Path empty = secret("e", "", "rw-------");

        assertEquals("test: secret_file " + shortFile + " holds 15 bytes of secret, fewer than 16: make one with " +
            "(umask 077; head -c 32 /dev/urandom > " + shortFile + ")", error(shortFile));
        assertEquals("test: secret_file " + shortLine + " holds 15 bytes of secret (without its trailing newline), " +
            "fewer than 16: make one with (umask 077; head -c 32 /dev/urandom > " + shortLine + ")",
            error(shortLine));
        assertEquals("test: secret_file " + empty + " holds 0 bytes of secret, fewer than 16: make one with " +
            "(umask 077; head -c 32 /dev/urandom > " + empty + ")", error(empty));
        assertEquals(16, SecretFile.read(secret("16", "0123456789abcdef\r\n", "rw-------"), WHERE).length);
    }

    @Test
    void moreThan4096BytesAreRefused() throws IOException
    {
        final Path large = secret("large", SECRET.repeat(200), "rw-------");

        assertEquals("test: secret_file " + large + " holds more than the 4096 bytes a secret may have: is it the " +
            "right file?", error(large));
        assertEquals(4096, SecretFile.read(secret("max", "x".repeat(4096) + "\r\n", "rw-------"), WHERE).length);
    }

    @Test
    void aMissingFileADirectoryAndADeviceAreRefusedSayingWhich() throws IOException
    {
        final Path missing = dir.resolve("missing");
        final Path directory = Files.createDirectory(dir.resolve("directory"));

        assertEquals("test: secret_file " + missing + " does not exist", error(missing));
        assertEquals("test: secret_file " + directory + " is a directory, not a file", error(directory));
        assertEquals("test: secret_file /dev/null is not a regular file (a device, pipe or socket)",
            error(Path.of("/dev/null")));
    }

    @Test
    void aLinkIsFollowedAndTheFileItNamesChecked() throws IOException
    {
        final Path target = secret("target", SECRET, "rw-r--r--");
        final Path link = Files.createSymbolicLink(dir.resolve("link"), target);

        assertEquals("test: secret_file " + link + " is readable by every user (mode 0644): chmod 600 it",
            error(link));
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
        assertArrayEquals(bytes(SECRET), SecretFile.read(link, WHERE));
    }

    @Test
    void aRelativeFileIsTheWorkingDirectorysAndNamedInFull()
    {
        final Path absolute = Path.of("").toAbsolutePath().resolve("no-such-secret");

        assertEquals("test: secret_file " + absolute + " does not exist", error(Path.of("no-such-secret")));
    }

    @Test
    void aFileSystemWithoutPosixPermissionsIsRefused() throws IOException
    {
        final URI zip = URI.create("jar:" + dir.resolve("secrets.zip").toUri());
        try (FileSystem fileSystem = FileSystems.newFileSystem(zip, Map.of("create", "true")))
        {
            final Path inZip = Files.writeString(fileSystem.getPath("/secret"), SECRET);

            assertEquals("test: secret_file /secret is on a file system without POSIX permissions, where whether " +
                "other users can read it cannot be checked: put it on one that has them", error(inZip));
        }
    }

    @Test
    void checkReadsTheFileAndFailsAtTheKeysLocation() throws IOException
    {
        final Path good = secret("good", SECRET, "rw-------");
        final Path readable = secret("readable", SECRET, "rw-rw-r--");

        final ChannelConfig config = bind(good);
        assertEquals(good, config.check().secretFile());
        assertArrayEquals(bytes(SECRET), SecretFile.read(config));
        assertEquals("n.conf:1:15: secret_file " + readable + " is readable by every user (mode 0664): chmod 600 " +
            "it", assertThrows(ConfigException.class, () -> bind(readable).check()).getMessage());
        assertEquals("ChannelConfig.builder().secretFile: secret_file " + readable + " is readable by every user " +
            "(mode 0664): chmod 600 it", assertThrows(ConfigException.class,
            () -> ChannelConfig.builder().in(in -> in.address("127.0.0.1:1")).secretFile(readable).build().check())
            .getMessage());
    }

    @Test
    void withoutTheKeyThereIsNoSecret()
    {
        final ChannelConfig config = bind(ADDRESS);

        assertNull(config.secretFile());
        assertNull(SecretFile.read(config.check()));
        assertFalse(config.toString().contains("secret_file"));
    }

    @Test
    void theSecretIsInNoMessageAndNotInTheConfigsText() throws IOException
    {
        final Path[] files = {
            secret("r", SECRET, "rw-r--r--"), secret("w", SECRET, "rw--w--w-"),
            secret("s", SECRET.substring(0, 15), "rw-------"), secret("l", SECRET.repeat(200), "rw-------")};
        for (final Path file : files)
        {
            final String message = error(file);
            assertFalse(message.contains(SECRET.substring(0, 7)), message);
        }
        assertFalse(bind(secret("ok", SECRET, "rw-------")).check().toString().contains(SECRET.substring(0, 7)));
    }

    private ChannelConfig bind(final Path file)
    {
        return bind("secret_file = " + ConfigScalar.quote(file.toString()) + "; " +
            ADDRESS);
    }

    private Path secret(final String name, final String content, final String permissions) throws IOException
    {
        final Path file = Files.writeString(dir.resolve(name), content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    private static String error(final Path file)
    {
        return assertThrows(ConfigException.class, () -> SecretFile.read(file, WHERE)).getMessage();
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static ChannelConfig bind(final String text)
    {
        return ChannelConfigs.fromGroup("n", LibconfigReader.parse(text, "n.conf"));
    }
}
