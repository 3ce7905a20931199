package io.ibex.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertTrue;

class VerbsCallCostTest
{
    @Test
    @Timeout(60)
    void aShortRunOnTheSoftProviderMeasuresEveryCallOverTheSecondHalfOfItsCycles()
    {
        final String line = VerbsCallCost.measure("soft", "soft0", 1, 6);

        assertTrue(line.matches("java: empty poll \\d+ ns, poll returning one \\d+ ns, post one receive \\d+ ns, " +
            "clock read \\d+ ns, post 16 SENDs \\d+ ns \\(3 cycles measured\\)"), line);
    }
}
