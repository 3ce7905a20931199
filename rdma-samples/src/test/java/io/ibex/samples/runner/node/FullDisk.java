package io.ibex.samples.runner.node;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file on a disk with room for {@code room} more bytes, as a full file system answers: a write that does not
 * fit writes what fits and returns that count, the next one fails with ENOSPC's message.
 */
final class FullDisk implements WritableByteChannel
{
    private final FileChannel file;
    private long room;

    private FullDisk(final FileChannel file, final long room)
    {
        this.file = file;
        this.room = room;
    }

    /** @return an opener for {@link FileNode} whose files have room for {@code room} bytes. */
    static FileNode.Opener withRoomFor(final long room)
    {
        return (final Path path) -> new FullDisk(FileChannel.open(path, StandardOpenOption.CREATE,
            StandardOpenOption.WRITE, StandardOpenOption.APPEND), room);
    }

    @Override
    public int write(final ByteBuffer source) throws IOException
    {
        if (room == 0 && source.hasRemaining())
        {
            throw new IOException("No space left on device");
        }
        final ByteBuffer fits = source.duplicate();
        fits.limit(fits.position() + (int)Math.min(room, fits.remaining()));
        final int written = file.write(fits);
        source.position(source.position() + written);
        room -= written;
        return written;
    }

    @Override
    public boolean isOpen()
    {
        return file.isOpen();
    }

    @Override
    public void close() throws IOException
    {
        file.close();
    }
}
