package io.ibex.samples.runner.node;

import io.ibex.samples.runner.format.SampleFileException;
import io.ibex.samples.runner.format.VillasHumanReader;
import io.ibex.samples.runner.format.VillasHumanWriter;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * VILLASnode's {@code file} node: writes the samples of a path to a file in villas.human and replays a file's
 * samples into a path. As in VILLAS, every file node can be both; the {@code uri} is expanded with strftime (UTC)
 * when the node starts, relative to the runner's base directory.
 * <ul>
 *   <li>As a path's output (the runner called {@link #outputSignals}): start creates the parent directories and
 *   opens the file for appending, as VILLAS's {@code "a+"}; the header goes before the first sample written;
 *   {@code out.flush} sends every write to the file at once, else it goes in {@code out.buffer_size} pieces and at
 *   stop.</li>
 *   <li>As a path's input: the first read opens the file (which must exist), skips {@code in.skip} samples and
 *   replays the rest paced as {@code in.rate} and {@code in.epoch_mode} say ({@link ReplayPacer}); at the end
 *   of the file it stops, rewinds or waits for more ({@code in.eof}). Values are read as {@code in.signals} says,
 *   else as the path's output signals if the node is written too, else as 64 floats (VILLAS's default).</li>
 * </ul>
 * A file that cannot be written or read is a {@link NodeException} naming the node, the expanded path, the reason
 * and where the {@code uri} was written. Only samples whose whole line reached the file count as written; when a
 * write fails (a full disk) the error and the summary say how many the file holds and whether its last line is
 * torn, and nothing more is written, not even at stop. The file is not cut back to its last whole line: it is
 * appended to, as VILLAS's {@code "a+"}, so bytes after ours may not be ours to cut.
 */
