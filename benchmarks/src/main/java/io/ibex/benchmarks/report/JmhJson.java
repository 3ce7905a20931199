package io.ibex.benchmarks.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Reads JMH's JSON result files ({@code -rf json}): an array of results, one per benchmark method, mode and set of
 * parameters.
 */
public final class JmhJson
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JmhJson()
    {
    }

    /**
     * Reads one result file.
     *
     * @param file a JMH JSON file.
     * @return its results, in the file's order.
     * @throws IllegalArgumentException if the file is not JMH's JSON, naming the file and what is missing.
     * @throws UncheckedIOException     if the file cannot be read.
     */
    public static List<JmhResult> read(final Path file)
    {
        final JsonNode root;
        try
        {
            root = MAPPER.readTree(file.toFile());
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalArgumentException(file + ": not JSON: " + ex.getOriginalMessage(), ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot read", ex);
        }
        if (null == root || !root.isArray())
        {
            throw new IllegalArgumentException(file + ": expected JMH's JSON array of results, found " +
                (null == root ? "an empty file" : root.getNodeType()));
        }
        final List<JmhResult> results = new ArrayList<>();
        for (int i = 0; i < root.size(); i++)
        {
            results.add(result(root.get(i), file + " result " + i));
        }
        return results;
    }

    /**
     * Reads every file of a directory whose name matches a glob, in the order of their names.
     *
     * @param directory the directory; absent means no results.
     * @param glob      the file names, e.g. {@code jmh-host-*.json}.
     * @return the results of all the files.
     */
    public static List<JmhResult> readAll(final Path directory, final String glob)
    {
        final List<JmhResult> results = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return results;
        }
        final List<Path> files = new ArrayList<>();
        try (var stream = Files.newDirectoryStream(directory, glob))
        {
            stream.forEach(files::add);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(directory + ": cannot list", ex);
        }
        Collections.sort(files);
        files.forEach(file -> results.addAll(read(file)));
        return results;
    }

    private static JmhResult result(final JsonNode node, final String where)
    {
        final JsonNode primary = required(node, "primaryMetric", where);
        final Map<String, String> params = new LinkedHashMap<>();
        fields(node.get("params")).forEach(field -> params.put(field.getKey(), field.getValue().asText()));
        final NavigableMap<Double, Double> percentiles = new TreeMap<>();
        fields(primary.get("scorePercentiles"))
            .forEach(field -> percentiles.put(Double.parseDouble(field.getKey()), number(field.getValue(), where)));
        final Map<String, Double> secondary = new LinkedHashMap<>();
        fields(node.get("secondaryMetrics"))
            .forEach(field -> secondary.put(field.getKey(), number(required(field.getValue(), "score", where), where)));
        final String mode = required(node, "mode", where).asText();
        return new JmhResult(
            required(node, "benchmark", where).asText(),
            mode,
            Collections.unmodifiableMap(params),
            number(required(primary, "score", where), where),
            null == primary.get("scoreError") ? Double.NaN : number(primary.get("scoreError"), where),
            required(primary, "scoreUnit", where).asText(),
            Collections.unmodifiableNavigableMap(percentiles),
            histogram(primary.get("rawDataHistogram"), where),
            Collections.unmodifiableMap(secondary),
            new JmhResult.RunSettings(
                node.path("jdkVersion").asText("unknown"),
                (node.path("vmName").asText("") + " " + node.path("vmVersion").asText("")).trim(),
                jvmArgs(node.get("jvmArgs")),
                node.path("forks").asInt(),
                node.path("warmupIterations").asInt() + " x " + node.path("warmupTime").asText("?"),
                node.path("measurementIterations").asInt() + " x " + node.path("measurementTime").asText("?")));
    }

    /**
     * SampleTime's {@code rawDataHistogram}: per fork, per iteration, pairs of value and count; merged into one
     * ascending list.
     */
    private static List<JmhResult.Bucket> histogram(final JsonNode forks, final String where)
    {
        if (null == forks)
        {
            return List.of();
        }
        final TreeMap<Double, Long> counts = new TreeMap<>();
        for (final JsonNode iterations : forks)
        {
            for (final JsonNode iteration : iterations)
            {
                for (final JsonNode pair : iteration)
                {
                    if (!pair.isArray() || pair.size() != 2)
                    {
                        throw new IllegalArgumentException(where + ": rawDataHistogram entry " + pair +
                            " is not a pair [value, count]");
                    }
                    counts.merge(pair.get(0).asDouble(), pair.get(1).asLong(), Long::sum);
                }
            }
        }
        final List<JmhResult.Bucket> buckets = new ArrayList<>(counts.size());
        counts.forEach((value, count) -> buckets.add(new JmhResult.Bucket(value, count)));
        return List.copyOf(buckets);
    }

    private static List<String> jvmArgs(final JsonNode array)
    {
        final List<String> args = new ArrayList<>();
        if (null != array)
        {
            array.forEach(arg -> args.add(arg.asText()));
        }
        return List.copyOf(args);
    }

    /** JMH writes "NaN" and infinities as strings. */
    private static double number(final JsonNode node, final String where)
    {
        if (node.isNumber())
        {
            return node.asDouble();
        }
        try
        {
            return Double.parseDouble(node.asText());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + ": " + node + " is not a number", ex);
        }
    }

    private static JsonNode required(final JsonNode node, final String field, final String where)
    {
        final JsonNode value = node.get(field);
        if (null == value || value.isNull())
        {
            throw new IllegalArgumentException(where + ": no \"" + field + "\" (not a JMH result?)");
        }
        return value;
    }

    private static Stream<Map.Entry<String, JsonNode>> fields(final JsonNode object)
    {
        return null == object ? Stream.empty() : object.properties().stream();
    }
}
