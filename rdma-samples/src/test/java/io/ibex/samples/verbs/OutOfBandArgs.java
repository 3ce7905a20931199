package io.ibex.samples.verbs;

import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of an out-of-band command in a test: the soft provider, a free port, a server on loopback.
 */
final class OutOfBandArgs
{
    private OutOfBandArgs()
    {
    }

    /**
     * @param command the subcommand.
     * @param port    the TCP port of the out-of-band exchange.
     * @param more    the other arguments.
     * @return the arguments after {@code ibex}.
     */
    static String[] of(final String command, final int port, final String... more)
    {
        final List<String> args = new ArrayList<>(List.of(
            command, "--provider", "soft", "-p", Integer.toString(port), "--listen", "127.0.0.1"));
        args.addAll(List.of(more));
        return args.toArray(new String[0]);
    }
}
