package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;

/**
 * Walks the text of one libconfig file character by character, keeping line and column, and skips white space
 * and the three kinds of comments ({@code #}, {@code //} to the end of the line, {@code /* *}{@code /}).
 */
final class LibconfigCursor
{
    /** What {@link #peek()} returns at the end of the text. */
    static final char END = '\uffff';

    private final String text;
    private final String source;
    private int position;
    private int line = 1;
    private int column = 1;

    LibconfigCursor(final String text, final String source)
    {
        // A byte order mark is not part of the config.
        this.text = text.startsWith("\ufeff") ? text.substring(1) : text;
        this.source = source;
    }

    String source()
    {
        return source;
    }

    ConfigLocation location()
    {
        return new ConfigLocation(source, line, column);
    }

    boolean atEnd()
    {
        return position >= text.length();
    }

    char peek()
    {
        return atEnd() ? END : text.charAt(position);
    }

    char peek(final int ahead)
    {
        return position + ahead < text.length() ? text.charAt(position + ahead) : END;
    }

    char next()
    {
        final char c = text.charAt(position++);
        if (c == '\n')
        {
            line++;
            column = 1;
        }
        else
        {
            column++;
        }
        return c;
    }

    /**
     * Takes characters while they may belong to a name, number or boolean.
     *
     * @return the word, empty if the next character cannot start one.
     */
    String word()
    {
        final int start = position;
        while (!atEnd() && isWordChar(peek()))
        {
            next();
        }
        return text.substring(start, position);
    }

    /**
     * Skips white space and comments.
     *
     * @throws ConfigException at its start for a block comment that is never closed.
     */
    void skipBlanks()
    {
        while (!atEnd())
        {
            final char c = peek();
            if (Character.isWhitespace(c))
            {
                next();
            }
            else if (c == '#' || (c == '/' && peek(1) == '/'))
            {
                while (!atEnd() && peek() != '\n')
                {
                    next();
                }
            }
            else if (c == '/' && peek(1) == '*')
            {
                skipBlockComment();
            }
            else
            {
                return;
            }
        }
    }

    /**
     * @return the next character as a message names it: {@code "'}'"}, or {@code "end of file"}.
     */
    String describeNext()
    {
        return atEnd() ? "end of file" : "'" + peek() + "'";
    }

    private void skipBlockComment()
    {
        final ConfigLocation start = location();
        next();
        next();
        while (!(peek() == '*' && peek(1) == '/'))
        {
            if (atEnd())
            {
                throw new ConfigException(start, "comment '/*' is never closed with '*/'");
            }
            next();
        }
        next();
        next();
    }

    private static boolean isWordChar(final char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '_' || c == '-' || c == '+' || c == '.' || c == '*';
    }
}
