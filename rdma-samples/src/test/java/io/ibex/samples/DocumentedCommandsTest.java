package io.ibex.samples;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The user's docs (README.md, docs/, softroce/README.md) against the checkout: every relative link names a file that
 * exists, every {@code ibex} command (a code span or a code block's line) names a subcommand and options that exist,
 * and every source path of the checkout a command names ({@code examples/...}, {@code softroce/...}) exists.
 */
class DocumentedCommandsTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)[^)]*\\)");
    private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
    /** The command line after "ibex.jar", or after "ibex" opening a span or a code block's line. */
    private static final Pattern COMMAND = Pattern.compile("(?:ibex\\.jar\\s+|^(?:\\$ )?ibex\\s+)(.*)");
    /** A path of the checkout's sources: what a build makes ({@code target/}) may not exist when the tests run. */
    private static final Pattern CHECKOUT_PATH =
        Pattern.compile("^(?:examples|softroce|benchmarks|docs|\\.ci)/(?:(?!target/)[\\w.-]+/)*[\\w.-]*[\\w-]$");
    /** Tokens that end a command: a shell's pipe, list operators, redirections and comments. */
    private static final Pattern COMMAND_END = Pattern.compile("\\||&&?|;|[0-9]?>.*|<|#.*");

    @Test
    void everyDocsRelativeLinkNamesAFileThatExists()
    {
        final List<String> broken = new ArrayList<>();
        int links = 0;
        for (final Path doc : docs())
        {
            for (final Line line : prose(doc))
            {
                final Matcher link = LINK.matcher(line.text);
                while (link.find())
                {
                    final String target = link.group(1);
                    if (target.contains("://") || target.startsWith("mailto:") || target.startsWith("#"))
                    {
                        continue;
                    }
                    links++;
                    final String file = target.replaceFirst("#.*", "");
                    if (!Files.exists(doc.getParent().resolve(file)))
                    {
                        broken.add(line.where() + ": the link " + target + " names no file");
                    }
                }
            }
        }
        assertTrue(links > 20, "links found: " + links);
        assertEquals(List.of(), broken);
    }

    @Test
    void everyDocumentedIbexCommandNamesASubcommandAndOptionsThatExist()
    {
        final CommandLine ibex = IbexCommand.commandLine();
        final List<String> wrong = new ArrayList<>();
        int commands = 0;
        for (final Path doc : docs())
        {
            for (final Line line : commandLines(doc))
            {
                final Matcher command = COMMAND.matcher(line.text);
                if (command.find())
                {
                    commands += check(ibex, line, tokens(command.group(1)), wrong);
                }
                for (final String token : tokens(line.text))
                {
                    if (CHECKOUT_PATH.matcher(token).matches() && !Files.exists(ROOT.resolve(token)))
                    {
                        wrong.add(line.where() + ": " + token + " is not in the checkout");
                    }
                }
            }
        }
        assertTrue(commands > 30, "commands found: " + commands);
        assertEquals(List.of(), wrong);
    }

    /** @return 1 if the tokens are a command it checked (not a message such as "ibex node: error: ..."), else 0. */
    private static int check(final CommandLine ibex, final Line line, final List<String> tokens,
        final List<String> wrong)
    {
        int i = 0;
        while (i < tokens.size() && tokens.get(i).startsWith("-"))
        {
            requireOption(ibex.getCommandSpec(), tokens.get(i++), line, wrong);
        }
        if (i == tokens.size() || tokens.get(i).endsWith(":") || !tokens.get(i).matches("[a-z][a-z-]*"))
        {
            return 0;
        }
        final CommandLine sub = ibex.getSubcommands().get(tokens.get(i));
        if (sub == null)
        {
            wrong.add(line.where() + ": ibex has no subcommand " + tokens.get(i));
            return 1;
        }
        for (final String token : tokens.subList(i + 1, tokens.size()))
        {
            if (token.startsWith("-") && token.length() > 1 && !token.matches("-[0-9.]+"))
            {
                requireOption(sub.getCommandSpec(), token, line, wrong);
            }
        }
        return 1;
    }

    private static void requireOption(final CommandSpec spec, final String token, final Line line,
        final List<String> wrong)
    {
        final String name = token.replaceFirst("=.*", "");
        if (spec.findOption(name) != null)
        {
            return;
        }
        if (!name.startsWith("--"))
        {
            boolean clustered = true; // -vV: each letter an option
            for (final char letter : name.substring(1).toCharArray())
            {
                clustered &= spec.findOption(letter) != null;
            }
            if (clustered)
            {
                return;
            }
        }
        wrong.add(line.where() + ": ibex " + spec.name() + " has no option " + name);
    }

    /** @return the command's words: brackets of optional parts dropped, alternatives (-s|-c) split, up to its end. */
    private static List<String> tokens(final String command)
    {
        final List<String> tokens = new ArrayList<>();
        for (final String word : command.trim().split("\\s+"))
        {
            if (COMMAND_END.matcher(word).matches())
            {
                break;
            }
            for (final String part : word.replaceAll("[\\[\\]`]", "").split("\\\\?\\|"))
            {
                if (!part.isEmpty() && !part.equals("..."))
                {
                    tokens.add(part);
                }
            }
        }
        return tokens;
    }

    private static List<Path> docs()
    {
        final List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("softroce/README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs")))
        {
            files.filter(file -> file.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return docs;
    }

    /** @return the lines outside code blocks. */
    private static List<Line> prose(final Path doc)
    {
        return lines(doc).stream().filter(line -> !line.fenced).toList();
    }

    /** @return the code spans of the prose and the lines of code blocks, a line continued with \ joined to it. */
    private static List<Line> commandLines(final Path doc)
    {
        final List<Line> commands = new ArrayList<>();
        final List<Line> lines = lines(doc);
        for (int i = 0; i < lines.size(); i++)
        {
            final Line line = lines.get(i);
            if (line.fenced)
            {
                String text = line.text;
                while (text.endsWith("\\") && i + 1 < lines.size() && lines.get(i + 1).fenced)
                {
                    text = text.substring(0, text.length() - 1) + ' ' + lines.get(++i).text.trim();
                }
                commands.add(new Line(doc, line.number, text.trim(), true));
                continue;
            }
            final Matcher span = SPAN.matcher(line.text);
            while (span.find())
            {
                commands.add(new Line(doc, line.number, span.group(1).trim(), false));
            }
        }
        return commands;
    }

    /** @return the document's lines but the fences of its code blocks, each marked as inside a block or not. */
    private static List<Line> lines(final Path doc)
    {
        final List<Line> lines = new ArrayList<>();
        final List<String> texts = read(doc);
        boolean fenced = false;
        for (int i = 0; i < texts.size(); i++)
        {
            final String text = texts.get(i);
            if (text.trim().startsWith("```"))
            {
                fenced = !fenced;
            }
            else
            {
                lines.add(new Line(doc, i + 1, text, fenced));
            }
        }
        return lines;
    }

    private static List<String> read(final Path doc)
    {
        try
        {
            return Files.readAllLines(doc);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private record Line(Path doc, int number, String text, boolean fenced)
    {
        String where()
        {
            return ROOT.relativize(doc) + ":" + number;
        }
    }
}
