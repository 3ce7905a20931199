package example;

import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;

import java.util.concurrent.TimeUnit;

/**
 * Moves 1,000 samples from a source to a target of one process with ibex's public API and checks that every one
 * arrived exactly once, in order, with the values it was sent with. Exits 0 if so, 1 otherwise.
 * Arguments: {@code [PROVIDER [HOST]]}, soft and 127.0.0.1 by default.
 */
public final class MoveSamples
{
    private static final int SAMPLES = 1_000;

    public static void main(final String[] args) throws InterruptedException
    {
        final String provider = args.length > 0 ? args[0] : "soft";
        final String host = args.length > 1 ? args[1] : "127.0.0.1";
        final String address = host + ":10571";
        final SignalList signals = SignalList.parseFormat("2f1i");

        final ChannelConfig targetConfig = ChannelConfig.builder()
            .name("target").provider(provider).mode(TransportMode.RC).signals(signals)
            .in(in -> in.address(address)).build();
        final ChannelConfig sourceConfig = ChannelConfig.builder()
            .name("source").provider(provider).mode(TransportMode.RC).signals(signals)
            .in(in -> in.address(host + ":10572")).out(out -> out.address(address)).build();

        try (SampleChannel target = SampleChannel.open(targetConfig);
            SampleChannel source = SampleChannel.open(sourceConfig))
        {
            if (!source.awaitConnected(30, TimeUnit.SECONDS))
            {
                fail("the source did not connect: " + source.lastConnectFailure());
            }

            final SampleBatch out = new SampleBatch(sourceConfig.out().vectorize());
            final SampleBatch in = new SampleBatch(targetConfig.in().vectorize());
            long sent = 0;
            long received = 0;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received < SAMPLES)
            {
                if (System.nanoTime() > deadline)
                {
                    fail("timed out: sent " + sent + ", received " + received + " of " + SAMPLES);
                }
                if (sent < SAMPLES && out.size() == 0)
                {
                    final int claimed = source.claim(out, (int)Math.min(out.capacity(), SAMPLES - sent));
                    for (int i = 0; i < claimed; i++)
                    {
                        final long n = sent + i;
                        out.get(i).sequence(n).origin(source.clock().nanoTime())
                            .floatValue(0, n * 0.5).floatValue(1, -n).integerValue(2, n * 3);
                    }
                }
                if (out.size() > 0)
                {
                    final int before = out.size();
                    source.write(out);
                    sent += before - out.size();
                }
                final int n = target.read(in, 10, TimeUnit.MILLISECONDS);
                for (int i = 0; i < n; i++)
                {
                    check(in.get(i), received++);
                }
            }
            target.release(in);
            source.release(out);
            System.out.printf("MoveSamples: %d samples over %s on %s arrived exactly%n", received, provider, address);
        }
    }

    private static void check(final Sample sample, final long expected)
    {
        if (sample.sequence() != expected || sample.floatValue(0) != expected * 0.5 ||
            sample.floatValue(1) != -expected || sample.integerValue(2) != expected * 3)
        {
            fail("sample " + expected + " arrived wrong: sequence " + sample.sequence() + ", values " +
                sample.floatValue(0) + ", " + sample.floatValue(1) + ", " + sample.integerValue(2));
        }
    }

    private static void fail(final String message)
    {
        System.err.println("MoveSamples: " + message);
        System.exit(1);
    }
}
