package io.ibex.benchmarks.report;

/**
 * JMH's score units ({@code ns/op}, {@code us/op}, {@code ops/s}, ...) converted to the report's: microseconds per
 * operation and operations per second.
 */
final class Units
{
    private Units()
    {
    }

    /**
     * @param value a time per operation.
     * @param unit  its JMH unit, {@code s/op}, {@code ms/op}, {@code us/op} or {@code ns/op}.
     * @return the time in microseconds.
     * @throws IllegalStateException if the unit is not a time per operation.
     */
    static double toMicros(final double value, final String unit)
    {
        return switch (unit)
        {
            case "s/op" -> value * 1e6;
            case "ms/op" -> value * 1e3;
            case "us/op" -> value;
            case "ns/op" -> value / 1e3;
            default -> throw new IllegalStateException("unit " + unit + " is not a time per operation");
        };
    }

    /**
     * @param value a rate.
     * @param unit  its JMH unit, {@code ops/s}, {@code ops/ms}, {@code ops/us} or {@code ops/ns}.
     * @return the rate per second.
     * @throws IllegalStateException if the unit is not a rate.
     */
    static double toPerSecond(final double value, final String unit)
    {
        return switch (unit)
        {
            case "ops/s" -> value;
            case "ops/ms" -> value * 1e3;
            case "ops/us" -> value * 1e6;
            case "ops/ns" -> value * 1e9;
            default -> throw new IllegalStateException("unit " + unit + " is not operations per time");
        };
    }
}
