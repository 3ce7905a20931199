package io.ibex.transport.config.internal;

import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;
import io.ibex.transport.config.IdleKind;
import io.ibex.transport.config.PollMode;
import io.ibex.transport.config.TransportMode;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ConfigPartsTest
{
    @Test
    void idleKindsMakeTheirAgronaStrategies()
    {
        assertInstanceOf(BusySpinIdleStrategy.class, IdleKind.fromConfigName("busy-spin").newStrategy());
        assertInstanceOf(YieldingIdleStrategy.class, IdleKind.fromConfigName("Yielding").newStrategy());
        assertInstanceOf(BackoffIdleStrategy.class, IdleKind.fromConfigName("backoff").newStrategy());
        assertInstanceOf(SleepingIdleStrategy.class, IdleKind.fromConfigName("sleeping").newStrategy());
        assertEquals("\"spin\" is not one of busy-spin, yielding, backoff, sleeping",
            assertThrows(IllegalArgumentException.class, () -> IdleKind.fromConfigName("spin")).getMessage());
        assertEquals(TransportMode.UD, TransportMode.fromConfigName("ud"));
        assertEquals(PollMode.EVENT, PollMode.fromConfigName("Event"));
    }

    @Test
    void addressesAreNumericOrLocalhost() throws Exception
    {
        assertEquals(new InetSocketAddress(InetAddress.getByName("::1"), 9), SocketAddresses.parse("[::1]:9"));
        assertEquals(new InetSocketAddress(InetAddress.getLoopbackAddress(), 65535),
            SocketAddresses.parse("localhost:65535"));
        assertEquals(new InetSocketAddress("10.99.0.1", 1), SocketAddresses.parse("10.99.0.1:1"));
        assertEquals("\"::1:9\" is not an address: expected ip:port, [ipv6]:port or localhost:port",
            assertThrows(IllegalArgumentException.class, () -> SocketAddresses.parse("::1:9")).getMessage());
        assertEquals("\"1.2.3:4\" is not an address: '1.2.3' is not a numeric IPv4 address (write IPv6 as " +
            "[addr]:port)", assertThrows(IllegalArgumentException.class, () -> SocketAddresses.parse("1.2.3:4"))
            .getMessage());
    }

    @Test
    void suggestionsAreOnlyForCloseKeys()
    {
        assertEquals(1, KeySuggestion.distance("vectorise", "vectorize"));
        assertEquals(3, KeySuggestion.distance("", "abc"));
        assertEquals("in.cq_size", KeySuggestion.nearest("in.cqsize", List.of("in.max_wrs", "in.cq_size")));
        assertNull(KeySuggestion.nearest("zzz", List.of("out", "in")));
        assertEquals("in", KeySuggestion.nearest("im", List.of("out", "in")));
    }

    @Test
    void stringsAreQuotedSoLibconfigReadsThemBack()
    {
        final String text = "a\"b\\c\n\t\r\f\u0001é";

        final ConfigGroup group = LibconfigReader.parse("s = " + ConfigScalar.quote(text), "q.conf");

        assertEquals(scalar(text), group.get("s"));
    }

    @Test
    void treeValuesAreEqualByContentWhereverTheyWereWritten()
    {
        final ConfigLocation here = new ConfigLocation("a.conf", 3, 4);

        assertEquals("a.conf:3:4", here.toString());
        assertEquals("ChannelConfig.builder()", ConfigLocation.of("ChannelConfig.builder()").toString());
        assertEquals(new ConfigList(List.of(scalar(1L)), here),
            new ConfigList(List.of(scalar(1L)), ConfigLocation.of("b")));
        assertEquals("a.conf:3:4: bad", new ConfigException(here, "bad").getMessage());
        assertEquals(here, new ConfigException(here, "bad").location());
        assertThrows(IllegalArgumentException.class, () -> new ConfigScalar(1, here));
    }

    private static ConfigScalar scalar(final Object value)
    {
        return new ConfigScalar(value, ConfigLocation.of("expected"));
    }
}
