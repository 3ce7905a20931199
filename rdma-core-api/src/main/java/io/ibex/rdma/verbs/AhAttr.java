package io.ibex.rdma.verbs;

/**
 * The address of a remote port, as {@code struct ibv_ah_attr} with its GRH: used to create address handles
 * and to move RC/UC queue pairs to RTR.
 *
 * @param dlid          destination LID (0 on Ethernet link layers).
 * @param sl            service level.
 * @param portNum       local port, from 1.
 * @param isGlobal      a GRH is used (mandatory on Ethernet link layers).
 * @param dgid          destination GID (when global).
 * @param sgidIndex     local GID-table index (when global).
 * @param hopLimit      hop limit (when global).
 * @param flowLabel     flow label (when global).
 * @param trafficClass  traffic class (when global).
 */
public record AhAttr(int dlid, int sl, int portNum, boolean isGlobal, Gid dgid, int sgidIndex, int hopLimit,
    int flowLabel, int trafficClass)
{
    /**
     * An address by GID, as RoCE needs it.
     *
     * @param portNum   local port.
     * @param dgid      destination GID.
     * @param sgidIndex local GID index.
     * @return the attributes with hop limit 1.
     */
    public static AhAttr global(final int portNum, final Gid dgid, final int sgidIndex)
    {
        return new AhAttr(0, 0, portNum, true, dgid, sgidIndex, 1, 0, 0);
    }

    /**
     * An address by LID only, as on an InfiniBand subnet.
     *
     * @param portNum local port.
     * @param dlid    destination LID.
     * @return the attributes.
     */
    public static AhAttr local(final int portNum, final int dlid)
    {
        return new AhAttr(dlid, 0, portNum, false, null, 0, 0, 0, 0);
    }
}
