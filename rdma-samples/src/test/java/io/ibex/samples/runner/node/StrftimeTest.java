package io.ibex.samples.runner.node;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StrftimeTest
{
    private static final String ALL = "%a|%A|%b|%h|%B|%c|%C|%d|%D|%e|%F|%g|%G|%H|%I|%j|%k|%l|%m|%M|%p|%P|%r|%R|%s|" +
        "%S|%T|%u|%U|%V|%w|%W|%x|%X|%y|%Y|%z|%Z|%%|%n|%t";

    @Test
    void expandsTheUriOfVillasExampleInUtc()
    {
        assertEquals("logs/ib_results-20240102_03-04-05.log",
            Strftime.format("logs/ib_results-%Y%m%d_%H-%M-%S.log", 1704164645));
    }

    @Test
    void expandsEveryConversionAsGlibcStrftimeOfGmtime()
    {
        // Expected: glibc's strftime of gmtime_r for these times (GNU date -u, with %Z as gmtime_r sets it).
        assertEquals("Tue|Tuesday|Jan|Jan|January|Tue Jan  2 03:04:05 2024|20|02|01/02/24| 2|2024-01-02|24|2024|03|" +
            "03|002| 3| 3|01|04|AM|am|03:04:05 AM|03:04|1704164645|05|03:04:05|2|00|01|2|01|01/02/24|03:04:05|24|" +
            "2024|+0000|GMT|%|\n|\t", Strftime.format(ALL, 1704164645));
        assertEquals("Thu|Thursday|Dec|Dec|December|Thu Dec 31 23:59:59 2020|20|31|12/31/20|31|2020-12-31|20|2020|" +
            "23|11|366|23|11|12|59|PM|pm|11:59:59 PM|23:59|1609459199|59|23:59:59|4|52|53|4|52|12/31/20|23:59:59|20|" +
            "2020|+0000|GMT|%|\n|\t", Strftime.format(ALL, 1609459199));
        assertEquals("Thu|Thursday|Jan|Jan|January|Thu Jan  1 00:00:00 1970|19|01|01/01/70| 1|1970-01-01|70|1970|" +
            "00|12|001| 0|12|01|00|AM|am|12:00:00 AM|00:00|0|00|00:00:00|4|00|01|4|00|01/01/70|00:00:00|70|1970|" +
            "+0000|GMT|%|\n|\t", Strftime.format(ALL, 0));
    }

    @Test
    void refusesWhatItWouldOtherwiseLeaveInAFileName()
    {
        assertEquals("%Q at character 6 of 'logs/%Q.log' is not a strftime conversion this runner knows (no flags, " +
            "widths or E/O modifiers; %% for a %)",
            assertThrows(IllegalArgumentException.class, () -> Strftime.format("logs/%Q.log", 0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Strftime.format("%-d", 0));
        assertThrows(IllegalArgumentException.class, () -> Strftime.format("%Ey", 0));
        assertEquals("'100%' ends with a lone '%' (write %% for a %)",
            assertThrows(IllegalArgumentException.class, () -> Strftime.format("100%", 0)).getMessage());
    }
}
