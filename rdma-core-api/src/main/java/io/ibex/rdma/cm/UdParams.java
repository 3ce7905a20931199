package io.ibex.rdma.cm;

import io.ibex.rdma.verbs.AhAttr;

/**
 * What an ESTABLISHED event tells a UD endpoint about its peer, as {@code struct rdma_ud_param}: enough to
 * create an address handle and address sends.
 *
 * @param qpNum  the peer's QP number.
 * @param qkey   the peer's Q_Key.
 * @param ahAttr the peer's address.
 */
public record UdParams(int qpNum, int qkey, AhAttr ahAttr)
{
}
