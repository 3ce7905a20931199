package io.ibex.transport.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.stats.Counter;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;

import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Samples between a source and a target channel in one process, over each transport mode.
 */
@ExtendWith(NoLeaks.class)
class SampleChannelTest
{
    private static final SignalList SIGNALS = SignalList.parseFormat("2f1i");

    @ParameterizedTest
    @EnumSource(TransportMode.class)
    void samplesArriveWithTheirSequenceTimestampAndValues(final TransportMode mode) throws Exception
    {
        final int port = LoopbackPorts.next();
        final ChannelConfig targetConfig = TestChannels.target("target", mode, port, c -> c.signals(SIGNALS));
        final ChannelConfig sourceConfig = TestChannels.source("source", mode, LoopbackPorts.next(), port,
            c -> c.signals(SIGNALS));
        try (SampleChannel target = SampleChannel.open(targetConfig);
            SampleChannel source = SampleChannel.open(sourceConfig))
        {
            assertTrue(source.awaitConnected(WAIT_MILLIS, TimeUnit.MILLISECONDS), source.toString());
            assertTrue(target.awaitConnected(WAIT_MILLIS, TimeUnit.MILLISECONDS), target.toString());
            final SampleBatch out = new SampleBatch(1);
            final SampleBatch in = new SampleBatch(4);
            final int count = 100;
            for (int i = 0; i < count; i++)
            {
                assertEquals(1, source.claim(out, 1));
                out.get(0).sequence(i).origin(1000 + i, i).floatValue(0, i * 0.5).floatValue(1, -i)
                    .integerValue(2, 7L * i);
                while (source.write(out) == 0)
                {
                    Thread.onSpinWait();
                }
                assertEquals(1, target.read(in, WAIT_MILLIS, TimeUnit.MILLISECONDS), "sample " + i);
                final Sample sample = in.get(0);
                assertEquals(i, sample.sequence());
                assertEquals(1000 + i, sample.originSeconds());
                assertEquals(i, sample.originNanos());
                assertEquals(3, sample.length());
                assertEquals(i * 0.5, sample.floatValue(0));
                assertEquals(-i, sample.floatValue(1));
                assertEquals(7L * i, sample.integerValue(2));
                assertTrue((sample.flags() & Sample.HAS_TS_RECEIVED) != 0);
                assertTrue(sample.receivedSeconds() > 1_000_000_000L, "ts.received is wall-clock time");
            }
            target.release(in);
            assertEquals(count, source.stats().get(Counter.SENT));
            assertEquals(count, target.stats().get(Counter.RECEIVED));
            assertEquals(0, target.stats().get(Counter.INVALID));
        }
    }
}
