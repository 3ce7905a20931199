package io.ibex.samples.runner;

import io.ibex.samples.runner.format.VillasHumanReader;
import io.ibex.samples.runner.node.SampleBlock;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalType;
import io.ibex.transport.sample.SignalValues;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Compares two villas.human files sample by sample, as {@code ibex compare} does: sequence, ts.origin (unless
 * ignored) and values, floats within a tolerance and integers exactly. Each file's value types come from its first
 * sample ({@link VillasHumanReader}). When both samples carry a sequence, a sequence one file lacks counts as a
 * sample only in the other and the comparison goes on with the next, so one lost sample is one difference, not
 * all that follow; without sequences samples pair up by position. As a subset comparison, samples only in the first
 * file are counted but are no difference (what a lossy transport such as UD delivered must be exact, not
 * complete).
 */
public final class SampleFileComparison
{
    private final VillasHumanReader a;
    private final VillasHumanReader b;
    private final Tolerance tolerance;
    private final boolean subset;
    private final Sample sampleA = sample();
    private final Sample sampleB = sample();
    private long samplesA;
    private long samplesB;
    private long differing;
    private long onlyInA;
    private long onlyInB;
    private String firstDifference;

    private SampleFileComparison(final VillasHumanReader a, final VillasHumanReader b, final Tolerance tolerance,
        final boolean subset)
    {
        this.a = a;
        this.b = b;
        this.tolerance = tolerance;
        this.subset = subset;
    }

    /**
     * How close values must be, and what to leave out.
     *
     * @param absolute         floats are equal when they differ by at most absolute + relative * the larger
     *                         magnitude (NaN equals NaN, an infinity only itself).
     * @param relative         see absolute.
     * @param ignoreTimestamps whether ts.origin is left out.
     */
    public record Tolerance(double absolute, double relative, boolean ignoreTimestamps)
    {
        /** Equal means the same numbers and timestamps. */
        public static final Tolerance EXACT = new Tolerance(0, 0, false);

        /**
         * Checks the tolerances.
         *
         * @param absolute         the absolute tolerance, 0 or more.
         * @param relative         the relative tolerance, 0 or more.
         * @param ignoreTimestamps whether ts.origin is left out.
         * @throws IllegalArgumentException if a tolerance is negative or NaN.
         */
        public Tolerance
        {
            if (!(absolute >= 0) || !(relative >= 0))
            {
                throw new IllegalArgumentException("tolerances must be 0 or more, not absolute " + absolute +
                    ", relative " + relative);
            }
        }
    }

    /**
     * What a comparison found.
     *
     * @param samplesA        samples in the first file.
     * @param samplesB        samples in the second file.
     * @param differing       pairs of samples that differ.
     * @param onlyInA         samples of the first file the second lacks.
     * @param onlyInB         samples of the second file the first lacks.
     * @param firstDifference the first difference with both files' line numbers, or null if the files are equal.
     */
    public record Result(long samplesA, long samplesB, long differing, long onlyInA, long onlyInB,
        String firstDifference)
    {
        /** @return whether the files hold the same samples. */
        public boolean equal()
        {
            return firstDifference == null;
        }
    }

    /**
     * @param fileA     the first file.
     * @param fileB     the second file.
     * @param tolerance how close values must be.
     * @return what the comparison found.
     * @throws IOException if a file cannot be read.
     * @throws io.ibex.samples.runner.format.SampleFileException if a file is not villas.human.
     */
    public static Result compare(final Path fileA, final Path fileB, final Tolerance tolerance) throws IOException
    {
        return compare(fileA, fileB, tolerance, false);
    }

    /**
     * @param fileA     the first file.
     * @param fileB     the second file.
     * @param tolerance how close values must be.
     * @param subset    whether samples only in the first file are allowed: counted, but no difference.
     * @return what the comparison found.
     * @throws IOException if a file cannot be read.
     * @throws io.ibex.samples.runner.format.SampleFileException if a file is not villas.human.
     */
    public static Result compare(final Path fileA, final Path fileB, final Tolerance tolerance, final boolean subset)
        throws IOException
    {
        try (VillasHumanReader a = VillasHumanReader.open(fileA, null);
            VillasHumanReader b = VillasHumanReader.open(fileB, null))
        {
            return new SampleFileComparison(a, b, tolerance, subset).run();
        }
    }

    private Result run() throws IOException
    {
        boolean haveA = readA();
        boolean haveB = readB();
        while (haveA || haveB)
        {
            final int order = haveA && haveB ? sequenceOrder() : haveA ? -1 : 1;
            if (order < 0)
            {
                onlyInA++;
                if (firstDifference == null && !subset)
                {
                    firstDifference = unmatched(a, sampleA, b, haveB ? sampleB : null);
                }
                haveA = readA();
            }
            else if (order > 0)
            {
                onlyInB++;
                if (firstDifference == null)
                {
                    firstDifference = unmatched(b, sampleB, a, haveA ? sampleA : null);
                }
                haveB = readB();
            }
            else
            {
                final String difference = difference();
                if (difference != null)
                {
                    differing++;
                    if (firstDifference == null)
                    {
                        firstDifference = a.name() + ":" + a.sampleLine() + " and " + b.name() + ":" +
                            b.sampleLine() + " differ: " + difference;
                    }
                }
                haveA = readA();
                haveB = readB();
            }
        }
        return new Result(samplesA, samplesB, differing, onlyInA, onlyInB, firstDifference);
    }

