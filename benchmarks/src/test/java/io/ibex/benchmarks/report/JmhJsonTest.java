package io.ibex.benchmarks.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JmhJsonTest
{
    static final Path RUN = Path.of("src/test/resources/report/run");

    @Test
    void readsParamsPercentilesHistogramAndAllocationOfASampleTimeResult()
    {
        final JmhResult nio = JmhJson.read(RUN.resolve("jmh-host-fixture.json")).get(0);

        assertEquals("PingPongBenchmark", nio.className());
        assertEquals(JmhResult.SAMPLE, nio.mode());
        assertEquals(Map.of("transport", "nio", "size", "88"), nio.params());
        assertNull(nio.param("values"));
        assertEquals(8.0, nio.percentileMicros(50));
        assertEquals(60.0, nio.percentileMicros(99.9));
        assertNull(nio.percentileMicros(99.99), "a percentile JMH did not write");
        assertEquals(1.25, nio.allocationPerOp());
        assertEquals(List.of("-Xmx1g"), nio.run().jvmArgs());
        assertEquals("1 x 1 s", nio.run().warmup());
        // Two iterations' histograms, merged: 8.0 appears in both.
        assertEquals(List.of(new JmhResult.Bucket(7.5, 10), new JmhResult.Bucket(8.0, 70),
            new JmhResult.Bucket(9.0, 15), new JmhResult.Bucket(60.0, 5)), nio.histogram());
    }

    @Test
    void convertsScoresToMicrosecondsAndToOperationsPerSecond()
    {
        final List<JmhResult> results = JmhJson.read(RUN.resolve("jmh-host-fixture.json"));
        final JmhResult softInNanos = results.get(2);
        assertEquals("ns/op", softInNanos.unit());
        assertEquals(9.0, softInNanos.percentileMicros(50), 1e-9);
        assertEquals(9.1, softInNanos.scoreMicros(), 1e-9);
        final JmhResult streamPerMilli = results.stream()
            .filter(result -> "ops/ms".equals(result.unit())).findFirst().orElseThrow();
        assertEquals(1_500_000.0, streamPerMilli.opsPerSecond(), 1e-6);
        assertThrows(IllegalStateException.class, streamPerMilli::scoreMicros);
    }

    @Test
    void readsNaNWrittenAsAStringAndAbsentMetricsAsNull(@TempDir final Path directory) throws IOException
    {
        final Path file = directory.resolve("jmh-host-x.json");
        Files.writeString(file, "[{\"benchmark\":\"a.B.c\",\"mode\":\"thrpt\",\"params\":{}," +
            "\"primaryMetric\":{\"score\":5,\"scoreError\":\"NaN\",\"scoreUnit\":\"ops/s\"},\"secondaryMetrics\":{}}]");

        final JmhResult result = JmhJson.readAll(directory, "jmh-host-*.json").get(0);

        assertTrue(Double.isNaN(result.scoreError()));
        assertNull(result.allocationPerOp());
        assertTrue(result.histogram().isEmpty());
    }

    @Test
    void namesTheFileAndWhatIsMissing(@TempDir final Path directory) throws IOException
    {
        final Path object = directory.resolve("object.json");
        Files.writeString(object, "{\"benchmark\":\"x\"}");
        final Path noScore = directory.resolve("no-score.json");
        Files.writeString(noScore, "[{\"benchmark\":\"a.B.c\",\"mode\":\"avgt\",\"primaryMetric\":{}}]");
        final Path broken = directory.resolve("broken.json");
        Files.writeString(broken, "[{\"benchmark\":");

        assertTrue(assertThrows(IllegalArgumentException.class, () -> JmhJson.read(object)).getMessage()
            .contains("object.json: expected JMH's JSON array"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JmhJson.read(noScore)).getMessage()
            .contains("no-score.json result 0: no \"score\""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JmhJson.read(broken)).getMessage()
            .contains("broken.json: not JSON"));
    }

    @Test
    void aMissingDirectoryHasNoResults(@TempDir final Path directory)
    {
        assertTrue(JmhJson.readAll(directory.resolve("guest"), "jmh-guest-*.json").isEmpty());
    }
}
