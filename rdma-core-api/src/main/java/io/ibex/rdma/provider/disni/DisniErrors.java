package io.ibex.rdma.provider.disni;

import io.ibex.rdma.verbs.VerbsException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewording of IbexNative's {@link VerbsException}s: a caller wraps one in another that names its object.
 */
final class DisniErrors
{
    private static final Pattern ERRNO = Pattern.compile("\\(errno (\\d+)\\)$");

    private DisniErrors()
    {
    }

    /**
     * @param ex an exception from IbexNative or this provider.
     * @return its message without the {@code (errno n)} the exception adds, to wrap in another that adds it.
     */
    static String reason(final VerbsException ex)
    {
        final String message = String.valueOf(ex.getMessage());
        final Matcher matcher = ERRNO.matcher(message);
        return matcher.find() ? message.substring(0, matcher.start()).stripTrailing() : message;
    }
}
