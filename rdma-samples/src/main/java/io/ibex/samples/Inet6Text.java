package io.ibex.samples;

import io.ibex.rdma.verbs.Gid;

/**
 * Formats a GID as glibc's {@code inet_ntop(AF_INET6, ...)} does, which is how the rdma-core example programs
 * print GIDs: hex groups without leading zeros, the longest run of two or more zero groups (the first of equal
 * runs) shortened to {@code ::}, and an IPv4-mapped ({@code ::ffff:a.b.c.d}) or IPv4-compatible
 * ({@code ::a.b.c.d}) address with its last 32 bits in dotted decimal.
 */
public final class Inet6Text
{
    private static final int GROUPS = Gid.LENGTH / 2;
    private static final int IPV4_GROUP = 6;

    private Inet6Text()
    {
    }

    /**
     * @param gid a GID.
     * @return its text as {@code inet_ntop} writes it, e.g. {@code ::ffff:10.99.0.1} or {@code fe80::1}.
     */
    public static String format(final Gid gid)
    {
        final int[] groups = new int[GROUPS];
        for (int i = 0; i < GROUPS; i++)
        {
            groups[i] = ((gid.byteAt(2 * i) & 0xff) << 8) | (gid.byteAt(2 * i + 1) & 0xff);
        }

        int bestBase = -1;
        int bestLength = 0;
        for (int i = 0; i < GROUPS; )
        {
            if (groups[i] != 0)
            {
                i++;
                continue;
            }
            int end = i;
            while (end < GROUPS && groups[end] == 0)
            {
                end++;
            }
            if (end - i > bestLength)
            {
                bestBase = i;
                bestLength = end - i;
            }
            i = end;
        }
        if (bestLength < 2)
        {
            bestBase = -1;
        }

        final StringBuilder text = new StringBuilder(45);
        for (int i = 0; i < GROUPS; i++)
        {
            if (bestBase >= 0 && i >= bestBase && i < bestBase + bestLength)
            {
                if (i == bestBase)
                {
                    text.append(':');
                }
                continue;
            }
            if (i != 0)
            {
                text.append(':');
            }
            if (i == IPV4_GROUP && bestBase == 0 &&
                (bestLength == 6 || (bestLength == 5 && groups[5] == 0xffff)))
            {
                text.append(gid.byteAt(12) & 0xff).append('.').append(gid.byteAt(13) & 0xff).append('.')
                    .append(gid.byteAt(14) & 0xff).append('.').append(gid.byteAt(15) & 0xff);
                return text.toString();
            }
            text.append(Integer.toHexString(groups[i]));
        }
        if (bestBase >= 0 && bestBase + bestLength == GROUPS)
        {
            text.append(':');
        }
        return text.toString();
    }
}
