package io.ibex.rdma.provider.disni;

/**
 * Where the fields of the C structs the data path exchanges lie, as libdisni.so was compiled (the layout
 * natives report sizeof and offsetof from the verbs headers, so nothing here is a guess). rdma-core 44 on
 * x86-64, for orientation:
 * <pre>
 * struct ibv_send_wr (128 B)                 struct ibv_recv_wr (32 B)     struct ibv_sge (16 B)
 *   0 wr_id        8 next     16 sg_list       0 wr_id   8 next            0 addr
 *  24 num_sge     28 opcode   32 send_flags   16 sg_list 24 num_sge        8 length
 *  36 imm_data (big-endian)                                               12 lkey
 *  40 wr: rdma {remote_addr, rkey@48} | atomic {remote_addr, compare_add@48, swap@56, rkey@64}
 *         | ud {ah, remote_qpn@48, remote_qkey@52}
 * struct ibv_wc (48 B)
 *   0 wr_id  8 status  12 opcode  16 vendor_err  20 byte_len  24 imm_data (big-endian)  28 qp_num
 *  32 src_qp  36 wc_flags  40 pkey_index  42 slid  44 sl  45 dlid_path_bits
 * </pre>
 * Read once, when the first queue pair or completion queue is created (the library is loaded by then).
 */
final class VerbsLayout
{
    private static final int[] SEND = IbexNative.sendWrLayout();
    private static final int[] RECV = IbexNative.recvWrLayout();
    private static final int[] WC = IbexNative.wcLayout();

    /** sizeof(struct ibv_send_wr). */
    static final int SEND_WR_SIZE = SEND[IbexNative.SWR_SIZE];
    /** ibv_send_wr.wr_id. */
    static final int SEND_WR_ID = SEND[IbexNative.SWR_WR_ID];
    /** ibv_send_wr.next. */
    static final int SEND_NEXT = SEND[IbexNative.SWR_NEXT];
    /** ibv_send_wr.sg_list. */
    static final int SEND_SG_LIST = SEND[IbexNative.SWR_SG_LIST];
    /** ibv_send_wr.num_sge. */
    static final int SEND_NUM_SGE = SEND[IbexNative.SWR_NUM_SGE];
    /** ibv_send_wr.opcode. */
    static final int SEND_OPCODE = SEND[IbexNative.SWR_OPCODE];
    /** ibv_send_wr.send_flags. */
    static final int SEND_FLAGS = SEND[IbexNative.SWR_SEND_FLAGS];
    /** ibv_send_wr.imm_data, big-endian. */
    static final int SEND_IMM_DATA = SEND[IbexNative.SWR_IMM_DATA];
    /** ibv_send_wr.wr.rdma.remote_addr. */
    static final int RDMA_REMOTE_ADDR = SEND[IbexNative.SWR_RDMA_REMOTE_ADDR];
    /** ibv_send_wr.wr.rdma.rkey. */
    static final int RDMA_RKEY = SEND[IbexNative.SWR_RDMA_RKEY];
    /** ibv_send_wr.wr.atomic.remote_addr. */
    static final int ATOMIC_REMOTE_ADDR = SEND[IbexNative.SWR_ATOMIC_REMOTE_ADDR];
    /** ibv_send_wr.wr.atomic.compare_add. */
    static final int ATOMIC_COMPARE_ADD = SEND[IbexNative.SWR_ATOMIC_COMPARE_ADD];
    /** ibv_send_wr.wr.atomic.swap. */
    static final int ATOMIC_SWAP = SEND[IbexNative.SWR_ATOMIC_SWAP];
    /** ibv_send_wr.wr.atomic.rkey. */
    static final int ATOMIC_RKEY = SEND[IbexNative.SWR_ATOMIC_RKEY];
    /** ibv_send_wr.wr.ud.ah. */
    static final int UD_AH = SEND[IbexNative.SWR_UD_AH];
    /** ibv_send_wr.wr.ud.remote_qpn. */
    static final int UD_REMOTE_QPN = SEND[IbexNative.SWR_UD_REMOTE_QPN];
    /** ibv_send_wr.wr.ud.remote_qkey. */
    static final int UD_REMOTE_QKEY = SEND[IbexNative.SWR_UD_REMOTE_QKEY];
    /** sizeof(struct ibv_sge). */
    static final int SGE_SIZE = SEND[IbexNative.SGE_SIZE];
    /** ibv_sge.addr. */
    static final int SGE_ADDR = SEND[IbexNative.SGE_ADDR];
    /** ibv_sge.length. */
    static final int SGE_LENGTH = SEND[IbexNative.SGE_LENGTH];
    /** ibv_sge.lkey. */
    static final int SGE_LKEY = SEND[IbexNative.SGE_LKEY];

    /** sizeof(struct ibv_recv_wr). */
    static final int RECV_WR_SIZE = RECV[IbexNative.RWR_SIZE];
    /** ibv_recv_wr.wr_id. */
    static final int RECV_WR_ID = RECV[IbexNative.RWR_WR_ID];
    /** ibv_recv_wr.next. */
    static final int RECV_NEXT = RECV[IbexNative.RWR_NEXT];
    /** ibv_recv_wr.sg_list. */
    static final int RECV_SG_LIST = RECV[IbexNative.RWR_SG_LIST];
    /** ibv_recv_wr.num_sge. */
    static final int RECV_NUM_SGE = RECV[IbexNative.RWR_NUM_SGE];

    /** sizeof(struct ibv_wc). */
    static final int WC_SIZE = WC[IbexNative.WC_SIZE];
    /** ibv_wc.wr_id. */
    static final int WC_WR_ID = WC[IbexNative.WC_WR_ID];
    /** ibv_wc.status. */
    static final int WC_STATUS = WC[IbexNative.WC_STATUS];
    /** ibv_wc.opcode. */
    static final int WC_OPCODE = WC[IbexNative.WC_OPCODE];
    /** ibv_wc.vendor_err. */
    static final int WC_VENDOR_ERR = WC[IbexNative.WC_VENDOR_ERR];
    /** ibv_wc.byte_len. */
    static final int WC_BYTE_LEN = WC[IbexNative.WC_BYTE_LEN];
    /** ibv_wc.imm_data, big-endian. */
    static final int WC_IMM_DATA = WC[IbexNative.WC_IMM_DATA];
    /** ibv_wc.qp_num. */
    static final int WC_QP_NUM = WC[IbexNative.WC_QP_NUM];
    /** ibv_wc.src_qp. */
    static final int WC_SRC_QP = WC[IbexNative.WC_SRC_QP];
    /** ibv_wc.wc_flags. */
    static final int WC_FLAGS = WC[IbexNative.WC_WC_FLAGS];
    /** ibv_wc.pkey_index (16 bits). */
    static final int WC_PKEY_INDEX = WC[IbexNative.WC_PKEY_INDEX];
    /** ibv_wc.slid (16 bits). */
    static final int WC_SLID = WC[IbexNative.WC_SLID];
    /** ibv_wc.sl (8 bits). */
    static final int WC_SL = WC[IbexNative.WC_SL];
    /** ibv_wc.dlid_path_bits (8 bits). */
    static final int WC_DLID_PATH_BITS = WC[IbexNative.WC_DLID_PATH_BITS];

    private VerbsLayout()
    {
    }

    /**
     * @param value a size.
     * @return the size rounded up to a multiple of 8, so that the next struct is aligned.
     */
    static int align8(final int value)
    {
        return (value + 7) & ~7;
    }
}
