package io.ibex.transport.config.internal;

import java.util.Collection;

/**
 * Finds the known key nearest to a mistyped one by Levenshtein distance, for "did you mean" hints.
 */
final class KeySuggestion
{
    private static final int MAX_DISTANCE = 3;
    private static final int CHARS_PER_EDIT = 3;

    private KeySuggestion()
    {
    }

    /**
     * @param unknown the key as written.
     * @param known   the keys that mean something there.
     * @return the nearest known key if it is close (one edit per three characters, at most three; at least one),
     *         else null.
     */
    static String nearest(final String unknown, final Collection<String> known)
    {
        final int limit = Math.max(1, Math.min(MAX_DISTANCE, unknown.length() / CHARS_PER_EDIT));
        String nearest = null;
        int nearestDistance = limit + 1;
        for (final String candidate : known)
        {
            final int distance = distance(unknown, candidate);
            if (distance < nearestDistance)
            {
                nearest = candidate;
                nearestDistance = distance;
            }
        }
        return nearest;
    }

    /**
     * @return how many single-character insertions, deletions or substitutions turn {@code a} into {@code b}.
     */
    static int distance(final String a, final String b)
    {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
