package io.ibex.samples.runner;

import io.ibex.transport.stats.ChannelStats;
import io.ibex.transport.stats.Counter;
import io.ibex.transport.stats.Metric;
import io.ibex.transport.stats.MetricSnapshot;
import io.ibex.transport.stats.StatsSnapshot;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Locale;

/**
 * The live status of a run in one line: {@code rate 100000/s, sent 51234, received 51230, lost 0, owd median
 * 45.2 µs}. With infiniband nodes it speaks of the network: samples sent and received by their channels, lost
 * (sequence numbers missing at a receiver, and sends flushed by a disconnect) and the median one-way delay of
 * everything received; the rate is of samples sent (received where nothing is sent). Without, of the paths:
 * samples they wrote and read, and the rate of reads.
 */
final class StatusLine
{
    private final List<PathAgent> paths;
    private final List<ChannelStats> channels;
    private long previousCount;
    private long previousNanos;

    /**
     * @param paths     the running paths.
     * @param channels  the statistics of the running infiniband nodes.
     * @param nowNanos  when the paths started.
     */
    StatusLine(final List<PathAgent> paths, final List<ChannelStats> channels, final long nowNanos)
    {
        this.paths = paths;
        this.channels = channels;
        this.previousNanos = nowNanos;
    }

    /**
     * @param nowNanos the time now, on the clock of the constructor's.
     * @return the status since the paths started, the rate since the previous call.
     */
    String next(final long nowNanos)
    {
        long sent = 0;
        long received = 0;
        String lost = "-";
        String owd = "-";
        if (channels.isEmpty())
        {
            for (final PathAgent path : paths)
            {
                sent += path.written();
                received += path.read();
            }
        }
        else
        {
            long missing = 0;
            Histogram delays = null;
            for (final ChannelStats channel : channels)
            {
                final StatsSnapshot stats = channel.snapshot();
                sent += stats.counter(Counter.SENT);
                received += stats.counter(Counter.RECEIVED);
                missing += stats.metric(Metric.SKIPPED).sum() + stats.counter(Counter.DROPPED);
                final MetricSnapshot channelOwd = stats.metric(Metric.OWD);
                if (channelOwd.count() > 0 && delays == null)
                {
                    delays = channelOwd.histogram();
                }
                else if (channelOwd.count() > 0)
                {
                    delays.add(channelOwd.histogram());
                }
            }
            lost = Long.toString(missing);
            owd = delays == null ? "-" : String.format(Locale.ROOT, "%.1f µs",
                delays.getValueAtPercentile(50) / 1e3);
        }
        final long count = channels.isEmpty() || sent == 0 ? received : sent;
        final double seconds = (nowNanos - previousNanos) / 1e9;
        final long rate = seconds > 0 ? Math.round((count - previousCount) / seconds) : 0;
        previousCount = count;
        previousNanos = nowNanos;
        return String.format(Locale.ROOT, "rate %d/s, sent %d, received %d, lost %s, owd median %s", rate, sent,
            received, lost, owd);
    }
}
