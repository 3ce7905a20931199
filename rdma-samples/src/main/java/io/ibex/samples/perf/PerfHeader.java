package io.ibex.samples.perf;

import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.LinkLayer;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.TransportType;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.EndpointResources;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The lines perftest prints around its results, in its layout: the test description, the waiting banner of the
 * server, and the local and remote addresses. Lines perftest has no equivalent for say what ibex adds: the
 * provider, the clock, the warm-up.
 */
final class PerfHeader
{
    /** perftest's RESULT_LINE. */
    static final String RULE = "-".repeat(87);
    private static final Path CLOCKSOURCE = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");

    private PerfHeader()
    {
    }

    /**
     * The server's banner, printed once it listens: a client started after it connects.
     *
     * @param out where to print.
     */
    static void printWaiting(final PrintWriter out)
    {
        out.println();
        out.println("************************************");
        out.println("* Waiting for client to connect... *");
        out.println("************************************");
        out.flush();
    }

    /**
     * The test description.
     *
     * @param out      where to print.
     * @param title    e.g. "Send Latency Test".
     * @param device   the device.
     * @param port     its port's attributes.
     * @param depths   the depth lines, e.g. " TX depth        : 128".
     * @param gidIndex the GID index, or {@link EndpointResources#NO_GID}.
     * @param inline   the largest message sent inline.
     * @param warmup   what runs before measuring, e.g. "20000 iterations".
     */
    static void printTest(
        final PrintWriter out,
        final String title,
        final Device device,
        final PortAttributes port,
        final String[] depths,
        final int gidIndex,
        final int inline,
        final String warmup)
    {
        out.println(RULE);
        out.println("                    " + title);
        out.println(" Dual-port       : OFF\t\tDevice         : " + device.name());
        out.println(" Number of qps   : 1\t\tTransport type : " + transport(device.transportType()));
        out.println(" Connection type : RC\t\tUsing SRQ      : OFF");
        for (final String depth : depths)
        {
            out.println(depth);
        }
        out.println(" Mtu             : " + port.activeMtu().bytes() + "[B]");
        out.println(" Link type       : " + linkType(port.linkLayer()));
        if (gidIndex != EndpointResources.NO_GID)
        {
            out.println(" GID index       : " + gidIndex);
        }
        out.println(" Max inline data : " + inline + "[B]");
        out.println(" rdma_cm QPs\t : OFF");
        out.println(" Data ex. method : Ethernet (the TCP exchange of ibv_rc_pingpong)");
        out.println(" ibex provider   : " + device.providerName());
        out.println(" Clock           : " + clock());
        out.println(" Warm-up         : " + warmup + ", not measured");
        out.println(RULE);
        out.flush();
    }

    /**
     * The address lines, as perftest's {@code ctx_print_pingpong_data}: with the rkey and address of the buffer
     * in the WRITE tests.
     *
     * @param out        where to print.
     * @param local      this side's address.
     * @param localSlot  this side's receive slot, or null in the SEND tests.
     * @param remote     the peer's address.
     * @param remoteSlot the peer's receive slot, or null in the SEND tests.
     */
    static void printAddresses(
        final PrintWriter out,
        final EndpointAddress local,
        final RemoteSlot localSlot,
        final EndpointAddress remote,
        final RemoteSlot remoteSlot)
    {
        printAddress(out, "local", local, localSlot);
        printAddress(out, "remote", remote, remoteSlot);
        out.println(RULE);
        out.flush();
    }

    /**
     * @return the clock the measurements read, with the kernel's clock source where Linux names it (the source
     *         decides what a reading costs: tsc is cheap, hpet is not).
     */
    static String clock()
    {
        String source;
        try
        {
            source = Files.readString(CLOCKSOURCE, StandardCharsets.US_ASCII).trim();
        }
        catch (final IOException | SecurityException ex)
        {
            source = "unknown";
        }
        return "System.nanoTime (clocksource " + source + ")";
    }

    private static void printAddress(
        final PrintWriter out, final String side, final EndpointAddress address, final RemoteSlot slot)
    {
        out.println(" " + side + " address: LID " + cAlternateHex(address.lid(), 4) + " QPN " +
            cAlternateHex(address.qpNum(), 6) + " PSN " + cAlternateHex(address.psn(), 6) + (slot == null ? "" :
            " RKey " + cAlternateHex(Integer.toUnsignedLong(slot.rkey()), 8) + " VAddr " +
            cAlternateHex(slot.address(), 16)));
        if (!Gid.ZERO.equals(address.gid()))
        {
            final byte[] raw = address.gid().toBytes();
            final StringBuilder gid = new StringBuilder(" GID: ");
            for (int i = 0; i < raw.length; i++)
            {
                gid.append(i > 0 ? ":" : "").append(String.format("%02d", raw[i] & 0xff));
            }
            out.println(gid);
        }
    }

    /**
     * @param value the value.
     * @param width the field width, prefix included.
     * @return the value as C's {@code %#0Nx} prints it: zero-padded to the width with a "0x" prefix, except
     *         that 0 has no prefix.
     */
    static String cAlternateHex(final long value, final int width)
    {
        if (value == 0)
        {
            return "0".repeat(width);
        }
        final String digits = Long.toHexString(value);
        return "0x" + "0".repeat(Math.max(0, width - 2 - digits.length())) + digits;
    }

    private static String transport(final TransportType type)
    {
        switch (type)
        {
            case INFINIBAND:
                return "IB";
            case IWARP:
                return "IW";
            default:
                return "UNKNOWN";
        }
    }

    private static String linkType(final LinkLayer layer)
    {
        switch (layer)
        {
            case INFINIBAND:
                return "IB";
            case ETHERNET:
                return "Ethernet";
            default:
                return "Unknown";
        }
    }
}
