package io.ibex.transport.channel;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;

import java.nio.charset.StandardCharsets;

/**
 * Says why a connect failed, from the rdma_cm event that ended it: the event and its status, with the text an
 * ibex target put in its rejection or else what the status means ({@link CmEvent#failureText}).
 */
final class ConnectFailure
{
    /** What the text of an ibex target's rejection starts with. */
    static final String IBEX_TEXT = "ibex: ";

    private ConnectFailure()
    {
    }

    /**
     * @param event the event that ended the connect.
     * @return e.g. {@code REJECTED (status 8: nothing listens on that port)}.
     */
    static String describe(final CmEvent event)
    {
        if (event.status() == 0)
        {
            return event.type().toString();
        }
        final boolean rejected = event.type() == CmEventType.REJECTED ||
            event.type() == CmEventType.UNREACHABLE && event.status() == CmEvent.SIDR_REJECT;
        final String ibex = rejected ? ibexText(event.privateData()) : null;
        final String why = ibex != null ? ibex : event.failureText();
        return event.type() + " (status " + event.status() + (why != null ? ": " + why : "") + ")";
    }

    /** @return the text of an ibex target's rejection (ASCII up to the first NUL, after "ibex: "), or null. */
    private static String ibexText(final byte[] privateData)
    {
        int end = 0;
        while (end < privateData.length && privateData[end] != 0)
        {
            end++;
        }
        final String text = new String(privateData, 0, end, StandardCharsets.US_ASCII);
        return text.startsWith(IBEX_TEXT) ? text.substring(IBEX_TEXT.length()) : null;
    }
}
