package io.ibex.samples.perf;

import io.ibex.rdma.verbs.Gid;
import io.ibex.samples.EndpointAddress;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerfHeaderTest
{
    @Test
    void hexadecimalAsCsAlternateFormWithZeroPadding()
    {
        assertEquals("0000", PerfHeader.cAlternateHex(0, 4));
        assertEquals("0x12", PerfHeader.cAlternateHex(0x12, 4));
        assertEquals("0x0012", PerfHeader.cAlternateHex(0x12, 6));
        assertEquals("0x19b41c", PerfHeader.cAlternateHex(0x19b41c, 6));
    }

    @Test
    void addressLinesAsPerftestPrintsThem()
    {
        final StringWriter text = new StringWriter();
        PerfHeader.printAddresses(new PrintWriter(text),
            new EndpointAddress(0, 0x12, 0x19b41c, Gid.parse("::ffff:10.99.0.1")), null,
            new EndpointAddress(0x1a, 0x11, 0x6c5ed0, Gid.ZERO), null);

        assertEquals(" local address: LID 0000 QPN 0x0012 PSN 0x19b41c\n" +
            " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:99:00:01\n" +
            " remote address: LID 0x1a QPN 0x0011 PSN 0x6c5ed0\n" + PerfHeader.RULE + "\n", text.toString());
    }

    @Test
    void theWriteTestsAddTheRkeyAndAddressOfTheirReceiveSlot()
    {
        final StringWriter text = new StringWriter();
        PerfHeader.printAddresses(new PrintWriter(text),
            new EndpointAddress(0, 0x12, 0x19b41c, Gid.ZERO), new RemoteSlot(0x7f12_3456_7840L, 0x1234, 64),
            new EndpointAddress(0, 0x11, 0x6c5ed0, Gid.ZERO), new RemoteSlot(0x5600_0040L, 0xfedc_ba98, 64));

        assertEquals(" local address: LID 0000 QPN 0x0012 PSN 0x19b41c RKey 0x001234 VAddr 0x007f1234567840\n" +
            " remote address: LID 0000 QPN 0x0011 PSN 0x6c5ed0 RKey 0xfedcba98 VAddr 0x00000056000040\n" +
            PerfHeader.RULE + "\n", text.toString());
    }

    @Test
    void theClockNamesTheKernelsClockSource()
    {
        assertTrue(PerfHeader.clock().matches("System\\.nanoTime \\(clocksource [a-z0-9_-]+\\)"), PerfHeader.clock());
    }
}