    /** @return that a file's sample has no counterpart in the other, whose next sample is {@code next}. */
    private static String unmatched(final VillasHumanReader file, final Sample sample, final VillasHumanReader other,
        final Sample next)
    {
        return file.name() + ":" + file.sampleLine() + describeSequence(sample) + " has no counterpart in " +
            other.name() + (next == null ? " (it has ended)" : " (its next sample, line " + other.sampleLine() +
            ", has sequence " + sequenceText(next) + ")");
    }

    /** @return below 0 if A's sample comes first by sequence, above if B's, 0 if they pair up. */
    private int sequenceOrder()
    {
        if ((sampleA.flags() & sampleB.flags() & Sample.HAS_SEQUENCE) == 0)
        {
            return 0;
        }
        return Long.compareUnsigned(sampleA.sequence(), sampleB.sequence());
    }

    /** @return what differs between the two samples first, or null if nothing does. */
    private String difference()
    {
        final int sequences = (sampleA.flags() | sampleB.flags()) & Sample.HAS_SEQUENCE;
        if (sequences != 0 && (sampleA.flags() & sampleB.flags() & Sample.HAS_SEQUENCE) == 0)
        {
            return "sequence " + sequenceText(sampleA) + " vs " + sequenceText(sampleB);
        }
        if (!tolerance.ignoreTimestamps() && (sampleA.originSeconds() != sampleB.originSeconds() ||
            sampleA.originNanos() != sampleB.originNanos()))
        {
            return "ts.origin " + timestamp(sampleA) + " vs " + timestamp(sampleB);
        }
        if (sampleA.length() != sampleB.length())
        {
            return sampleA.length() + " values vs " + sampleB.length();
        }
        for (int i = 0; i < sampleA.length(); i++)
        {
            final String difference = valueDifference(i);
            if (difference != null)
            {
                return "value " + (i + 1) + " (" + a.signals().get(i).name() + "): " + difference;
            }
        }
        return null;
    }

    private String valueDifference(final int index)
    {
        final SignalType typeA = a.signals().get(index).type();
        final SignalType typeB = b.signals().get(index).type();
        final long bitsA = sampleA.bits(index);
        final long bitsB = sampleB.bits(index);
        if (typeA == SignalType.COMPLEX || typeB == SignalType.COMPLEX)
        {
            if (typeA != typeB)
            {
                return typeA.configName() + " in " + a.name() + ", " + typeB.configName() + " in " + b.name();
            }
            final String real = numberDifference(SignalValues.real(bitsA), SignalValues.real(bitsB));
            return real != null ? "real part " + real :
                prefixed("imaginary part ", numberDifference(SignalValues.imag(bitsA), SignalValues.imag(bitsB)));
        }
        if (typeA == SignalType.FLOAT || typeB == SignalType.FLOAT)
        {
            return numberDifference(asDouble(typeA, bitsA), asDouble(typeB, bitsB));
        }
        return bitsA == bitsB ? null : bitsA + " vs " + bitsB;
    }

    private String numberDifference(final double x, final double y)
    {
        if (x == y || (Double.isNaN(x) && Double.isNaN(y)))
        {
            return null;
        }
        final double difference = Math.abs(x - y);
        final double allowed = tolerance.absolute() + tolerance.relative() * Math.max(Math.abs(x), Math.abs(y));
        if (difference <= allowed)
        {
            return null;
        }
        return x + " vs " + y + (Double.isFinite(difference) ? " (difference " + difference + " > tolerance " +
            allowed + ")" : "");
    }

    private boolean readA() throws IOException
    {
        final boolean read = a.read(sampleA);
        samplesA += read ? 1 : 0;
        return read;
    }

    private boolean readB() throws IOException
    {
        final boolean read = b.read(sampleB);
        samplesB += read ? 1 : 0;
        return read;
    }

    private static double asDouble(final SignalType type, final long bits)
    {
        return type == SignalType.FLOAT ? SignalValues.toFloat(bits) : bits;
    }

    private static String prefixed(final String prefix, final String text)
    {
        return text == null ? null : prefix + text;
    }

    private static String describeSequence(final Sample sample)
    {
        return (sample.flags() & Sample.HAS_SEQUENCE) != 0 ? " (sequence " + sequenceText(sample) + ")" : "";
    }

    private static String sequenceText(final Sample sample)
    {
        return (sample.flags() & Sample.HAS_SEQUENCE) != 0 ? Long.toUnsignedString(sample.sequence()) : "none";
    }

    private static String timestamp(final Sample sample)
    {
        return Long.toUnsignedString(sample.originSeconds()) + "." + String.format("%09d", sample.originNanos());
    }

    private static Sample sample()
    {
        return new SampleBlock(1, Sample.MAX_CAPACITY).get(0);
    }
}
