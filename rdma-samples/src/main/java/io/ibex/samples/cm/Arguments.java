package io.ibex.samples.cm;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Checks of the C tools' option values, with messages that name the option and the value.
 */
final class Arguments
{
    private static final int MAX_PORT = 0xffff;

    private Arguments()
    {
    }

    /**
     * @param option the option, e.g. {@code -S}.
     * @param value  its value.
     * @param min    smallest allowed.
     * @param max    largest allowed.
     * @return the value.
     * @throws IllegalArgumentException if out of range.
     */
    static int range(final String option, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(option + " " + value + " must be in " + min + ".." + max);
        }
        return value;
    }

    /**
     * Resolves a host name or literal address, as the C tools' getaddrinfo.
     *
     * @param hostOption the option that named the host, e.g. {@code -a}.
     * @param host       the name or address.
     * @param portOption the option that named the port, e.g. {@code -p}.
     * @param port       the port, 1..65535.
     * @return the socket address.
     * @throws IllegalArgumentException if the port is out of range or the host cannot be resolved.
     */
    static InetSocketAddress address(final String hostOption, final String host, final String portOption,
        final int port)
    {
        range(portOption, port, 1, MAX_PORT);
        try
        {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException(hostOption + " " + host + ": cannot resolve the address (" +
                ex.getMessage() + ")", ex);
        }
    }
}
