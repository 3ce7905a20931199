package io.ibex.samples;

import io.ibex.rdma.verbs.Gid;

/**
 * What two reliable-connected endpoints exchange out of band before they can talk, as
 * {@code ibv_rc_pingpong} exchanges it over its TCP socket: the port's LID, the QP number, the first PSN the
 * QP sends, and the GID of the port.
 *
 * @param lid   the port's LID (0 on Ethernet link layers and on the soft provider).
 * @param qpNum the queue pair's number (24 bits).
 * @param psn   the first packet sequence number the queue pair sends (24 bits).
 * @param gid   the port's GID at the chosen GID index, or {@link Gid#ZERO} when addressing by LID.
 */
public record EndpointAddress(int lid, int qpNum, int psn, Gid gid)
{
    /**
     * @return the address as {@code ibv_rc_pingpong} prints it, e.g.
     *         {@code LID 0x0000, QPN 0x000011, PSN 0x3fa1c2, GID ::ffff:10.99.0.1}.
     */
    @Override
    public String toString()
    {
        return String.format("LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s", lid, qpNum, psn, Inet6Text.format(gid));
    }
}
