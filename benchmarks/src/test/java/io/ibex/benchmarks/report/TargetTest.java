package io.ibex.benchmarks.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TargetTest
{
    @Test
    void aLatencyTargetIsMetAtOrBelowItsLimit()
    {
        final Target within = new Target("lat", 10.0, 8.0, "µs", 1.5, true, null);
        final Target over = new Target("lat", 13.2, 8.0, "µs", 1.5, true, null);

        assertEquals(1.25, within.ratio(), 1e-12);
        assertTrue(within.met());
        assertEquals("**met**, 16.7 % inside the limit", within.verdict());
        assertFalse(over.met());
        assertEquals("**missed**, by 10.0 % of the limit", over.verdict());
        assertTrue(new Target("lat", 12.0, 8.0, "µs", 1.5, true, null).met(), "the limit itself is met");
        assertEquals("≤ 1.50 ×", within.limitText());
    }

    @Test
    void aRateTargetIsMetAtOrAboveItsLimit()
    {
        final Target below = new Target("rate", 0.18, 0.21, "Mpps", 0.9, false, null);

        assertFalse(below.met());
        assertEquals("**missed**, by 4.8 % of the limit", below.verdict());
        assertTrue(new Target("rate", 0.2, 0.21, "Mpps", 0.9, false, null).met());
        assertEquals("≥ 0.90 ×", below.limitText());
    }

    @Test
    void aTargetWithoutEitherFigureIsNotRunAndNotMet()
    {
        for (final Target target : new Target[] { new Target("x", Double.NaN, 8.0, "µs", 1.5, true, null),
            new Target("x", 8.0, Double.NaN, "µs", 1.5, true, null), new Target("x", 8.0, 0.0, "µs", 1.5, true, null) })
        {
            assertFalse(target.measured());
            assertFalse(target.met());
            assertEquals(Markdown.NOT_RUN, target.verdict());
        }
    }
}
