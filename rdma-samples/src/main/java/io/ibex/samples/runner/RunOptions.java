package io.ibex.samples.runner;

import io.ibex.transport.config.IdleKind;

import java.time.Duration;
import java.util.Objects;

/**
 * How a runner runs a config, from the command line.
 *
 * @param duration       stop after this long once the paths started, or null to run until the inputs end.
 * @param statusInterval how often to show the status line; {@link Duration#ZERO} for never.
 * @param linger         how long every path must have been idle, after the inputs that end ended, before the run
 *                       ends by itself.
 * @param connectTimeout how long the infiniband sources may take to connect before the paths start.
 * @param idle           how the path threads wait when they have nothing to do.
 * @param threads        how the paths are spread over threads.
 * @param jit            which compilers the JVM uses from the run on.
 */
public record RunOptions(Duration duration, Duration statusInterval, Duration linger, Duration connectTimeout,
    IdleKind idle, PathThreads threads, JitMode jit)
{
    /**
     * Checks the fields.
     *
     * @param duration       stop after this long once the paths started, or null to run until the inputs end.
     * @param statusInterval how often to show the status line; {@link Duration#ZERO} for never.
     * @param linger         how long every path must have been idle, after the inputs that end ended, before the run
     *                       ends by itself.
     * @param connectTimeout how long the infiniband sources may take to connect before the paths start.
     * @param idle           how the path threads wait when they have nothing to do.
     * @param threads        how the paths are spread over threads.
     * @param jit            which compilers the JVM uses from the run on.
     */
    public RunOptions
    {
        Objects.requireNonNull(statusInterval, "statusInterval");
        Objects.requireNonNull(linger, "linger");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(threads, "threads");
        Objects.requireNonNull(jit, "jit");
    }
}
