package io.ibex.rdma.verbs;

/**
 * Which fields of a {@link QpAttr} a modify applies, with the values of {@code enum ibv_qp_attr_mask}.
 * {@link QpAttr}'s setters maintain the mask; these constants let a caller test it.
 */
public final class QpAttrMask
{
    /** qp_state. */
    public static final int STATE = 1;
    /** cur_qp_state. */
    public static final int CUR_STATE = 1 << 1;
    /** qp_access_flags. */
    public static final int ACCESS_FLAGS = 1 << 3;
    /** pkey_index. */
    public static final int PKEY_INDEX = 1 << 4;
    /** port_num. */
    public static final int PORT = 1 << 5;
    /** qkey. */
    public static final int QKEY = 1 << 6;
    /** ah_attr (the primary address vector). */
    public static final int AV = 1 << 7;
    /** path_mtu. */
    public static final int PATH_MTU = 1 << 8;
    /** timeout. */
    public static final int TIMEOUT = 1 << 9;
    /** retry_cnt. */
    public static final int RETRY_CNT = 1 << 10;
    /** rnr_retry. */
    public static final int RNR_RETRY = 1 << 11;
    /** rq_psn. */
    public static final int RQ_PSN = 1 << 12;
    /** max_rd_atomic. */
    public static final int MAX_QP_RD_ATOMIC = 1 << 13;
    /** min_rnr_timer. */
    public static final int MIN_RNR_TIMER = 1 << 15;
    /** sq_psn. */
    public static final int SQ_PSN = 1 << 16;
    /** max_dest_rd_atomic. */
    public static final int MAX_DEST_RD_ATOMIC = 1 << 17;
    /** dest_qp_num. */
    public static final int DEST_QPN = 1 << 20;

    private QpAttrMask()
    {
    }
}
