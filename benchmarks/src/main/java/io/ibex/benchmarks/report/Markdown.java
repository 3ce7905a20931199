package io.ibex.benchmarks.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Markdown the report writes: tables, figures formatted for them, and the replacement of the generated section
 * between its markers in docs/benchmarks.md.
 */
public final class Markdown
{
    /** The line before the generated section. */
    public static final String BEGIN = "<!-- compare:begin -->";
    /** The line after the generated section. */
    public static final String END = "<!-- compare:end -->";
    /** What a cell says when the run has no figure for it. */
    public static final String NOT_RUN = "not run";

    private Markdown()
    {
    }

    /**
     * Replaces the text between the markers, keeping the markers and everything outside them.
     *
     * @param document the whole document.
     * @param section  the new text between the markers.
     * @return the document with the section replaced.
     * @throws IllegalArgumentException if the document does not hold each marker exactly once, begin before end.
     */
    public static String replaceSection(final String document, final String section)
    {
        final int begin = document.indexOf(BEGIN);
        final int end = document.indexOf(END);
        if (begin < 0 || end < 0)
        {
            throw new IllegalArgumentException("the document has no " + (begin < 0 ? BEGIN : END) +
                " marker: add " + BEGIN + " and " + END + " on lines of their own where the section goes");
        }
        if (document.indexOf(BEGIN, begin + 1) >= 0 || document.indexOf(END, end + 1) >= 0)
        {
            throw new IllegalArgumentException("the document holds a marker twice: " + BEGIN + " and " + END +
                " must each appear once");
        }
        if (end < begin)
        {
            throw new IllegalArgumentException("the document's " + END + " comes before its " + BEGIN);
        }
        final String body = section.endsWith("\n") ? section : section + "\n";
        return document.substring(0, begin + BEGIN.length()) + "\n" + body + document.substring(end);
    }

    /**
     * Wraps the prose of some Markdown at a width, as the hand-written parts of the docs are: paragraphs and list
     * items (continued two spaces in); tables, code blocks, headings and images stay as they are.
     *
     * @param markdown the Markdown.
     * @param width    the widest line, in characters.
     * @return the Markdown wrapped.
     */
    public static String wrap(final String markdown, final int width)
    {
        final StringBuilder wrapped = new StringBuilder();
        boolean code = false;
        for (final String line : markdown.split("\n", -1))
        {
            if (line.startsWith("```"))
            {
                code = !code;
            }
            if (code || line.length() <= width || line.startsWith("|") || line.startsWith("#") ||
                line.startsWith("!") || line.startsWith("```"))
            {
                wrapped.append(line).append('\n');
                continue;
            }
            final String indent = line.startsWith("- ") ? "  " : "";
            int column = 0;
            for (final String word : line.split(" "))
            {
                if (column > 0 && column + 1 + word.length() > width)
                {
                    wrapped.append('\n').append(indent);
                    column = indent.length();
                }
                else if (column > 0)
                {
                    wrapped.append(' ');
                    column++;
                }
                wrapped.append(word);
                column += word.length();
            }
            wrapped.append('\n');
        }
        return wrapped.substring(0, wrapped.length() - 1);
    }

    /**
     * @param micros a latency in microseconds, or NaN when not measured.
     * @return it with three significant digits at least, or {@value #NOT_RUN}.
     */
    public static String micros(final double micros)
    {
        if (Double.isNaN(micros))
        {
            return NOT_RUN;
        }
        return micros >= 100 ? format("%.1f", micros) : micros >= 10 ? format("%.2f", micros) :
            format("%.3f", micros);
    }

    /**
     * @param ratio a ratio, or NaN when either side was not measured.
     * @return it with two decimals, or {@value #NOT_RUN}.
     */
    public static String ratio(final double ratio)
    {
        return Double.isNaN(ratio) ? NOT_RUN : format("%.2f", ratio);
    }

    /**
     * @param value a rate or a size, or NaN when not measured.
     * @return it rounded to a whole number with thousands separators, or {@value #NOT_RUN}.
     */
    public static String whole(final double value)
    {
        return Double.isNaN(value) ? NOT_RUN : format("%,.0f", value);
    }

    /**
     * @param value a figure, or NaN when not measured.
     * @param decimals the decimals to show.
     * @return it, or {@value #NOT_RUN}.
     */
    public static String fixed(final double value, final int decimals)
    {
        return Double.isNaN(value) ? NOT_RUN : format("%." + decimals + "f", value);
    }

    /**
     * @param value a value or null.
     * @return the value, or NaN for null.
     */
    public static double orNaN(final Double value)
    {
        return null == value ? Double.NaN : value;
    }

    private static String format(final String format, final double value)
    {
        return String.format(Locale.ROOT, format, value);
    }

    /**
     * A Markdown table: a header row, then rows of as many cells.
     */
    public static final class Table
    {
        private final String[] header;
        private final List<String[]> rows = new ArrayList<>();

        /**
         * @param header the column titles.
         */
        public Table(final String... header)
        {
            this.header = header.clone();
        }

        /**
         * Appends a row.
         *
         * @param cells one cell per column.
         * @return this table.
         * @throws IllegalArgumentException if the number of cells differs from the number of columns.
         */
        public Table row(final String... cells)
        {
            if (cells.length != header.length)
            {
                throw new IllegalArgumentException(cells.length + " cells for the " + header.length +
                    " columns " + String.join(", ", header));
            }
            rows.add(cells.clone());
            return this;
        }

        /**
         * @return whether the table has no rows.
         */
        public boolean isEmpty()
        {
            return rows.isEmpty();
        }

        /**
         * @return the table's Markdown, ending with a newline.
         */
        @Override
        public String toString()
        {
            final StringBuilder markdown = new StringBuilder();
            line(markdown, header);
            markdown.append('|').append("---|".repeat(header.length)).append('\n');
            rows.forEach(row -> line(markdown, row));
            return markdown.toString();
        }

        private static void line(final StringBuilder markdown, final String[] cells)
        {
            markdown.append('|');
            for (final String cell : cells)
            {
                markdown.append(' ').append(cell).append(" |");
            }
            markdown.append('\n');
        }
    }
}
