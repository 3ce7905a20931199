package io.ibex.rdma.provider.soft.cm;

import java.io.IOException;

/**
 * A peer sent a malformed or unexpected CM message; the connection it came on is dropped.
 */
final class CmProtocolException extends IOException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what was wrong, with the bad value.
     */
    CmProtocolException(final String message)
    {
        super(message);
    }
}
