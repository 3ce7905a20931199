package io.ibex.samples;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoCommandTest
{
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(final String... args)
    {
        final CommandLine commandLine = IbexCommand.commandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true));
        return assertTimeoutPreemptively(LIMIT, () -> commandLine.execute(args));
    }

    @Test
    void demoOnTheSoftProviderDeliversTheSendAndTheWrite()
    {
        final int status = run("demo", "--provider", "soft");

        assertEquals(0, status, () -> "stdout:\n" + out + "\nstderr:\n" + err);
        final String text = out.toString();
        assertTrue(text.contains("B received: \"Hello from QP A, delivered by RDMA SEND\""), text);
        assertTrue(text.contains("B's buffer holds: \"Hello from QP A, placed by RDMA WRITE\""), text);
        assertTrue(text.contains("opcode RECV"), text);
        assertTrue(text.contains("opcode RDMA_WRITE"), text);
        assertTrue(text.contains("QP A is RTS, QP B is RTS"), text);
    }

    @Test
    void anUnknownProviderFailsWithItsNameAndTheKnownOnes()
    {
        final int status = run("demo", "--provider", "nosuch");

        assertEquals(1, status);
        assertTrue(err.toString().startsWith("ibex demo: error: unknown RDMA provider 'nosuch'"), err.toString());
        assertTrue(err.toString().contains("soft"), err.toString());
    }

    @Test
    void anUnknownDeviceFailsNamingTheDevicesThereAre()
    {
        final int status = run("demo", "--provider", "soft", "--ib-dev", "nosuch0");

        assertEquals(1, status);
        assertTrue(err.toString().contains("has no device 'nosuch0'; its devices: "), err.toString());
    }

    @Test
    void noSubcommandIsAUsageError()
    {
        assertEquals(CommandLine.ExitCode.USAGE, run());
        assertTrue(err.toString().contains("Missing required subcommand"), err.toString());
    }
}
