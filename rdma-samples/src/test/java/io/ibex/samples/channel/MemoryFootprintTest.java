package io.ibex.samples.channel;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code ibex channel --memory-bound} compares: each measure's growth, heap, direct and native bounded, the
 * resident set only reported, a measure this JVM cannot give left out.
 */
class MemoryFootprintTest
{
    private static final long MIB = 1024 * 1024;

    @Test
    void growthWithinTheBoundPassesAndEveryMeasureIsReported()
    {
        final MemoryFootprint before = new MemoryFootprint(4 * MIB, MIB, 80 * MIB, 200 * MIB);
        final MemoryFootprint after = new MemoryFootprint(4 * MIB + MIB / 10, MIB, 79 * MIB, 260 * MIB);

        assertNull(before.excess(after, 5), "rss is not bounded, the others grew less than 5%");
        assertEquals("heap 4.00 MiB -> 4.10 MiB (+2.5%), direct 1.00 MiB -> 1.00 MiB (+0.0%), " +
            "native 80.00 MiB -> 79.00 MiB (-1.3%), rss 200.00 MiB -> 260.00 MiB (+30.0%)", before.compare(after));
    }

    @Test
    void growthBeyondTheBoundNamesEachMeasureWithItsValues()
    {
        final MemoryFootprint before = new MemoryFootprint(4 * MIB, 0, 80 * MIB, 200 * MIB);
        final MemoryFootprint after = new MemoryFootprint(5 * MIB, 4096, 80 * MIB, 200 * MIB);

        assertEquals("heap grew from 4.00 MiB to 5.00 MiB (+25.0%), direct grew from 0.0 KiB to 4.0 KiB " +
            "(from nothing), more than 5.0%", before.excess(after, 5));
    }

    @Test
    void aMeasureMissingOnEitherSideIsLeftOut()
    {
        final MemoryFootprint before = new MemoryFootprint(4 * MIB, MIB, -1, -1);
        final MemoryFootprint after = new MemoryFootprint(4 * MIB, MIB, 90 * MIB, -1);

        assertEquals("heap 4.00 MiB -> 4.00 MiB (+0.0%), direct 1.00 MiB -> 1.00 MiB (+0.0%)",
            before.compare(after));
        assertNull(before.excess(after, 0));
    }

    @Test
    void aMeasurementOfThisJvmHasHeapAndDirectMemory()
    {
        final MemoryFootprint now = MemoryFootprint.measure();
        assertTrue(now.heap() > 0 && now.direct() >= 0, now.toString());
    }
}
