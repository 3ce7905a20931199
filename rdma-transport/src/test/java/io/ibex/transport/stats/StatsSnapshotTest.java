package io.ibex.transport.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ibex.transport.sample.Sample;
import org.junit.jupiter.api.Test;

import static io.ibex.transport.stats.ReceivedSamples.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsSnapshotTest
{
    private static final long T0 = 1_700_000_000_000_000_000L;

    private final ChannelStats stats = new ChannelStats(10, () -> T0 + 1_000_000);
    private final ReceivedSamples samples = new ReceivedSamples(stats);
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void jsonHasEveryMetricAndCounterWithTheirValues() throws Exception
    {
        samples.receive(ALL, 0, T0, T0 + 100);
        samples.receive(ALL, 1, T0 + 1_000, T0 + 1_200);
        samples.receive(ALL, 4, T0 + 2_000, T0 + 1_900); // skips 2 and 3; owd negative
        samples.send(Sample.HAS_TS_RECEIVED, T0 + 999_950);
        int value = 1;
        for (final Counter counter : Counter.values())
        {
            stats.add(counter, value++);
        }
        final StatsSnapshot snapshot = stats.snapshot();

        final JsonNode json = mapper.readTree(snapshot.toJson());

        for (final Metric metric : Metric.values())
        {
            final JsonNode node = json.path("metrics").path(metric.id());
            final MetricSnapshot values = snapshot.metric(metric);
            assertEquals(metric.unit(), node.path("unit").asText(), metric.id());
            assertEquals(values.count(), node.path("count").asLong(-1), metric.id());
            assertEquals(values.sum(), node.path("sum").asLong(-1), metric.id());
            assertEquals(values.clampedNegative(), node.path("clamped_negative").asLong(-1), metric.id());
            assertEquals(values.max(), node.path("max").asLong(-1), metric.id());
            assertEquals(values.p99(), node.path("p99").asLong(-1), metric.id());
            assertEquals(values.p999(), node.path("p99_9").asLong(-1), metric.id());
            assertEquals(values.mean(), node.path("mean").asDouble(-1), 1e-9, metric.id());
            assertEquals(values.stddev(), node.path("stddev").asDouble(-1), 1e-9, metric.id());
        }
        final JsonNode owd = json.path("metrics").path("owd");
        assertEquals(3, owd.path("count").asLong());
        assertEquals(1, owd.path("clamped_negative").asLong());
        assertEquals(300, owd.path("sum").asLong());
        assertEquals(0, owd.path("min").asLong(-1));
        assertEquals(200, owd.path("max").asLong());
        assertEquals(2, json.path("metrics").path("skipped").path("sum").asLong());
        assertEquals(50, json.path("metrics").path("age").path("sum").asLong());
        assertEquals(1, json.path("metrics").path("reordered").path("count").asLong(), "one step of 3");

        final JsonNode counters = json.path("counters");
        assertEquals(Counter.values().length, counters.size());
        for (final Counter counter : Counter.values())
        {
            assertEquals(snapshot.counter(counter), counters.path(counter.id()).asLong(-1), counter.id());
        }
        assertEquals(1 + 1, counters.path("sent").asLong(), "one onSent, then 1 added");
        assertEquals(3 + 2, counters.path("received").asLong(), "three onReceived, then 2 added");
    }

    @Test
    void jsonLeavesOutTheStatisticsOfAMetricWithoutValues() throws Exception
    {
        final JsonNode age = mapper.readTree(stats.snapshot().toJson()).path("metrics").path("age");

        assertEquals(0, age.path("count").asLong(-1));
        assertFalse(age.has("mean"));
        assertFalse(age.has("p50"));
    }

    @Test
    void textHasARowForEveryMetricAndCounterWithTimesInMicroseconds()
    {
        for (int i = 0; i < 4; i++)
        {
            samples.receive(ALL, i, T0 + i * 200L, T0 + i * 200L + 250);
        }
        stats.add(Counter.RECONNECTS, 7);

        final String text = stats.snapshot().toText();

        for (final Metric metric : Metric.values())
        {
            assertTrue(text.contains("\n" + metric.id() + " "), metric.id() + " in\n" + text);
        }
        for (final Counter counter : Counter.values())
        {
            assertTrue(text.contains("\n" + counter.id() + " "), counter.id() + " in\n" + text);
        }
        final String owdRow = row(text, "owd");
        assertTrue(owdRow.matches("owd +µs +4 +0\\.250 +0\\.250 +0\\.000 +0\\.250 .* 0\\.250 +0"), owdRow);
        final String gapRow = row(text, "gap_sent");
        assertTrue(gapRow.matches("gap_sent +µs +3 +0\\.200 .*"), gapRow);
        assertTrue(row(text, "age").matches("age +µs +0 +- +- .*"), row(text, "age"));
        assertTrue(row(text, "reconnects").matches("reconnects +7"), row(text, "reconnects"));
        assertEquals(stats.snapshot().toText(), stats.snapshot().toString());
    }

    @Test
    void verboseFormsPlaceTheValuesInBucketsAroundTheWarmUpMean() throws Exception
    {
        for (int i = 0; i < 10; i++)
        {
            // warm-up: 5 × 1000 ns and 5 × 2000 ns, mean 1500, stddev sqrt(10 × 500² / 9) = 527.05
            samples.receive(ALL, i, T0, T0 + (i % 2 == 0 ? 1_000 : 2_000));
        }
        samples.receive(ALL, 10, T0, T0 + 100_000); // above mean + 3 stddev
        samples.receive(ALL, 11, T0, T0 + 1_500);
        final StatsSnapshot snapshot = stats.snapshot();
        final MetricSnapshot owd = snapshot.metric(Metric.OWD);

        assertTrue(owd.warmedUp());
        assertEquals(1_500, owd.warmUpMean(), 1e-9);
        assertEquals(Math.sqrt(10 * 500.0 * 500.0 / 9), owd.warmUpStddev(), 1e-9);
        final Buckets buckets = owd.buckets(6);
        assertEquals(1_500 - 3 * owd.warmUpStddev(), buckets.low(), 1e-9);
        assertEquals(1_500 + 3 * owd.warmUpStddev(), buckets.high(), 1e-9);
        assertEquals(0, buckets.lower());
        assertEquals(1, buckets.higher());
        assertEquals(5, buckets.count(2), "1000 ns: [-81 + 2 x 527, -81 + 3 x 527)");
        assertEquals(6, buckets.count(3), "1500 and 2000 ns");
        assertEquals(0, buckets.count(0) + buckets.count(1) + buckets.count(4) + buckets.count(5));

        final String text = snapshot.toText(true, 6);
        assertTrue(text.contains("6 buckets of 0.527 µs from -0.081 to 3.081 µs; lower 0, higher 1"), text);
        assertTrue(text.contains("warm-up of 10 values not complete (0 so far)"), "age has none:\n" + text);

        final JsonNode json = mapper.readTree(snapshot.toJson(true, 6)).path("metrics").path("owd");
        assertEquals(1_500, json.path("warmup").path("mean").asDouble(), 1e-9);
        assertEquals(1, json.path("buckets").path("higher").asLong());
        assertEquals("[0,0,5,6,0,0]", json.path("buckets").path("counts").toString());
        assertFalse(mapper.readTree(snapshot.toJson()).path("metrics").path("owd").has("buckets"));
    }

    @Test
    void aWarmUpWithoutSpreadStillGivesBucketsOneUnitWide()
    {
        for (int i = 0; i <= 12; i++)
        {
            samples.receive(2 * i); // every step skips exactly 1
        }
        samples.receive(2 * 12 + 10);
        final MetricSnapshot skipped = stats.snapshot().metric(Metric.SKIPPED);
        assertEquals(0.0, skipped.warmUpStddev());

        final Buckets buckets = skipped.buckets(4);

        assertEquals(1.0, buckets.width());
        assertEquals(-1.0, buckets.low(), 1e-9, "centred on the mean, 1");
        assertEquals(12, buckets.count(2));
        assertEquals(1, buckets.higher(), "the step of 10 skips 9");
        assertEquals(0, buckets.lower() + buckets.count(0) + buckets.count(1) + buckets.count(3));
    }

    @Test
    void bucketsBeforeTheWarmUpOrBelowOneAreRefused()
    {
        samples.receive(ALL, 0, T0, T0 + 10);
        final StatsSnapshot snapshot = stats.snapshot();

        final IllegalStateException early =
            assertThrows(IllegalStateException.class, () -> snapshot.metric(Metric.OWD).buckets(20));
        assertTrue(early.getMessage().contains("owd: no buckets before the warm-up of 10 values"), early.getMessage());
        final IllegalArgumentException none =
            assertThrows(IllegalArgumentException.class, () -> snapshot.toText(true, 0));
        assertTrue(none.getMessage().contains("buckets 0"), none.getMessage());
        assertThrows(IllegalArgumentException.class, () -> snapshot.toJson(false, -1));
    }

    private static String row(final String text, final String name)
    {
        for (final String line : text.split("\n"))
        {
            if (line.startsWith(name + " "))
            {
                return line.trim();
            }
        }
        throw new AssertionError("no row " + name + " in\n" + text);
    }
}
