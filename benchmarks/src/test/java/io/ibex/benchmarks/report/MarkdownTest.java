package io.ibex.benchmarks.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MarkdownTest
{
    private static final String DOCUMENT = "# Benchmarks\n\nintro\n\n" + Markdown.BEGIN + "\nold section\n" +
        Markdown.END + "\n\n## History\n\nhand-written\n";

    @Test
    void replacesOnlyTheTextBetweenTheMarkers()
    {
        final String replaced = Markdown.replaceSection(DOCUMENT, "new section");

        assertEquals("# Benchmarks\n\nintro\n\n" + Markdown.BEGIN + "\nnew section\n" + Markdown.END +
            "\n\n## History\n\nhand-written\n", replaced);
        assertEquals(replaced, Markdown.replaceSection(replaced, "new section\n"), "replacing again changes nothing");
        assertFalse(Markdown.replaceSection(replaced, "third").contains("new section"));
    }

    @Test
    void refusesADocumentWithoutBothMarkersOnceInOrder()
    {
        assertTrue(message("# no markers").contains("no " + Markdown.BEGIN + " marker"));
        assertTrue(message(Markdown.BEGIN + "\n").contains("no " + Markdown.END + " marker"));
        assertTrue(message(Markdown.END + "\n" + Markdown.BEGIN + "\n").contains("comes before"));
        assertTrue(message(DOCUMENT + Markdown.BEGIN).contains("holds a marker twice"));
    }

    @Test
    void wrapsProseAndListItemsButNotTablesCodeOrImages()
    {
        final String table = "| " + "a | ".repeat(20);
        final String code = "```\n" + "x ".repeat(20) + "\n```";
        final String image = "![" + "alt ".repeat(10) + "](plots/p.png)";

        assertEquals("one two\nthree four\n\n- five six\n  seven\n" + table + "\n" + code + "\n" + image,
            Markdown.wrap("one two three four\n\n- five six seven\n" + table + "\n" + code + "\n" + image, 10));
    }

    @Test
    void formatsMissingFiguresAsNotRun()
    {
        assertEquals(Markdown.NOT_RUN, Markdown.micros(Double.NaN));
        assertEquals(Markdown.NOT_RUN, Markdown.ratio(1.0 / Double.NaN));
        assertEquals("6.720", Markdown.micros(6.72));
        assertEquals("17.80", Markdown.micros(17.798));
        assertEquals("1,234,568", Markdown.whole(1_234_567.8));
    }

    @Test
    void aTableRowMustHaveACellPerColumn()
    {
        final Markdown.Table table = new Markdown.Table("a", "b").row("1", "2");

        assertEquals("| a | b |\n|---|---|\n| 1 | 2 |\n", table.toString());
        assertThrows(IllegalArgumentException.class, () -> table.row("1"));
    }

    private static String message(final String document)
    {
        return assertThrows(IllegalArgumentException.class, () -> Markdown.replaceSection(document, "x"))
            .getMessage();
    }
}
