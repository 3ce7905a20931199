package io.ibex.benchmarks;

import io.ibex.rdma.verbs.Gid;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.RcEndpoint;

/**
 * What one side of a two-JVM RC benchmark tells the other, as one line: where its queue pair is (QPN, PSN, GID)
 * and its registered buffer (rkey, address), for RDMA WRITEs into it.
 *
 * @param address       the queue pair's address.
 * @param rkey          the buffer's rkey.
 * @param bufferAddress the buffer's address.
 */
record RcPeer(EndpointAddress address, int rkey, long bufferAddress)
{
    /**
     * @return the line that describes {@code endpoint}.
     */
    static String line(final RcEndpoint endpoint)
    {
        final EndpointAddress address = endpoint.address();
        return address.qpNum() + " " + address.psn() + " " + address.gid() + " " + endpoint.mr().rkey() + " " +
            endpoint.mr().address();
    }

    /**
     * @param line a line of {@link #line}.
     * @return the peer it describes.
     */
    static RcPeer parse(final String line)
    {
        if (line == null)
        {
            throw new IllegalStateException("the other process ended before it sent its address");
        }
        final String[] fields = line.split(" ");
        return new RcPeer(new EndpointAddress(0, Integer.parseInt(fields[0]), Integer.parseInt(fields[1]),
            Gid.parse(fields[2])), Integer.parseInt(fields[3]), Long.parseLong(fields[4]));
    }
}
