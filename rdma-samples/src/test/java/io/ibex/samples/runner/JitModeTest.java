package io.ibex.samples.runner;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * C1 alone where cores are scarce, as asked otherwise; HotSpot takes the directive that keeps C2 away.
 */
class JitModeTest
{
    @Test
    void autoTakesC1AloneWhenFewerCoresAreFreeThanPathsPlusOne()
    {
        assertTrue(JitMode.AUTO.c1Only(2, 2.9));
        assertFalse(JitMode.AUTO.c1Only(2, 3.0));
        assertTrue(JitMode.AUTO.c1Only(1, 1.5));
        assertTrue(JitMode.C1.c1Only(1, 64));
        assertFalse(JitMode.TIERED.c1Only(4, 0));
    }

    @Test
    void hotSpotTakesTheDirectiveOnceAndAgainWithoutComplaint()
    {
        assertNull(JitMode.applyC1Only(), "HotSpot's DiagnosticCommand MBean refused the compiler directive");
        assertNull(JitMode.applyC1Only());
    }

    @Test
    void anUnknownModeIsNamed()
    {
        assertEquals(JitMode.C1, JitMode.fromOptionName("C1"));
        assertEquals("\"c2\" is not one of auto, c1, tiered",
            assertThrows(IllegalArgumentException.class, () -> JitMode.fromOptionName("c2")).getMessage());
    }
}
