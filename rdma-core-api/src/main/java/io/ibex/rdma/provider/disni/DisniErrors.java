package io.ibex.rdma.provider.disni;

import io.ibex.rdma.verbs.VerbsException;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the IOExceptions of DiSNI's Java classes into the {@link VerbsException}s of this API. libdisni.so's
 * DiSNI natives report a failed verb as {@code "<what>: <strerror> (errno <n>)"} (jni_util.c,
 * ibex_throw_io), so the errno is read back from there; DiSNI's own Java checks (a closed object) and the
 * C's refusals of an unusable handle carry none and become EINVAL, the errno verbs return for a bad argument.
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

    /**
     * @param what what was being done, naming the object.
     * @param ex   what DiSNI threw.
     * @return the exception to throw.
     */
    static VerbsException verbs(final String what, final IOException ex)
    {
        final String message = String.valueOf(ex.getMessage());
        final Matcher matcher = ERRNO.matcher(message);
        final int errno = matcher.find() ? Integer.parseInt(matcher.group(1)) : VerbsException.EINVAL;
        return new VerbsException(errno, what + ": " + message, ex);
    }
}
