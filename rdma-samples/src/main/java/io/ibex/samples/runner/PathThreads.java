package io.ibex.samples.runner;

import java.util.Locale;

/**
 * How a run spreads its paths over threads ({@code --threads}).
 */
public enum PathThreads
{
    /**
     * A thread per path when the machine has a free core per path and one more (for the JIT, the soft device and
     * the rest of the system), else one thread for all: a path thread polls, and two of them on one core take
     * turns of milliseconds, which a paced generator pays in missed steps.
     */
    AUTO,
    /** A thread per path, as VILLASnode runs them: the lowest latency when every path has a core. */
    PER_PATH,
    /** One thread runs every path's duty cycle in turn: one core, whatever the number of paths. */
    SHARED;

    /** @return the name on the command line: auto, per-path or shared. */
    public String optionName()
    {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @param paths     the run's paths.
     * @param freeCores the cores the run may count on ({@link FreeCores#measure()}).
     * @return whether every path runs on one thread.
     */
    boolean shared(final int paths, final double freeCores)
    {
        return switch (this)
        {
            case AUTO -> paths > 1 && freeCores < paths + 1;
            case PER_PATH -> false;
            case SHARED -> true;
        };
    }

    /**
     * @param text auto, per-path or shared, in any case.
     * @return the choice.
     * @throws IllegalArgumentException naming the value and the accepted ones.
     */
    public static PathThreads fromOptionName(final String text)
    {
        return OptionNames.parse(values(), text, PathThreads::optionName);
    }
}
