package io.ibex.samples.verbs;

import io.ibex.rdma.verbs.Gid;
import io.ibex.samples.EndpointAddress;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PingpongMessageDescriptorTest
{
    /** What ibv_rc_pingpong writes for this address: sprintf("%04x:%06x:%06x:%s") and the NUL. */
    private static final byte[] C_MESSAGE = "0000:000011:8463be:00000000000000000000ffff0a630001\0"
        .getBytes(StandardCharsets.US_ASCII);

    private static final EndpointAddress ADDRESS =
        new EndpointAddress(0, 0x11, 0x8463be, Gid.parse("::ffff:10.99.0.1"));

    @Test
    void writesTheCToolsMessageByteForByte()
    {
        assertEquals(PingpongMessageDescriptor.LENGTH, C_MESSAGE.length);
        assertArrayEquals(C_MESSAGE, PingpongMessageDescriptor.encode(ADDRESS));
    }

    @Test
    void readsTheCToolsMessage()
    {
        assertEquals(ADDRESS, PingpongMessageDescriptor.decode(C_MESSAGE));
        final byte[] upper = new String(C_MESSAGE, StandardCharsets.US_ASCII).toUpperCase()
            .getBytes(StandardCharsets.US_ASCII);
        assertEquals(ADDRESS, PingpongMessageDescriptor.decode(upper));
    }

    @Test
    void theClosingDoneIsFiveBytes()
    {
        assertArrayEquals(new byte[] { 'd', 'o', 'n', 'e', 0 }, PingpongMessageDescriptor.done());
        assertTrue(PingpongMessageDescriptor.isDone("done\0".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void refusesWhatIsNotTheLayout()
    {
        assertRefused(0, (byte)'g', "the LID has 'g' at byte 0");
        assertRefused(PingpongMessageDescriptor.QPN_OFFSET - 1, (byte)';', "byte 4 is ';', expected ':'");
        assertRefused(PingpongMessageDescriptor.GID_OFFSET + 31, (byte)' ', "the GID has ' ' at byte 50");
        assertRefused(PingpongMessageDescriptor.NUL_OFFSET, (byte)'0', "byte 51 is '0', expected the terminating NUL");
        final IllegalArgumentException shortMessage =
            assertThrows(IllegalArgumentException.class, () -> PingpongMessageDescriptor.decode(new byte[51]));
        assertEquals("expected 52 bytes, got 51", shortMessage.getMessage());
    }

    private static void assertRefused(final int offset, final byte value, final String problem)
    {
        final byte[] message = C_MESSAGE.clone();
        message[offset] = value;
        final IllegalArgumentException refused =
            assertThrows(IllegalArgumentException.class, () -> PingpongMessageDescriptor.decode(message));
        assertTrue(refused.getMessage().startsWith(problem), refused.getMessage());
    }
}
