package io.ibex.transport.config.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the addresses of a config: {@code "ip:port"}, {@code "[ipv6]:port"} or {@code "localhost:port"}. Only
 * numeric addresses (and localhost) are accepted, so reading a config never asks a name server.
 */
public final class SocketAddresses
{
    private static final Pattern IPV4 =
        Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern ADDRESS = Pattern.compile("(\\[[^\\]]*]|[^:\\[\\]]*):(\\d{1,5})");
    private static final int MAX_PORT = 65535;

    private SocketAddresses()
    {
    }

    /**
     * @param text {@code "10.0.0.1:1337"}, {@code "[::1]:1337"} or {@code "localhost:1337"}.
     * @return the resolved address.
     * @throws IllegalArgumentException naming the text and what is wrong with it.
     */
    public static InetSocketAddress parse(final String text)
    {
        final Matcher matcher = ADDRESS.matcher(text);
        if (!matcher.matches())
        {
            throw bad(text, "expected ip:port, [ipv6]:port or localhost:port");
        }
        final int port = Integer.parseInt(matcher.group(2));
        if (port < 1 || port > MAX_PORT)
        {
            throw bad(text, "port " + port + " is outside 1.." + MAX_PORT);
        }
        return new InetSocketAddress(host(text, matcher.group(1)), port);
    }

    private static InetAddress host(final String text, final String host)
    {
        if (host.equals("localhost"))
        {
            return InetAddress.getLoopbackAddress();
        }
        if (!host.startsWith("[") && !IPV4.matcher(host).matches())
        {
            throw bad(text, "'" + host + "' is not a numeric IPv4 address (write IPv6 as [addr]:port)");
        }
        try
        {
            // A literal (dotted quad, or bracketed IPv6) is parsed without a name lookup.
            return InetAddress.getByName(host);
        }
        catch (final UnknownHostException ex)
        {
            throw bad(text, "'" + host + "' is not a numeric IPv6 address");
        }
    }

    private static IllegalArgumentException bad(final String text, final String why)
    {
        return new IllegalArgumentException("\"" + text + "\" is not an address: " + why);
    }
}
