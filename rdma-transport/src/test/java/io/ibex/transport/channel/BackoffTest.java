package io.ibex.transport.channel;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackoffTest
{
    private final Backoff backoff = new Backoff(Duration.ofNanos(10), Duration.ofNanos(70));

    @Test
    void theDelayDoublesFromTheMinimumUpToTheMaximum()
    {
        assertEquals(10, backoff.schedule(0));
        assertEquals(20, backoff.schedule(0));
        assertEquals(40, backoff.schedule(0));
        assertEquals(70, backoff.schedule(0));
        assertEquals(70, backoff.schedule(0));
    }

    @Test
    void aTryIsDueOnceItsDelayHasPassedAndIsTakenOnce()
    {
        assertFalse(backoff.takeDue(1000), "nothing scheduled");
        backoff.schedule(1000);
        assertFalse(backoff.takeDue(1009));
        assertTrue(backoff.takeDue(1010));
        assertFalse(backoff.takeDue(1011), "taken already");
    }

    @Test
    void aConnectionResetsTheDelayToTheMinimum()
    {
        backoff.schedule(0);
        backoff.schedule(0);
        backoff.reset();
        assertEquals(10, backoff.schedule(0));
    }

    @Test
    void aTryDueAcrossTheClocksWrapIsStillDue()
    {
        backoff.schedule(Long.MAX_VALUE - 5);
        assertTrue(backoff.takeDue(Long.MAX_VALUE - 5 + 10));
    }
}
