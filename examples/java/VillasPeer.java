import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.stats.Counter;
import io.ibex.transport.stats.Metric;
import io.ibex.transport.stats.StatsSnapshot;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A target written against the public SampleChannel API alone (docs/transport.md, "The Java API"), for a VILLASnode
 * source to send to: it reads until no sample arrived for IDLE-MS after the first, and writes each sample's
 * ts.origin, sequence and float values to OUTPUT as VILLASnode's file node writes villas.human (values as C's
 * "%.17f"), so that `ibex compare` can hold it against the file of what the VILLAS generator produced.
 * <p>
 * Run with the single-file source launcher and ibex.jar (which holds rdma-transport and its dependencies):
 * {@code java -cp rdma-samples/target/ibex.jar examples/java/VillasPeer.java CONFIG NODE OUTPUT [IDLE-MS]}
 * (plus, on the disni provider, the flags softroce/real-verbs-guest.sh passes). softroce/interop/villas.sh runs it.
 */
public final class VillasPeer
{
    public static void main(final String[] args) throws IOException, InterruptedException
    {
        if (args.length < 3)
        {
            System.err.println("usage: VillasPeer CONFIG NODE OUTPUT [IDLE-MS]");
            System.exit(2);
        }
        final ChannelConfig config = ChannelConfig.read(Path.of(args[0]), args[1]);
        final long idleMillis = args.length > 3 ? Long.parseLong(args[3]) : 2000;
        long received = 0;
        try (SampleChannel channel = SampleChannel.open(config);
            BufferedWriter out = Files.newBufferedWriter(Path.of(args[2])))
        {
            final SampleBatch batch = new SampleBatch(config.in().vectorize());
            // The first sample may take a while (the source starts after us); then IDLE-MS of silence ends it.
            while (channel.read(batch, received == 0 ? 60_000 : idleMillis, TimeUnit.MILLISECONDS) > 0)
            {
                for (int i = 0; i < batch.size(); i++)
                {
                    write(out, batch.get(i));
                }
                received += batch.size();
            }
            channel.release(batch);
            final StatsSnapshot stats = channel.stats().snapshot();
            // lost: the sequence numbers missing between those that arrived (the stats' skipped samples).
            System.out.printf("VillasPeer: %s received %d samples over %s: lost %d, invalid %d%n", config.name(),
                received, config.mode(), stats.metric(Metric.SKIPPED).sum(), stats.counter(Counter.INVALID));
            if (received == 0 || stats.counter(Counter.INVALID) > 0)
            {
                System.exit(1);
            }
        }
    }

    /** One villas.human line: "seconds.nanoseconds(sequence)", then TAB and each value as "%.17f". */
    private static void write(final BufferedWriter out, final Sample sample) throws IOException
    {
        out.write(String.format("%d.%09d(%d)", sample.originSeconds(), sample.originNanos(), sample.sequence()));
        for (int i = 0; i < sample.length(); i++)
        {
            // BigDecimal holds the double exactly; rounding it half-even to 17 places is what glibc prints.
            out.write('\t');
            out.write(new BigDecimal(sample.floatValue(i)).setScale(17, RoundingMode.HALF_EVEN).toPlainString());
        }
        out.write('\n');
    }
}
