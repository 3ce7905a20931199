package io.ibex.samples.runner;

import io.ibex.samples.IbexRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompareCommandTest
{
    private static final String HEADER = "# seconds.nanoseconds(sequence)\tsine\tcount\tz\n";
    private static final String GENERATED = HEADER +
        "1700000000.000000000(0)\t0.00000000000000000\t0\t1.00000000000000000+0.50000000000000000i\n" +
        "1700000000.010000000(1)\t0.58778525229247314\t1\t1.00000000000000000+0.50000000000000000i\n" +
        "1700000000.020000000(2)\t0.95105651629515353\t2\t1.00000000000000000+0.50000000000000000i\n" +
        "1700000000.030000000(3)\t0.95105651629515353\t3\t1.00000000000000000+0.50000000000000000i\n";

    @TempDir
    Path dir;

    @Test
    void equalFilesExitZeroWhateverTheirHeadersAndComments() throws IOException
    {
        final IbexRun run = compare(GENERATED, "# arrived\n" + GENERATED.substring(HEADER.length()) + "\n");
        run.assertSucceeded();
        assertEquals(a() + " and " + b() + " are equal: 4 samples", run.out().strip());
    }

    @Test
    void aValueOffByMoreThanTheToleranceDiffersAndByLessDoesNot() throws IOException
    {
        final String arrived = GENERATED.replace("0.58778525229247314", "0.58778525229247336");
        final IbexRun exact = compare(GENERATED, arrived);
        exact.assertStatus(CompareCommand.DIFFERENT);
        assertEquals(a() + ":3 and " + b() + ":3 differ: value 1 (sine): 0.5877852522924731 vs 0.5877852522924734 " +
            "(difference 2.220446049250313E-16 > tolerance 0.0)\n" +
            a() + ": 4 samples, " + b() + ": 4 samples; 1 differing, 0 only in " + a() + ", 0 only in " + b(),
            exact.out().strip());
        run("compare", "--abs-tolerance=1e-15", a().toString(), b().toString()).assertSucceeded();
        run("compare", "--rel-tolerance=1e-15", a().toString(), b().toString()).assertSucceeded();
        run("compare", "--rel-tolerance=1e-16", a().toString(), b().toString()).assertStatus(1);
    }

    @Test
    void integersCompareExactlyWhateverTheToleranceAndComplexPartsWithIt() throws IOException
    {
        final IbexRun count = compare(GENERATED, GENERATED.replace("353\t3\t", "353\t4\t"));
        count.assertStatus(1);
        assertTrue(count.out().startsWith(a() + ":5 and " + b() + ":5 differ: value 2 (count): 3 vs 4\n"),
            count::toString);
        run("compare", "--abs-tolerance=10", a().toString(), b().toString()).assertStatus(1);
        final IbexRun complex = compare(GENERATED, GENERATED.replaceFirst("\\+0.50000000000000000i", "+0.50001i"));
        complex.assertStatus(1);
        assertTrue(complex.out().startsWith(a() + ":2 and " + b() + ":2 differ: value 3 (z): imaginary part 0.5 vs " +
            "0.5000100135803223"), complex::toString);
        run("compare", "--abs-tolerance=1e-4", a().toString(), b().toString()).assertSucceeded();
    }

    @Test
    void aMissingSampleIsOneDifferenceAndTheRestStillPairUp() throws IOException
    {
        final IbexRun run = compare(GENERATED, GENERATED.replace(
            "1700000000.010000000(1)\t0.58778525229247314\t1\t1.00000000000000000+0.50000000000000000i\n", ""));
        run.assertStatus(1);
        assertEquals(a() + ":3 (sequence 1) has no counterpart in " + b() + " (its next sample, line 3, has sequence " +
            "2)\n" + a() + ": 4 samples, " + b() + ": 3 samples; 0 differing, 1 only in " + a() + ", 0 only in " + b(),
            run.out().strip());
    }

    @Test
    void asASubsetSamplesOnlyInTheFirstFileAreCountedButAnythingElseDiffers() throws IOException
    {
        final String lossy = GENERATED.replace(
            "1700000000.010000000(1)\t0.58778525229247314\t1\t1.00000000000000000+0.50000000000000000i\n", "");
        Files.writeString(a(), GENERATED);
        Files.writeString(b(), lossy);
        final IbexRun run = run("compare", "--subset", a().toString(), b().toString());
        run.assertSucceeded();
        assertEquals(b() + " is a subset of " + a() + ": 3 of 4 samples equal, 1 only in " + a() + " (25.00 % lost)",
            run.out().strip());
        Files.writeString(b(), lossy.replace("353\t3\t", "353\t4\t"));
        final IbexRun changed = run("compare", "--subset", a().toString(), b().toString());
        changed.assertStatus(CompareCommand.DIFFERENT);
        assertTrue(changed.out().startsWith(a() + ":5 and " + b() + ":4 differ: value 2 (count): 3 vs 4\n"),
            changed::toString);
        Files.writeString(b(), lossy + "1700000000.040000000(4)\t0.5\t4\t1+0.5i\n");
        run("compare", "--subset", a().toString(), b().toString()).assertStatus(CompareCommand.DIFFERENT);
        Files.writeString(b(), HEADER);
        final IbexRun empty = run("compare", "--subset", a().toString(), b().toString());
        empty.assertStatus(CompareCommand.DIFFERENT);
        assertEquals(b() + " holds no sample (" + a() + ": 4)", empty.out().strip());
    }

    @Test
    void anExtraSampleAtTheEndIsOnlyInOneFile() throws IOException
    {
        final IbexRun run = compare(GENERATED, GENERATED + "1700000000.040000000(4)\t0.5\t4\t1+0.5i\n");
        run.assertStatus(1);
        assertEquals(b() + ":6 (sequence 4) has no counterpart in " + a() + " (it has ended)\n" +
            a() + ": 4 samples, " + b() + ": 5 samples; 0 differing, 0 only in " + a() + ", 1 only in " + b(),
            run.out().strip());
    }

    @Test
    void timestampsCountUnlessIgnored() throws IOException
    {
        final IbexRun run = compare(GENERATED, GENERATED.replace("1700000000.020000000(2)", "1700000000.020000001(2)"));
        run.assertStatus(1);
        assertTrue(run.out().startsWith(a() + ":4 and " + b() + ":4 differ: ts.origin 1700000000.020000000 vs " +
            "1700000000.020000001\n"), run::toString);
        run("compare", "--ignore-timestamps", a().toString(), b().toString()).assertSucceeded();
    }

    @Test
    void withoutSequencesSamplesPairUpByPosition() throws IOException
    {
        final String unsequenced = GENERATED.replaceAll("\\(\\d\\)", "");
        final IbexRun run = compare(unsequenced, unsequenced.substring(0, unsequenced.lastIndexOf("1700000000.03")));
        run.assertStatus(1);
        assertTrue(run.out().startsWith(a() + ":5 has no counterpart in " + b() + " (it has ended)\n"), run::toString);
    }

    @Test
    void aFileThatCannotBeReadOrIsNotVillasHumanExitsTwo() throws IOException
    {
        Files.writeString(a(), GENERATED);
        final IbexRun missing = run("compare", a().toString(), dir.resolve("none.log").toString());
        missing.assertStatus(CompareCommand.UNREADABLE);
        assertEquals("ibex compare: error: cannot read " + dir.resolve("none.log") + ": no such file",
            missing.err().strip());
        final IbexRun broken = compare(GENERATED, GENERATED.replace("(3)\t0.95105651629515353", "(3)\t0.95x"));
        broken.assertStatus(CompareCommand.UNREADABLE);
        assertEquals("ibex compare: error: " + b() + ":5:25: value 1 (sine): '0.95x' is not a float",
            broken.err().strip());
        final IbexRun negative = run("compare", "--abs-tolerance=-1", a().toString(), a().toString());
        negative.assertStatus(2);
        assertTrue(negative.err().startsWith("--abs-tolerance=-1.0: must be a number, 0 or more"), negative::toString);
    }

    private IbexRun compare(final String textA, final String textB) throws IOException
    {
        Files.writeString(a(), textA);
        Files.writeString(b(), textB);
        return run("compare", a().toString(), b().toString());
    }

    private static IbexRun run(final String... args)
    {
        return IbexRun.run(args);
    }

    private Path a()
    {
        return dir.resolve("generated.log");
    }

    private Path b()
    {
        return dir.resolve("arrived.log");
    }
}
