package io.ibex.samples;

import io.ibex.rdma.verbs.Gid;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Inet6TextTest
{
    private static String format(final String gid)
    {
        return Inet6Text.format(Gid.parse(gid));
    }

    @Test
    void formatsAsGlibcInetNtopDoes()
    {
        assertEquals("::", Inet6Text.format(Gid.ZERO));
        assertEquals("::ffff:10.99.0.1", format("0000:0000:0000:0000:0000:ffff:0a63:0001")); // rxe GID 1
        assertEquals("::10.0.0.1", format("0000:0000:0000:0000:0000:0000:0a00:0001"));
        assertEquals("fe80::5054:ff:fe12:3456", format("fe80:0000:0000:0000:5054:00ff:fe12:3456"));
        assertEquals("::a1d7:ffff:7f00:1", format("0000:0000:0000:0000:a1d7:ffff:7f00:0001")); // soft GID 1
        assertEquals("1:0:0:2::", format("0001:0000:0000:0002:0000:0000:0000:0000")); // the longer run wins
        assertEquals("1::2:0:0:3:4", format("0001:0000:0000:0002:0000:0000:0003:0004")); // of equal runs, the first
        assertEquals("2001:db8:0:1:1:1:1:1", format("2001:0db8:0000:0001:0001:0001:0001:0001")); // one zero stays
    }
}
