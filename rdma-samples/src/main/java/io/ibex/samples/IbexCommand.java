package io.ibex.samples;

import io.ibex.samples.channel.ChannelCommand;
import io.ibex.samples.cm.RdmaClientCommand;
import io.ibex.samples.cm.RdmaServerCommand;
import io.ibex.samples.cm.RpingCommand;
import io.ibex.samples.cm.UdaddyCommand;
import io.ibex.samples.perf.SendBwCommand;
import io.ibex.samples.perf.SendLatCommand;
import io.ibex.samples.perf.WriteBwCommand;
import io.ibex.samples.perf.WriteLatCommand;
import io.ibex.samples.runner.CompareCommand;
import io.ibex.samples.runner.NodeCommand;
import io.ibex.samples.verbs.DevinfoCommand;
import io.ibex.samples.verbs.RcPingpongCommand;
import io.ibex.samples.verbs.RdmaWriteCommand;
import io.ibex.samples.verbs.UdPingpongCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;

/**
 * The {@code ibex} command line: one subcommand per program, in the manner of the rdma-core tools.
 * A failure prints one line naming the command and what went wrong, and exits with status 1.
 */
@Command(
    name = "ibex",
    mixinStandardHelpOptions = true,
    versionProvider = IbexCommand.ManifestVersion.class,
    description = "RDMA sample transport for Java: verbs demos and tools on the soft or disni provider.",
    subcommands = {
        DemoCommand.class,
        DevinfoCommand.class,
        RcPingpongCommand.class,
        UdPingpongCommand.class,
        RdmaWriteCommand.class,
        RdmaServerCommand.class,
        RdmaClientCommand.class,
        RpingCommand.class,
        UdaddyCommand.class,
        SendLatCommand.class,
        SendBwCommand.class,
        WriteLatCommand.class,
        WriteBwCommand.class,
        ChannelCommand.class,
        NodeCommand.class,
        CompareCommand.class })
public final class IbexCommand
{
    @Option(names = "--stack-trace", scope = CommandLine.ScopeType.INHERIT,
        description = "Print the stack trace of a failure, not only its message.")
    private boolean stackTrace;

    /**
     * Runs the command line and exits with its status.
     *
     * @param args the arguments.
     */
    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /**
     * @return the command line, ready to {@link CommandLine#execute(String...)}.
     */
    public static CommandLine commandLine()
    {
        final IbexCommand ibex = new IbexCommand();
        return new CommandLine(ibex).setExecutionExceptionHandler(
            (final Exception ex, final CommandLine command, final ParseResult parseResult) ->
                ibex.reportFailure(ex, command));
    }

    private int reportFailure(final Exception ex, final CommandLine command)
    {
        final PrintWriter err = command.getErr();
        err.println(command.getCommandSpec().qualifiedName() + ": error: " + describe(ex));
        if (stackTrace)
        {
            ex.printStackTrace(err);
        }
        err.flush();
        return command.getCommandSpec().exitCodeOnExecutionException();
    }

    private static String describe(final Throwable failure)
    {
        final StringBuilder text = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause())
        {
            if (cause != failure)
            {
                text.append("; caused by ");
            }
            text.append(cause.getMessage() != null ? cause.getMessage() : cause.getClass().getName());
        }
        return text.toString();
    }

    /**
     * The version the runnable jar's manifest carries.
     */
    public static final class ManifestVersion implements IVersionProvider
    {
        /**
         * @return the version line.
         */
        @Override
        public String[] getVersion()
        {
            final String version = IbexCommand.class.getPackage().getImplementationVersion();
            return new String[] { "ibex " + (version != null ? version : "(development build)") };
        }
    }
}
