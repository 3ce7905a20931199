package io.ibex.benchmarks.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CaseNamesTest
{
    @Test
    void aeronsSetupNamesOnlyAeronsCases()
    {
        final Map<String, String> aeron = Map.of("aeronIdle", "spin", "aeronThreading", "INVOKER", "size", "64");

        assertEquals("aeron-udp, aeronIdle=spin, aeronThreading=INVOKER", CaseNames.series(result("aeron-udp", aeron)));
        assertEquals("nio", CaseNames.series(result("nio", aeron)));
        assertEquals("soft verbs", CaseNames.series(result("soft", aeron)));
    }

    @Test
    void otherParametersShowOnEveryCase()
    {
        assertEquals("nio, nodelay=true", CaseNames.series(result("nio", Map.of("nodelay", "true", "size", "64"))));
    }

    private static JmhResult result(final String transport, final Map<String, String> params)
    {
        final Map<String, String> all = new TreeMap<>(params);
        all.put("transport", transport);
        return new JmhResult("io.ibex.benchmarks.PingPongBenchmark.roundTrip", JmhResult.SAMPLE, all, 1, 0, "us/op",
            new TreeMap<>(), List.of(), Map.of(), null);
    }
}