public final class FileNode implements Node
{
    /** The node type in a config. */
    public static final String TYPE = "file";
    /** Builds file nodes from their settings. */
    public static final NodeFactory FACTORY = FileNode::create;
    /** Opens an output as VILLAS's {@code "a+"}: created if missing, appended to. */
    private static final Opener APPEND = (path) -> FileChannel.open(path, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    private static final Path DEV_NULL = Path.of("/dev/null");
    /**
     * Builds file nodes whose outputs format every sample and discard the text: for the warm-up. They write to
     * /dev/null where there is one, through the file channel a run's outputs write through.
     */
    public static final NodeFactory DISCARDING_FACTORY = (name, settings, context) -> create(name, settings, context,
        (path) -> Files.isWritable(DEV_NULL) ? APPEND.open(DEV_NULL) :
            Channels.newChannel(OutputStream.nullOutputStream()));

    /** How long {@code in.eof = "wait"} lets pass before it looks for appended lines again, as VILLAS. */
    private static final long WAIT_RETRY_NANOS = 100_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final String name;
    private final FileNodeSettings settings;
    private final NodeContext context;
    private final Opener opener;
    private SignalList outputSignals;
    private Path path;
    private WritableByteChannel out;
    private VillasHumanWriter writer;
    private VillasHumanReader reader;
    private ReplayPacer pacer;
    private Sample next;
    private boolean nextRead;
    private boolean ended;
    private boolean waiting;
    private long waitingSince;
    private long samplesRead;
    private long rewinds;
    private boolean started;
    private boolean stopped;

    private FileNode(final String name, final FileNodeSettings settings, final NodeContext context,
        final Opener opener)
    {
        this.name = name;
        this.settings = settings;
        this.context = context;
        this.opener = opener;
    }

    /** Opens the file a node writes; tests pass one whose disk fills up. */
    @FunctionalInterface
    interface Opener
    {
        /**
         * @param path the file, its parent directories made.
         * @return a channel that appends to it.
         * @throws IOException if it cannot be opened.
         */
        WritableByteChannel open(Path path) throws IOException;
    }

    /**
     * Binds a file node's settings: {@code uri}, {@code format}, {@code signals}, {@code in.eof}, {@code in.rate},
     * {@code in.epoch_mode}, {@code in.epoch}, {@code in.skip}, {@code in.buffer_size}, {@code in.signals},
     * {@code in.hooks}, {@code out.flush}, {@code out.buffer_size}, {@code out.hooks}.
     *
     * @param name     the node's name.
     * @param settings its group.
     * @param context  the runner's base directory and clocks.
     * @return the node, not started, and its hook lists.
     * @throws io.ibex.transport.config.ConfigException naming the key, its location and what is wrong.
     */
    public static ConfiguredNode create(final String name, final ConfigGroup settings, final NodeContext context)
    {
        return create(name, settings, context, APPEND);
    }

    static ConfiguredNode create(final String name, final ConfigGroup settings, final NodeContext context,
        final Opener opener)
    {
        final FileNodeSettings bound = FileNodeSettings.bind(name, settings);
        return new ConfiguredNode(new FileNode(name, bound, context, opener), bound.inHooks(), bound.outHooks());
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public String type()
    {
        return TYPE;
    }

    /** @return {@code in.signals} if given, else the path's signals it writes if it is an output, else 64 floats. */
    @Override
    public SignalList signals()
    {
        if (settings.signals() != null)
        {
            return settings.signals();
        }
        return outputSignals != null ? outputSignals : SignalList.DEFAULT;
    }

    /** @return true: any file node may replay its file, as in VILLAS. */
    @Override
    public boolean readable()
    {
        return true;
    }

    /** @return true: any file node may write its file, as in VILLAS. */
    @Override
    public boolean writable()
    {
        return true;
    }

    /**
     * @param signals the signals of the path that writes to this node: the header names them and the values are
     *                written as their types.
     */
    @Override
    public void outputSignals(final SignalList signals)
    {
        this.outputSignals = signals;
    }

    /** @return the file name, uri expanded, once started; null before. */
    public Path path()
    {
        return path;
    }

    /**
     * Expands the uri; for an output, creates the parent directories and opens the file for appending.
     *
     * @throws NodeException naming the node, the path, the reason and the uri's location if that fails.
     */
    @Override
    public void start()
    {
        if (started)
        {
            throw new IllegalStateException("file node '" + name + "' started twice");
        }
        started = true;
        final long now = context.clock().nanoTime();
        path = context.baseDirectory().resolve(Strftime.format(settings.uri(), Math.floorDiv(now, NANOS_PER_SECOND)))
            .toAbsolutePath().normalize();
        if (outputSignals != null)
        {
            try
            {
                final Path parent = path.getParent();
                if (parent != null)
                {
                    Files.createDirectories(parent);
                }
                out = opener.open(path);
            }
            catch (final IOException ex)
            {
                throw failure("cannot write", ex);
            }
            writer = new VillasHumanWriter(out, outputSignals, settings.outBufferSize());
        }
    }

    /**
     * Replays the file's next samples: as many as are due (one per step at a fixed rate).
     *
     * @return how many the block holds, 0 when none is due yet, {@link #END} after the last one with
     *         {@code in.eof = "stop"} (or of an empty file with {@code "rewind"}), and once stopped.
     * @throws NodeException if the file cannot be read or holds what villas.human does not allow.
     */
    @Override
    public int read(final SampleBlock block)
    {
        if (!started)
        {
            throw new IllegalStateException("file node '" + name + "' read before it started");
        }
        if (stopped)
        {
            return END;
        }
        try
        {
            if (reader == null)
            {
                openReplay();
            }
            int count = 0;
            while (count < block.slots() && !ended && (nextRead || readNext()) && pacer.due(next))
            {
                block.get(count++).copyFrom(next);
                nextRead = false;
                samplesRead++;
                if (pacer.paced())
                {
                    break;
                }
            }
            block.size(count);
            return count == 0 && ended ? END : count;
        }
        catch (final IOException ex)
        {
            throw failure("cannot read", ex);
        }
        catch (final SampleFileException ex)
        {
            throw new NodeException(name, ex.getMessage(), ex);
        }
        catch (final ArithmeticException ex)
        {
            // the message says it all: ArithmeticException's "long overflow" would add nothing
            final String mode = settings.epochMode().name().toLowerCase(Locale.ROOT);
            throw new NodeException(name, String.format(Locale.ROOT, "%s:%d:1: ts.origin %d.%09d is out of range: " +
                "replay by timestamps (in.epoch_mode \"%s\") takes times within 292 years of 1970", path,
                reader.sampleLine(), next.originSeconds(), next.originNanos(), mode), null);
        }
    }

    @Override
    public long nanosUntilDue()
    {
        return reader == null || ended ? Long.MAX_VALUE : pacer.nanosUntilDue(nextRead ? next : null);
    }

    /**
     * Writes the samples to the file (through its buffer unless {@code out.flush}).
     *
     * @return count: a file takes everything.
     * @throws NodeException if the file cannot be written.
     */
    @Override
    public int write(final SampleBlock block, final int from, final int count)
    {
        if (writer == null || stopped)
        {
            throw new IllegalStateException("file node '" + name + "' written while " + (stopped ? "stopped" :
                started ? "not a path's output: the runner must call outputSignals before start" : "not started"));
        }
        try
        {
            for (int i = from; i < from + count; i++)
            {
                writer.write(block.get(i));
            }
            if (settings.flush())
            {
                writer.flush();
            }
            return count;
        }
        catch (final IOException ex)
        {
            throw writeFailure(ex);
        }
    }

    /**
     * Writes what is buffered to the file and closes it.
     *
     * @throws NodeException if the last write fails (the file is closed all the same).
     */
    @Override
    public void stop()
    {
        if (stopped)
        {
            return;
        }
        stopped = true;
        try (WritableByteChannel output = out)
        {
            if (output != null && !writer.failed())
            {
                writer.flush();
            }
        }
        catch (final IOException ex)
        {
            throw writer.failed() ? writeFailure(ex) : failure("cannot write", ex);
        }
        finally
        {
            closeReplay();
        }
    }

    /** @return what it wrote and read, and the file's path. */
    @Override
    public String summary()
    {
        final String file = path != null ? path.toString() : settings.uri();
        final String wrote = writer == null ? null : "wrote " + writer.samplesWritten() + " samples to";
        final String refused = writer == null || !writer.failed() ? "" : ", then the disk refused the rest" +
            (writer.tornBytes() > 0 ? "; its last line is torn (" + writer.tornBytes() + " bytes)" : "");
        if (reader == null)
        {
            return (wrote != null ? wrote : "nothing written or read:") + " " + file + refused;
        }
        return (wrote != null ? wrote + " and " : "") + "read " + samplesRead + " samples from " + file + refused +
            (rewinds > 0 ? ", rewound " + rewinds + (rewinds == 1 ? " time" : " times") : "") +
            (pacer.missedSteps() > 0 ? ", " + pacer.missedSteps() + " steps missed" : "");
    }

    @Override
    public void close()
    {
        stop();
    }

    /**
     * Opens the file for replay, starts the pacer at the first sample's time (VILLAS's "first", before any skipped)
     * and skips {@code in.skip} samples.
     */
    private void openReplay() throws IOException
    {
        try
        {
            reader = new VillasHumanReader(path.toString(), FileChannel.open(path, StandardOpenOption.READ),
                signals(), settings.inBufferSize(), settings.eof() == FileNodeSettings.Eof.WAIT);
        }
        catch (final NoSuchFileException ex)
        {
            throw new NodeException(name, "cannot replay " + path + " (uri at " + settings.uriLocation() + "): no " +
                "such file (a file node that is no path's output replays an existing file)", ex);
        }
        next = new SampleBlock(1, signals().size()).get(0);
        pacer = new ReplayPacer(settings, context.clock(), context.pacingClock());
        pacer.start(reader.read(next) ? next : null);
        reader.rewind();
        int skipped = 0;
        while (skipped < settings.skip() && reader.read(next))
        {
            skipped++;
        }
    }

    /**
     * Reads the next sample into {@link #next}; at the end of the file does what {@code in.eof} says.
     *
     * @return whether there is one now.
     */
    private boolean readNext() throws IOException
    {
        final long now = context.pacingClock().nanoTime();
        if (waiting && now - waitingSince < WAIT_RETRY_NANOS)
        {
            return false;
        }
        nextRead = reader.read(next);
        waiting = !nextRead && settings.eof() == FileNodeSettings.Eof.WAIT;
        waitingSince = now;
        if (!nextRead && settings.eof() == FileNodeSettings.Eof.REWIND)
        {
            reader.rewind();
            rewinds++;
            pacer.restart();
            nextRead = reader.read(next);
        }
        ended = !nextRead && settings.eof() != FileNodeSettings.Eof.WAIT;
        return nextRead;
    }

    /** Closing a file that was only read cannot lose anything: a failure to is not worth failing the stop for. */
    private void closeReplay()
    {
        try
        {
            if (reader != null)
            {
                reader.close();
            }
        }
        catch (final IOException ignored)
        {
            // the descriptor is released either way
        }
    }

    /** @return a failed write, saying what the file holds: whole samples, and a torn line if one was begun. */
    private NodeException writeFailure(final IOException ex)
    {
        final long torn = writer.tornBytes();
        return new NodeException(name, "cannot write " + path + " (uri at " + settings.uriLocation() + "): " +
            reason(ex) + "; the file holds the header and " + writer.samplesWritten() + " complete samples, " +
            (torn > 0 ? "then a torn line of " + torn + " bytes (sample " + (writer.samplesWritten() + 1) +
            ", not counted)" : "and no torn line"), ex);
    }

    private NodeException failure(final String what, final IOException ex)
    {
        return new NodeException(name, what + " " + path + " (uri at " + settings.uriLocation() + "): " + reason(ex),
            ex);
    }

    /** @return why a file operation failed, in words (NIO's messages are often the path alone). */
    private String reason(final IOException ex)
    {
        if (!(ex instanceof FileSystemException fs))
        {
            return ex.getMessage() != null ? ex.getMessage() : ex.getClass().getSimpleName();
        }
        final String detail;
        if (fs.getReason() != null)
        {
            detail = fs.getReason();
        }
        else if (fs instanceof AccessDeniedException)
        {
            detail = "permission denied";
        }
        else if (fs instanceof NoSuchFileException)
        {
            detail = "no such file or directory";
        }
        else if (fs instanceof FileAlreadyExistsException)
        {
            detail = "exists and is not a directory";
        }
        else
        {
            detail = fs.getClass().getSimpleName();
        }
        return fs.getFile() == null || fs.getFile().equals(path.toString()) ? detail : fs.getFile() + ": " + detail;
    }
}
