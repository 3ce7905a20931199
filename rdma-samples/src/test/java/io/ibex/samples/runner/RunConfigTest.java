package io.ibex.samples.runner;

import io.ibex.transport.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What the runner reads of a config: nodes by type, paths between them, the top-level keys; and every mistake as
 * an error at its file, line and column, in both syntaxes.
 */
class RunConfigTest
{
    private static final String TWO_NODES = """
        nodes = {
            gen = { type = "counter" },
            sink = { type = "collector" }
        }
        """;

    @TempDir
    private Path dir;

    @Test
    void pathsConnectNodesAndAReversedPathRunsTheOtherWay() throws IOException
    {
        try (RunConfig config = read("run.conf", """
            stats = 4.0
            idle_stop = false
            nodes = {
                ib = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:10001" },
                       out = { address = "127.0.0.1:10002" } },
                ib2 = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:10002" } },
                gen = { type = "counter" },
                sink = { type = "collector" },
                unused = { type = "collector" }
            }
            paths = (
                { in = [ "gen" ], out = [ "sink" ] },
                { in = "ib2", out = "ib", enabled = false },
                { in = "ib2", out = "ib", reverse = true, hooks = ( "stats" ) }
            )
            """))
        {
            assertEquals(List.of("ib", "ib2", "gen", "sink", "unused"),
                config.nodes().stream().map(RunNode::name).toList());
            assertEquals(List.of("path 1 (gen -> sink)", "path 3 (ib2 -> ib)", "path 3 (reversed) (ib -> ib2)"),
                config.paths().stream().map(PathConfig::describe).toList());
            assertEquals(1, config.paths().get(1).hooks().size());
            assertEquals(Duration.ofMillis(250), config.statusInterval());
            assertFalse(config.idleStop());
        }
    }

    @Test
    void topLevelKeysAreCheckedByName() throws IOException
    {
        assertError("unknown key 'path' (did you mean 'paths'?)", "run.conf:1:1", "path = ()\n");
        assertError("'http' is a VILLASnode top-level key that ibex node does not support: remove it",
            "run.conf:2:8", "nodes = {}\nhttp = { enabled = false }\n");
        assertError("hugepages = -1 must be 0 or more", "run.conf:2:13", "nodes = {}\nhugepages = -1\n");
        assertError("priority 100 is not a SCHED_FIFO priority: 0 (none) or 1 to 99", "run.conf:2:12",
            "nodes = {}\npriority = 100\n");
        assertError("affinity -2 is not a CPU mask: bit n for CPU n, 0 for none", "run.conf:2:34",
            "nodes = {}\npaths = ( { in = \"x\", affinity = -2 } )\n");
        assertError("node 'gen' must be a group { type = ... }, not a string", "run.conf:1:17",
            "nodes = { gen = \"counter\" }\n");
    }

    @Test
    void aNodeNeedsASupportedType() throws IOException
    {
        assertError("node 'udp': type \"socket\" is not supported (supported: collector, counter, infiniband)",
            "run.conf:1:26", "nodes = { udp = { type = \"socket\" } }\n");
        assertError("node 'x' has no type (supported: collector, counter, infiniband)", "run.conf:1:15",
            "nodes = { x = { count = 3 } }\n");
        assertError("node 'x': type 3 is not supported (supported: collector, counter, infiniband)", "run.conf:1:24",
            "nodes = { x = { type = 3 } }\n");
    }

