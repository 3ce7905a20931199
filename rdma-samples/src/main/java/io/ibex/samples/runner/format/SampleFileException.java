package io.ibex.samples.runner.format;

/**
 * A sample file holds something its format does not allow. The message starts with where:
 * {@code "results.log:12:27: value 3 (sine): '0.5x' is not a float"}; lines and columns count from 1, a column
 * counts bytes.
 */
public final class SampleFileException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** The file as it was named. */
    private final String source;
    /** The line, from 1. */
    private final long line;
    /** The column, from 1. */
    private final int column;

    /**
     * @param source  the file as it was named.
     * @param line    the line, from 1.
     * @param column  the column, from 1.
     * @param problem what is wrong, with the value.
     */
    public SampleFileException(final String source, final long line, final int column, final String problem)
    {
        super(source + ':' + line + ':' + column + ": " + problem);
        this.source = source;
        this.line = line;
        this.column = column;
    }

    /** @return the file as it was named. */
    public String source()
    {
        return source;
    }

    /** @return the line, from 1. */
    public long line()
    {
        return line;
    }

    /** @return the column, from 1. */
    public int column()
    {
        return column;
    }
}
