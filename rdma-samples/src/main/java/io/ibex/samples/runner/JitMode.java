package io.ibex.samples.runner;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Which of HotSpot's compilers a run uses ({@code --jit}). C2 compiles a path's code on a core of its own after the
 * run starts; where the machine has no core to spare, that core is the generator's, and the steps are lost. C1
 * compiles quickly, and its code is fast enough for a paced generator.
 */
public enum JitMode
{
    /** C1 alone when the machine has fewer free cores than paths plus one (as {@link PathThreads#AUTO}), else both. */
    AUTO,
    /** C1 alone from the run on (after the warm-up): what C2 has not compiled yet, C1 compiles once more. */
    C1,
    /** Both compilers, as the JVM was started. */
    TIERED;

    /** Compiler directives (JEP 165) that keep C2 away from every method. */
    private static final String NO_C2 = "[{ match: \"*.*\", c2: { Exclude: true } }]";
    private static boolean c1Applied;

    /** @return the name on the command line: auto, c1 or tiered. */
    public String optionName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param paths     the run's paths.
     * @param freeCores the cores the run may count on.
     * @return whether the run uses C1 alone.
     */
    boolean c1Only(final int paths, final double freeCores)
    {
        return this == C1 || this == AUTO && freeCores < paths + 1;
    }

    /**
     * Keeps C2 from compiling anything from now on, through the DiagnosticCommand MBean's
     * {@code compilerDirectivesAdd} (jcmd's {@code Compiler.directives_add}); once per JVM.
     *
     * @return null when applied, else why not (a JVM without compiler directives).
     */
    static synchronized String applyC1Only()
    {
        if (c1Applied)
        {
            return null;
        }
        Path directives = null;
        try
        {
            directives = Files.createTempFile("ibex-jit", ".json");
            Files.writeString(directives, NO_C2);
            ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesAdd",
                new Object[] {new String[] {directives.toString()}}, new String[] {String[].class.getName()});
            c1Applied = true;
            return null;
        }
        catch (final IOException | JMException | RuntimeException ex)
        {
            return ex.toString();
        }
        finally
        {
            if (directives != null)
            {
                directives.toFile().delete();
            }
        }
    }

    /**
     * @param text auto, c1 or tiered, in any case.
     * @return the mode.
     * @throws IllegalArgumentException naming the value and the accepted ones.
     */
    public static JitMode fromOptionName(final String text)
    {
        return OptionNames.parse(values(), text, JitMode::optionName);
    }
}
