package io.ibex.samples.perf;

import io.ibex.samples.verbs.OutOfBandSocket;

/**
 * How the two sides of a test stay in step between rounds of its loop (the warm-up's, the profile's): each sends
 * the other one byte, one of two answers, over the out-of-band connection, and both decide the same from the two.
 */
final class RoundReport
{
    private final OutOfBandSocket peer;
    private final byte yes;
    private final byte no;
    private final String what;
    private final byte[] sent = new byte[1];
    private final byte[] received = new byte[1];

    /**
     * @param peer the connection to the peer.
     * @param yes  the one answer.
     * @param no   the other.
     * @param what what the byte reports, for errors, e.g. "report of a warm-up round".
     */
    RoundReport(final OutOfBandSocket peer, final char yes, final char no, final String what)
    {
        this.peer = peer;
        this.yes = (byte)yes;
        this.no = (byte)no;
        this.what = what;
    }

    /**
     * @param mine this side's answer.
     * @return the peer's answer.
     * @throws IllegalStateException if the peer sent something else, naming it.
     */
    boolean exchange(final boolean mine)
    {
        sent[0] = mine ? yes : no;
        peer.write(sent, "our " + what);
        peer.readFully(received, "its " + what);
        if (received[0] != yes && received[0] != no)
        {
            throw new IllegalStateException("the peer at " + peer.peer() + " sent " + (received[0] & 0xff) +
                " as its " + what + ", expected '" + (char)yes + "' or '" + (char)no + "': is it an ibex " +
                "send-lat or send-bw of this version, with the same options?");
        }
        return received[0] == yes;
    }
}
