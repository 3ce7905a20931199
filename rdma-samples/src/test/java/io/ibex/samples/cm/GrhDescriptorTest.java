package io.ibex.samples.cm;

import io.ibex.rdma.verbs.Gid;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class GrhDescriptorTest
{
    private static final int AT = 8;

    @Test
    void anIpv6HeaderCarriesBothGids()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(AT + GrhDescriptor.LENGTH);
        final Gid source = Gid.parse("fe80::1:2:3:4");
        final Gid destination = Gid.parse("0000:0000:0000:0000:1234:ffff:7f00:0001");
        buffer.put(AT, (byte)0x60);
        buffer.put(AT + 8, source.toBytes());
        buffer.put(AT + 24, destination.toBytes());

        assertEquals(source, GrhDescriptor.sourceGid(buffer, AT));
        assertEquals(destination, GrhDescriptor.destinationGid(buffer, AT));
    }

    @Test
    void aRoceV2Ipv4HeaderCarriesTheAddressesAsIpv4MappedGids()
    {
        // as rxe fills it: 20 zero bytes, then the IPv4 header (version 4, IHL 5; addresses at 12 and 16)
        final ByteBuffer buffer = ByteBuffer.allocate(AT + GrhDescriptor.LENGTH);
        buffer.put(AT + 20, (byte)0x45);
        buffer.put(AT + 32, new byte[] { 10, 99, 0, 1 });
        buffer.put(AT + 36, new byte[] { 10, 99, 0, 2 });

        assertEquals(Gid.parse("::ffff:10.99.0.1"), GrhDescriptor.sourceGid(buffer, AT));
        assertEquals(Gid.parse("::ffff:10.99.0.2"), GrhDescriptor.destinationGid(buffer, AT));
    }

    @Test
    void aHeaderOfNeitherFormIsNamed()
    {
        final ByteBuffer buffer = ByteBuffer.allocate(GrhDescriptor.LENGTH);
        buffer.put(0, (byte)0x12);

        final IllegalStateException failure =
            assertThrows(IllegalStateException.class, () -> GrhDescriptor.sourceGid(buffer, 0));
        assertEquals("the GRH holds neither an IPv6 header (byte 0 is 0x12) nor a RoCE v2 IPv4 header " +
            "(byte 20 is 0x00)", failure.getMessage());
    }
}
