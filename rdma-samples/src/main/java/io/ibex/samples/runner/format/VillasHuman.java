package io.ibex.samples.runner.format;

/**
 * VILLASnode's {@code villas.human} text format (lib/formats/villas_human.cpp), one sample a line:
 * <pre>
 *   # seconds.nanoseconds(sequence)\tname[unit]\tname[unit]...          the header, optional, the first line
 *   1561591854.277376100(0)\t0.02224500000000000\t-0.13635900000000000   a sample
 *   seconds.nanoseconds[+offset][(sequence)]{\tvalue}                 its parts, \t a tab
 * </pre>
 * <ul>
 *   <li>ts.origin as whole seconds, a point and the nanoseconds as an integer (written with 9 digits: it is not a
 *   decimal fraction); {@code 0.0} when a sample has none.</li>
 *   <li>{@code +offset}: ts.received minus ts.origin in seconds, read but never written (VILLAS writes it no
 *   more).</li>
 *   <li>{@code (sequence)} when the sample has one.</li>
 *   <li>values by signal type: float as {@code %.17f}, integer as {@code %lld}, boolean as 0 or 1, complex as
 *   {@code %.17f%+.17fi}.</li>
 * </ul>
 * Lines that start with {@value #COMMENT} (after blanks) and blank lines carry no sample.
 */
public final class VillasHuman
{
    /** The format's name in a config. */
    public static final String NAME = "villas.human";
    /** Decimals of float and complex values: VILLAS's real_precision default. */
    public static final int PRECISION = 17;
    /** Starts a comment line, and the header. */
    public static final char COMMENT = '#';
    /** Between the timestamp and each value. */
    public static final char SEPARATOR = '\t';
    /** Ends each line. */
    public static final char DELIMITER = '\n';
    /** The header's first column: what the timestamp column holds. */
    public static final String TIMESTAMP_LEGEND = "seconds.nanoseconds(sequence)";
    /** Bytes a reader or writer buffers unless told otherwise. */
    public static final int DEFAULT_BUFFER_SIZE = 1 << 16;
    /** Names a signal that has no name, with its index after it, as VILLAS. */
    public static final String UNNAMED_SIGNAL = "signal";

    private VillasHuman()
    {
    }
}
