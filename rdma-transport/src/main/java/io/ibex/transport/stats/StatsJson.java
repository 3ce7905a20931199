package io.ibex.transport.stats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * {@link StatsSnapshot#toJson(boolean, int)}, written with jackson-core's generator.
 */
final class StatsJson
{
    private static final JsonFactory FACTORY = new JsonFactory();

    private StatsJson()
    {
    }

    static String format(final StatsSnapshot snapshot, final boolean verbose, final int buckets)
    {
        final StringWriter json = new StringWriter(2048);
        try (JsonGenerator generator = FACTORY.createGenerator(json))
        {
            generator.writeStartObject();
            generator.writeObjectFieldStart("metrics");
            for (final Metric metric : Metric.values())
            {
                generator.writeObjectFieldStart(metric.id());
                metric(generator, snapshot.metric(metric), verbose, buckets);
                generator.writeEndObject();
            }
            generator.writeEndObject();
            generator.writeObjectFieldStart("counters");
            for (final Counter counter : Counter.values())
            {
                generator.writeNumberField(counter.id(), snapshot.counter(counter));
            }
            generator.writeEndObject();
            generator.writeEndObject();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("writing stats JSON into a string failed", ex);
        }
        return json.toString();
    }

    private static void metric(
        final JsonGenerator generator, final MetricSnapshot values, final boolean verbose, final int binCount)
        throws IOException
    {
        generator.writeStringField("unit", values.metric().unit());
        generator.writeNumberField("count", values.count());
        generator.writeNumberField("sum", values.sum());
        generator.writeNumberField("clamped_negative", values.clampedNegative());
        generator.writeNumberField("clamped_over_range", values.clampedOverRange());
        if (values.count() > 0)
        {
            generator.writeNumberField("min", values.min());
            generator.writeNumberField("max", values.max());
            generator.writeNumberField("mean", values.mean());
            generator.writeNumberField("stddev", values.stddev());
            generator.writeNumberField("p50", values.p50());
            generator.writeNumberField("p90", values.p90());
            generator.writeNumberField("p99", values.p99());
            generator.writeNumberField("p99_9", values.p999());
        }
        if (verbose && values.warmedUp())
        {
            generator.writeObjectFieldStart("warmup");
            generator.writeNumberField("values", values.warmUp());
            generator.writeNumberField("mean", values.warmUpMean());
            generator.writeNumberField("stddev", values.warmUpStddev());
            generator.writeEndObject();
            final Buckets buckets = values.buckets(binCount);
            generator.writeObjectFieldStart("buckets");
            generator.writeNumberField("low", buckets.low());
            generator.writeNumberField("high", buckets.high());
            generator.writeNumberField("width", buckets.width());
            generator.writeNumberField("lower", buckets.lower());
            generator.writeNumberField("higher", buckets.higher());
            generator.writeArrayFieldStart("counts");
            for (int i = 0; i < buckets.size(); i++)
            {
                generator.writeNumber(buckets.count(i));
            }
            generator.writeEndArray();
            generator.writeEndObject();
        }
    }
}
