package io.ibex.transport.sample;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SignalListTest
{
    @Test
    void theDefaultIsSixtyFourFloats()
    {
        assertEquals(64, SignalList.DEFAULT.size());
        assertEquals(Signal.of("signal63", SignalType.FLOAT), SignalList.DEFAULT.get(63));
    }

    @Test
    void aFormatStringRepeatsEachTypeLetterByItsCount()
    {
        final SignalList signals = SignalList.parseFormat("12f3ibc");

        assertEquals(17, signals.size());
        assertEquals(SignalType.FLOAT, signals.get(11).type());
        assertEquals(SignalType.INTEGER, signals.get(12).type());
        assertEquals(SignalType.INTEGER, signals.get(14).type());
        assertEquals(SignalType.BOOLEAN, signals.get(15).type());
        assertEquals(Signal.of("signal16", SignalType.COMPLEX), signals.get(16));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "12x    | bad signal format '12x' at position 3: 'x' is not a type letter (f, i, b, c)",
        "3      | bad signal format '3' at position 1: a count must be followed by a type letter (f, i, b, c)",
        "''     | bad signal format '' at position 1: it names no signal",
        "0f     | bad signal format '0f' at position 1: count 0 is outside 1..1000",
        "1001f  | bad signal format '1001f' at position 1: count 1001 is outside 1..1000",
        "99999999999f | bad signal format '99999999999f' at position 1: count 99999999999 is too large",
        "600f600i | signal format '600f600i' names 1200 signals, more than a sample carries (1000)",
    })
    void aBadFormatIsRefusedNamingWhereAndWhy(final String format, final String message)
    {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> SignalList.parseFormat(format))
            .getMessage());
    }

    @Test
    void typesAreNamedAsInVillasConfigs()
    {
        assertEquals(SignalType.COMPLEX, SignalType.fromConfigName("Complex"));
        assertEquals("unknown signal type 'double' (float, integer, boolean, complex)",
            assertThrows(IllegalArgumentException.class, () -> SignalType.fromConfigName("double")).getMessage());
    }

    @Test
    void countsOutsideWhatASampleCarriesAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> SignalList.ofCount(0));
        assertThrows(IllegalArgumentException.class, () -> SignalList.ofCount(Sample.MAX_CAPACITY + 1));
        assertThrows(IllegalArgumentException.class, () -> new SignalList(List.of()));
    }

    @Test
    void initialValuesOfEveryTypeBecomeTheirSlotBits()
    {
        assertEquals(Double.doubleToRawLongBits(2.5), SignalValues.ofNumber(SignalType.FLOAT, 2.5));
        assertEquals(-3L, SignalValues.ofNumber(SignalType.INTEGER, -3));
        assertEquals(1L, SignalValues.ofNumber(SignalType.BOOLEAN, 7));
        assertEquals(SignalValues.ofComplex(1.5f, 0f), SignalValues.ofNumber(SignalType.COMPLEX, 1.5));
    }
}
