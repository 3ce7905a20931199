package io.ibex.rdma.cm;

import io.ibex.rdma.verbs.QpType;

/**
 * The rdma_cm port spaces, each with the queue-pair type it connects.
 */
public enum PortSpace
{
    /** RDMA_PS_TCP: reliable connected queue pairs. */
    TCP(0x0106, QpType.RC),
    /** RDMA_PS_UDP: unreliable datagram queue pairs, resolved by SIDR. */
    UDP(0x0111, QpType.UD),
    /**
     * RDMA_PS_IB: reliable connected queue pairs, as librdmacm's rdma_create_id types an id of this port space.
     * UC cannot be connected through rdma_cm (the kernel's CM moves the QP with RC-only attributes, which a UC
     * QP refuses): connect UC queue pairs out of band.
     */
    IB(0x013F, QpType.RC);

    private final int value;
    private final QpType qpType;

    PortSpace(final int value, final QpType qpType)
    {
        this.value = value;
        this.qpType = qpType;
    }

    /** @return the numeric value of {@code enum rdma_port_space}. */
    public int value()
    {
        return value;
    }

    /** @return the queue-pair type connections of this port space use. */
    public QpType qpType()
    {
        return qpType;
    }

    /**
     * @param type a queue-pair type.
     * @return the port space that connects it.
     */
    public static PortSpace forQpType(final QpType type)
    {
        for (final PortSpace ps : values())
        {
            if (ps.qpType == type)
            {
                return ps;
            }
        }
        throw new IllegalArgumentException("no port space connects " + type + " queue pairs" +
            (type == QpType.UC ? ": connect them out of band" : ""));
    }
}
