package io.ibex.rdma.verbs;

/**
 * What {@code ibv_query_port} reports.
 *
 * @param state       logical port state.
 * @param maxMtu      largest MTU the port supports.
 * @param activeMtu   MTU in use.
 * @param gidTblLen   entries in the GID table.
 * @param lid         base LID (0 on Ethernet link layers).
 * @param smLid       subnet manager LID.
 * @param lmc         LID mask control.
 * @param linkLayer   InfiniBand or Ethernet.
 * @param maxMsgSz    largest message in bytes.
 * @param activeSpeed active speed (encoded as ibv_port_attr.active_speed).
 * @param activeWidth active width (encoded as ibv_port_attr.active_width).
 */
public record PortAttributes(
    PortState state,
    Mtu maxMtu,
    Mtu activeMtu,
    int gidTblLen,
    int lid,
    int smLid,
    int lmc,
    LinkLayer linkLayer,
    long maxMsgSz,
    int activeSpeed,
    int activeWidth)
{
}
