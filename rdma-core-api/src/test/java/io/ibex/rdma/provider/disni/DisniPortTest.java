package io.ibex.rdma.provider.disni;

import io.ibex.rdma.Provider;
import io.ibex.rdma.Providers;
import io.ibex.rdma.conformance.Await;
import io.ibex.rdma.conformance.Loopback;
import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.AsyncEventType;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.PortState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.VerbsException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * On rxe0: automatic choice takes disni, and a port that is down is reported by name, with its state and the
 * fix, by {@code availability()} and by the QP transition that would otherwise end in a transport timeout.
 * The port is taken down by taking rxe0's network interface down ({@code SOFTROCE_NETDEV}), and brought back
 * before the test ends, waiting until the port is ACTIVE and the test GID is back, so no later test notices.
 */
@Tag("verbs")
@Timeout(120)
class DisniPortTest
{
    private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long QUIET_MILLIS = 500;

    @Test
    void automaticChoiceTakesDisniWhereAPortIsActive()
    {
        final Provider chosen = Providers.select(Providers.AUTO);

        assertEquals(DisniProvider.NAME, chosen.name());
        final RdmaProvider.Availability availability = new DisniProvider().availability();
        assertTrue(availability.available(), availability.reason());
        assertTrue(availability.reason().contains(" port 1 ACTIVE"), availability.reason());
    }

    @Test
    void aPortThatIsDownIsNamedWithTheFixInsteadOfTimingOut() throws Exception
    {
        final String netdev = System.getenv("SOFTROCE_NETDEV");
        assertNotNull(netdev, "SOFTROCE_NETDEV (rxe0's network interface) is set in the Soft-RoCE guest");
        final RdmaProvider provider = new DisniProvider();
        try (Loopback loopback = Loopback.open())
        {
            final Context context = loopback.context();
            final Gid gid = context.queryGid(Loopback.PORT, Loopback.GID_INDEX);
            final QueuePair qp = loopback.qp(QpType.RC);
            final QueuePair peer = loopback.qp(QpType.RC);
            qp.modify(Loopback.init(QpType.RC));
            link(netdev, "down");
            try
            {
                await(() -> context.queryPort(Loopback.PORT).state() != PortState.ACTIVE, "port 1 to leave ACTIVE");
                assertEquals(Loopback.PORT, Await.asyncEvent(context, AsyncEventType.PORT_ERR).portNum());

                final RdmaProvider.Availability availability = provider.availability();
                assertFalse(availability.available(), availability.reason());
                final String problem = loopback.device().name() + " port 1 is DOWN";
                assertTrue(availability.reason().contains(problem), availability.reason());
                assertTrue(availability.reason().contains("`ip link set " + netdev + " up`"), availability.reason());
                final VerbsException ex = assertThrows(VerbsException.class,
                    () -> qp.modify(loopback.rtr(QpType.RC, peer)));
                assertEquals(VerbsException.ENETDOWN, ex.errno(), ex.getMessage());
                assertTrue(ex.getMessage().contains("to RTR: " + problem), ex.getMessage());
            }
            finally
            {
                link(netdev, "up");
                await(() -> context.queryPort(Loopback.PORT).state() == PortState.ACTIVE &&
                    gid.equals(context.queryGid(Loopback.PORT, Loopback.GID_INDEX)), "port 1 ACTIVE with GID " + gid);
                drainAsyncEvents(context);
            }
            assertTrue(provider.availability().available(), provider.availability().reason());
            qp.modify(loopback.rtr(QpType.RC, peer));
        }
    }

    /**
     * Takes the port's events (PORT_ACTIVE, GID changes) off the device's async queue, which every context of
     * the device shares, so that no later test finds them.
     */
    private static void drainAsyncEvents(final Context context)
    {
        assertEquals(Loopback.PORT, Await.asyncEvent(context, AsyncEventType.PORT_ACTIVE).portNum());
        while (context.getAsyncEvent(QUIET_MILLIS) != null)
        {
            continue;
        }
    }

    private static void link(final String netdev, final String state) throws IOException, InterruptedException
    {
        final Process ip = new ProcessBuilder("ip", "link", "set", netdev, state).redirectErrorStream(true).start();
        final String output = new String(ip.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, ip.waitFor(), "ip link set " + netdev + " " + state + ": " + output);
    }

    private static void await(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + SETTLE_NANOS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("not within 30 s: " + what);
            }
            Thread.sleep(50); // the kernel's netdev notifier has nothing to wait on
        }
    }
}
