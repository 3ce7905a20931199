package io.ibex.benchmarks;

import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.sample.SignalList;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The echo side of a two-JVM {@link ChannelPingPong}, in a JVM of its own ({@link EchoProcess}): a target channel
 * on the soft provider listening on 127.0.0.1, which answers every sample until its input ends.
 */
public final class ChannelEchoProcess
{
    private ChannelEchoProcess()
    {
    }

    /**
     * @param args float values per sample, the port to listen on, and whether to yield the core on an empty poll.
     * @throws Exception if the channel cannot open, or the echo fails (the connection lost, say).
     */
    public static void main(final String[] args) throws Exception
    {
        final BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try (SampleChannel target = SampleChannel.open(ChannelConfig.builder().name("bench-target")
            .provider(Transports.SOFT)
            .in(in -> in.address(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1]))))
            .signals(SignalList.ofCount(Integer.parseInt(args[0]))).build()))
        {
            EchoProcess.echoUntilInputEnds(stdin, new ChannelEcho(target), args[2]);
        }
    }
}
