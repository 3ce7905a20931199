package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.LinkLayer;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.PortState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soft GID encoding: both table entries name the device's wire endpoint.
 */
@Timeout(10)
class SoftGidTest
{
    private final SoftFixture fixture = new SoftFixture();

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void encodingRoundTripsAddressAndPort() throws Exception
    {
        final Inet4Address address = (Inet4Address)InetAddress.getByName("127.1.2.3");
        final Gid linkLocal = SoftGidDescriptor.encode(0, address, 0xbeef);
        final Gid mapped = SoftGidDescriptor.encode(1, address, 0xbeef);
        assertEquals("fe80:0000:0000:0000:beef:ffff:7f01:0203", linkLocal.toString());
        assertEquals("0000:0000:0000:0000:beef:ffff:7f01:0203", mapped.toString());
        for (final Gid gid : new Gid[] {linkLocal, mapped, Gid.parse(mapped.toString())})
        {
            assertTrue(SoftGidDescriptor.isSoftEndpoint(gid));
            assertEquals(new InetSocketAddress(address, 0xbeef), SoftGidDescriptor.toSocketAddress(gid));
        }
    }

    @Test
    void foreignGidsAreNotEndpoints()
    {
        final Gid rxeMapped = Gid.parse("::ffff:127.0.0.1");
        assertFalse(SoftGidDescriptor.isSoftEndpoint(rxeMapped), "no port");
        assertFalse(SoftGidDescriptor.isSoftEndpoint(Gid.parse("fe80::1234:5678:9abc:def0")));
        assertFalse(SoftGidDescriptor.isSoftEndpoint(Gid.ZERO));
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> SoftGidDescriptor.toSocketAddress(rxeMapped));
        assertTrue(ex.getMessage().contains(rxeMapped.toString()), ex.getMessage());
    }

    @Test
    void bothGidIndicesNameThisDevicesEndpoint()
    {
        final SoftDevice device = (SoftDevice)fixture.context.device();
        final InetSocketAddress endpoint = new InetSocketAddress("127.0.0.1", device.port());
        assertEquals(endpoint, SoftGidDescriptor.toSocketAddress(fixture.context.queryGid(1, 0)));
        assertEquals(endpoint, SoftGidDescriptor.toSocketAddress(fixture.context.queryGid(1, 1)));
        final PortAttributes port = fixture.context.queryPort(1);
        assertEquals(PortState.ACTIVE, port.state());
        assertEquals(LinkLayer.ETHERNET, port.linkLayer());
        assertEquals(0, port.lid());
        assertEquals(SoftGidDescriptor.GID_TABLE_LENGTH, port.gidTblLen());
    }
}