    @Test
    void aPathNamesNodesThatExistAndCanBeUsedThatWay() throws IOException
    {
        assertError("path 1 (at @run.conf:5:11) names node 'sinc', which is not in nodes (known: gen, sink)",
            "run.conf:5:31", TWO_NODES + "paths = ( { in = \"gen\", out = \"sinc\" } )\n");
        assertError("path 1: node 'sink' (collector) cannot be a path's input", "run.conf:5:18",
            TWO_NODES + "paths = ( { in = \"sink\", out = \"gen\" } )\n");
        assertError("path 1: node 'gen' (counter) cannot be a path's output", "run.conf:5:31",
            TWO_NODES + "paths = ( { in = \"gen\", out = \"gen\" } )\n");
        assertError("path 2: node 'gen' (counter) is the input of path 1 (at @run.conf:5:11) already: a node may be " +
            "the input of one path", "run.conf:5:34",
            TWO_NODES + "paths = ( { in = \"gen\" }, { in = \"gen\", out = \"sink\" } )\n");
        assertError("path 1 has no 'in': the node it reads", "run.conf:5:11", TWO_NODES + "paths = ( { out = \"sink\" } )\n");
        assertError("path 1: in names 2 nodes; a path reads one node here (VILLAS's paths with several inputs, " +
            "mode any or all, are not supported)", "run.conf:5:18",
            TWO_NODES + "paths = ( { in = [ \"gen\", \"gen\" ] } )\n");
        assertError("path 1: in = \"gen.data[0-1]\" is a VILLAS mapping; ibex paths move whole samples: name the node " +
            "only", "run.conf:5:18", TWO_NODES + "paths = ( { in = \"gen.data[0-1]\" } )\n");
        assertError("'paths[0].mode' is a VILLASnode path key that ibex node does not support: remove it", "run.conf:5:32",
            TWO_NODES + "paths = ( { in = \"gen\", mode = \"all\" } )\n");
        assertError("path 1: reverse = true needs one output node other than the input (VILLAS reverses simple " +
            "paths only)", "run.conf:5:60",
            TWO_NODES + "paths = ( { in = \"gen\", out = [ \"sink\", \"gen\" ], reverse = true } )\n");
        assertError("path 1 (reversed): node 'sink' (collector) cannot be a path's input", "run.conf:5:31",
            TWO_NODES + "paths = ( { in = \"gen\", out = \"sink\", reverse = true } )\n");
    }

    @Test
    void anOutputMustHoldTheInputsSamples() throws IOException
    {
        assertError("path 1: node 'gen' (counter) reads samples of up to 5 values, but node 'sink' (collector) " +
            "takes at most 4 (its signals)", "run.conf:2:31", """
            nodes = { gen = { type = "counter", values = 5 }, sink = { type = "collector", values = 4 } }
            paths = ( { in = "gen", out = "sink" } )
            """);
    }

    @Test
    void hooksAreCheckedWhereTheyAreWritten() throws IOException
    {
        assertError("node 'gen': hook type \"print\" is not supported; supported: stats", "run.conf:2:57",
            "nodes = {\n    gen = { type = \"counter\", in = { hooks = ( { type = \"print\" } ) } } }\n");
        assertError("unknown key 'verbos' (did you mean 'verbose'?)", "run.conf:2:66",
            "nodes = {\n    gen = { type = \"counter\", in = { hooks = ( { type = \"stats\", verbos = true } ) } } }\n");
        assertError("format = \"matlab\": the stats formats are human and json (VILLAS's matlab is not supported)",
            "run.conf:5:62", TWO_NODES + "paths = ( { in = \"gen\", hooks = ( { type = \"stats\", format = \"matlab\" } ) } )\n");
        assertError("path 1: hooks must be a list such as ( { type = \"stats\" } ), not a group", "run.conf:5:33",
            TWO_NODES + "paths = ( { in = \"gen\", hooks = { type = \"stats\" } } )\n");
        assertError("warmup = 1 must be at least 2 (the mean and standard deviation of the warm-up values place the " +
            "buckets)", "run.conf:5:62", TWO_NODES + "paths = ( { in = \"gen\", hooks = ( { type = \"stats\", warmup = 1 } ) } )\n");
    }

    @Test
    void jsonConfigsGiveTheirLocationsToo() throws IOException
    {
        assertError("path 1 (at @run.json:3:14) names node 'nobody', which is not in nodes (known: gen)", "run.json:3:22", """
            {
              "nodes": { "gen": { "type": "counter" } },
              "paths": [ { "in": "nobody" } ]
            }
            """, "run.json");
    }

    private void assertError(final String message, final String location, final String text) throws IOException
    {
        assertError(message, location, text, "run.conf");
    }

    private void assertError(final String message, final String location, final String text, final String name)
        throws IOException
    {
        final ConfigException error = assertThrows(ConfigException.class, () -> read(name, text).close());
        assertEquals(dir.resolve(location) + ": " + message.replace("@", dir + "/"), error.getMessage());
    }

    private RunConfig read(final String name, final String text) throws IOException
    {
        return TestNodes.read(dir.resolve(name), text);
    }
}
