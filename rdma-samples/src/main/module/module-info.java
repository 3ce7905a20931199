/**
 * The {@code ibex} command line: verbs and connection-manager programs, sample channels, and the VILLAS-style
 * runner. Exports nothing; picocli reads the commands reflectively.
 */
module io.ibex.samples
{
    requires io.ibex.transport;
    requires info.picocli;
    requires org.slf4j;
    requires java.management;
    requires jdk.jfr;

    opens io.ibex.samples to info.picocli;
    opens io.ibex.samples.channel to info.picocli;
    opens io.ibex.samples.cm to info.picocli;
    opens io.ibex.samples.perf to info.picocli;
    opens io.ibex.samples.runner to info.picocli;
    opens io.ibex.samples.verbs to info.picocli;
}
