package io.ibex.rdma.conformance;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * Base of the conformance tests that work on one {@link Loopback} fixture: opens it before each test and
 * closes it, with everything created through it, after. Every test is bounded in time so a provider that
 * hangs fails the test instead of the build.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
abstract class LoopbackTest
{
    /** The fixture of the running test. */
    protected Loopback loopback;

    @BeforeEach
    final void openLoopback()
    {
        loopback = Loopback.open();
    }

    @AfterEach
    final void closeLoopback()
    {
        loopback.close();
    }
}
