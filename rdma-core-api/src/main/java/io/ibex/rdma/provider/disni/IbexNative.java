package io.ibex.rdma.provider.disni;

/**
 * ibex's own JNI class: every native call of the disni provider, implemented in the same library that serves
 * DiSNI's {@code NativeDispatcher} (sources in {@code src/main/c}; where both classes make a call, both
 * entry points share one C body). {@link NativeLibrary} loads the library; DiSNI's Java is not needed.
 *
 * <p>Each method is one C call and nothing more: handles are the C pointers as {@code long}, struct
 * contents cross as {@code long[]} in the order the index constants below name, and failures throw
 * {@link io.ibex.rdma.verbs.VerbsException} with the errno ({@link io.ibex.rdma.verbs.PostException} for
 * posts). The provider's Java checks handles, sizes and states before calling, so that misuse never reaches
 * C; the C still refuses a null handle or a short array with an exception rather than crashing.
 *
 * <p>The hot path (post, poll) passes structs by address: Java writes {@code struct ibv_send_wr} /
 * {@code ibv_recv_wr} images into a direct buffer and reads {@code struct ibv_wc} images back, at the offsets
 * the {@code *Layout()} methods report from the C headers, as DiSNI does, so a post or a poll is one JNI
 * call with no allocation.
 *
 * <p>One class, though over 500 lines: it only declares the native calls and the struct images' indexes, each with
 * its contract; the C side is split by concern ({@code ibex_device.c}, {@code ibex_qp.c}, {@code ibex_post.c}, ...).
 */
final class IbexNative
{
    /** The version {@link #version()} returns; bumped when any signature here changes. */
    static final int VERSION = 3;

    // ---- long[] indices for QP attributes (modifyQp) and AH attributes (createAh, cm UD events) ----
    /** ibv_qp_attr.qp_state. */
    static final int QP_STATE = 0;
    /** ibv_qp_attr.cur_qp_state. */
    static final int QP_CUR_STATE = 1;
    /** ibv_qp_attr.path_mtu (enum ibv_mtu). */
    static final int QP_PATH_MTU = 2;
    /** ibv_qp_attr.qkey. */
    static final int QP_QKEY = 3;
    /** ibv_qp_attr.rq_psn. */
    static final int QP_RQ_PSN = 4;
    /** ibv_qp_attr.sq_psn. */
    static final int QP_SQ_PSN = 5;
    /** ibv_qp_attr.dest_qp_num. */
    static final int QP_DEST_QP_NUM = 6;
    /** ibv_qp_attr.qp_access_flags. */
    static final int QP_ACCESS_FLAGS = 7;
    /** ibv_qp_attr.pkey_index. */
    static final int QP_PKEY_INDEX = 8;
    /** ibv_qp_attr.port_num. */
    static final int QP_PORT_NUM = 9;
    /** ibv_qp_attr.max_rd_atomic. */
    static final int QP_MAX_RD_ATOMIC = 10;
    /** ibv_qp_attr.max_dest_rd_atomic. */
    static final int QP_MAX_DEST_RD_ATOMIC = 11;
    /** ibv_qp_attr.min_rnr_timer. */
    static final int QP_MIN_RNR_TIMER = 12;
    /** ibv_qp_attr.timeout. */
    static final int QP_TIMEOUT = 13;
    /** ibv_qp_attr.retry_cnt. */
    static final int QP_RETRY_CNT = 14;
    /** ibv_qp_attr.rnr_retry. */
    static final int QP_RNR_RETRY = 15;
    /** Where the ah_attr fields (AH_*) start inside a QP attribute array: ibv_qp_attr.ah_attr. */
    static final int QP_AH = 16;
    /** Length of a QP attribute array: the QP fields, then the AH fields. */
    static final int QP_ATTR_LENGTH = QP_AH + 10;

    /** ibv_ah_attr.dlid (index relative to the start of the AH fields). */
    static final int AH_DLID = 0;
    /** ibv_ah_attr.sl. */
    static final int AH_SL = 1;
    /** ibv_ah_attr.src_path_bits. */
    static final int AH_SRC_PATH_BITS = 2;
    /** ibv_ah_attr.static_rate. */
    static final int AH_STATIC_RATE = 3;
    /** ibv_ah_attr.is_global (0 or 1); the GRH's dgid travels as a separate byte[16]. */
    static final int AH_IS_GLOBAL = 4;
    /** ibv_ah_attr.port_num. */
    static final int AH_PORT_NUM = 5;
    /** ibv_ah_attr.grh.flow_label. */
    static final int AH_FLOW_LABEL = 6;
    /** ibv_ah_attr.grh.sgid_index. */
    static final int AH_SGID_INDEX = 7;
    /** ibv_ah_attr.grh.hop_limit. */
    static final int AH_HOP_LIMIT = 8;
    /** ibv_ah_attr.grh.traffic_class. */
    static final int AH_TRAFFIC_CLASS = 9;
    /** Length of a stand-alone AH attribute array. */
    static final int AH_ATTR_LENGTH = 10;

    // ---- long[] indices for queryDevice (ibv_device_attr) and queryPort (ibv_port_attr) ----
    /** ibv_device_attr.node_guid (as in memory: network byte order read as a little-endian long). */
    static final int DEV_NODE_GUID = 0;
    /** ibv_device_attr.sys_image_guid (as node_guid). */
    static final int DEV_SYS_IMAGE_GUID = 1;
    /** ibv_device_attr.max_mr_size. */
    static final int DEV_MAX_MR_SIZE = 2;
    /** ibv_device_attr.page_size_cap. */
    static final int DEV_PAGE_SIZE_CAP = 3;
    /** ibv_device_attr.vendor_id. */
    static final int DEV_VENDOR_ID = 4;
    /** ibv_device_attr.vendor_part_id. */
    static final int DEV_VENDOR_PART_ID = 5;
    /** ibv_device_attr.hw_ver. */
    static final int DEV_HW_VER = 6;
    /** ibv_device_attr.max_qp. */
    static final int DEV_MAX_QP = 7;
    /** ibv_device_attr.max_qp_wr. */
    static final int DEV_MAX_QP_WR = 8;
    /** ibv_device_attr.device_cap_flags. */
    static final int DEV_DEVICE_CAP_FLAGS = 9;
    /** ibv_device_attr.max_sge. */
    static final int DEV_MAX_SGE = 10;
    /** ibv_device_attr.max_sge_rd. */
    static final int DEV_MAX_SGE_RD = 11;
    /** ibv_device_attr.max_cq. */
    static final int DEV_MAX_CQ = 12;
    /** ibv_device_attr.max_cqe. */
    static final int DEV_MAX_CQE = 13;
    /** ibv_device_attr.max_mr. */
    static final int DEV_MAX_MR = 14;
    /** ibv_device_attr.max_pd. */
    static final int DEV_MAX_PD = 15;
    /** ibv_device_attr.max_qp_rd_atom. */
    static final int DEV_MAX_QP_RD_ATOM = 16;
    /** ibv_device_attr.max_ee_rd_atom. */
    static final int DEV_MAX_EE_RD_ATOM = 17;
    /** ibv_device_attr.max_res_rd_atom. */
    static final int DEV_MAX_RES_RD_ATOM = 18;
    /** ibv_device_attr.max_qp_init_rd_atom. */
    static final int DEV_MAX_QP_INIT_RD_ATOM = 19;
    /** ibv_device_attr.max_ee_init_rd_atom. */
    static final int DEV_MAX_EE_INIT_RD_ATOM = 20;
    /** ibv_device_attr.atomic_cap (enum ibv_atomic_cap). */
    static final int DEV_ATOMIC_CAP = 21;
    /** ibv_device_attr.max_ee. */
    static final int DEV_MAX_EE = 22;
    /** ibv_device_attr.max_rdd. */
    static final int DEV_MAX_RDD = 23;
    /** ibv_device_attr.max_mw. */
    static final int DEV_MAX_MW = 24;
    /** ibv_device_attr.max_raw_ipv6_qp. */
    static final int DEV_MAX_RAW_IPV6_QP = 25;
    /** ibv_device_attr.max_raw_ethy_qp. */
    static final int DEV_MAX_RAW_ETHY_QP = 26;
    /** ibv_device_attr.max_mcast_grp. */
    static final int DEV_MAX_MCAST_GRP = 27;
    /** ibv_device_attr.max_mcast_qp_attach. */
    static final int DEV_MAX_MCAST_QP_ATTACH = 28;
    /** ibv_device_attr.max_total_mcast_qp_attach. */
    static final int DEV_MAX_TOTAL_MCAST_QP_ATTACH = 29;
    /** ibv_device_attr.max_ah. */
    static final int DEV_MAX_AH = 30;
    /** ibv_device_attr.max_fmr. */
    static final int DEV_MAX_FMR = 31;
    /** ibv_device_attr.max_map_per_fmr. */
    static final int DEV_MAX_MAP_PER_FMR = 32;
    /** ibv_device_attr.max_srq. */
    static final int DEV_MAX_SRQ = 33;
    /** ibv_device_attr.max_srq_wr. */
    static final int DEV_MAX_SRQ_WR = 34;
    /** ibv_device_attr.max_srq_sge. */
    static final int DEV_MAX_SRQ_SGE = 35;
    /** ibv_device_attr.max_pkeys. */
    static final int DEV_MAX_PKEYS = 36;
    /** ibv_device_attr.local_ca_ack_delay. */
    static final int DEV_LOCAL_CA_ACK_DELAY = 37;
    /** ibv_device_attr.phys_port_cnt. */
    static final int DEV_PHYS_PORT_CNT = 38;
    /** Length of the queryDevice() array. */
    static final int DEV_ATTR_LENGTH = 39;

    /** ibv_port_attr.state (enum ibv_port_state). */
    static final int PORT_STATE = 0;
    /** ibv_port_attr.max_mtu (enum ibv_mtu). */
    static final int PORT_MAX_MTU = 1;
    /** ibv_port_attr.active_mtu (enum ibv_mtu). */
    static final int PORT_ACTIVE_MTU = 2;
    /** ibv_port_attr.gid_tbl_len. */
    static final int PORT_GID_TBL_LEN = 3;
    /** ibv_port_attr.port_cap_flags. */
    static final int PORT_PORT_CAP_FLAGS = 4;
    /** ibv_port_attr.max_msg_sz. */
    static final int PORT_MAX_MSG_SZ = 5;
    /** ibv_port_attr.bad_pkey_cntr. */
    static final int PORT_BAD_PKEY_CNTR = 6;
    /** ibv_port_attr.qkey_viol_cntr. */
    static final int PORT_QKEY_VIOL_CNTR = 7;
    /** ibv_port_attr.pkey_tbl_len. */
    static final int PORT_PKEY_TBL_LEN = 8;
    /** ibv_port_attr.lid. */
    static final int PORT_LID = 9;
    /** ibv_port_attr.sm_lid. */
    static final int PORT_SM_LID = 10;
    /** ibv_port_attr.lmc. */
    static final int PORT_LMC = 11;
    /** ibv_port_attr.max_vl_num. */
    static final int PORT_MAX_VL_NUM = 12;
    /** ibv_port_attr.sm_sl. */
    static final int PORT_SM_SL = 13;
    /** ibv_port_attr.subnet_timeout. */
    static final int PORT_SUBNET_TIMEOUT = 14;
    /** ibv_port_attr.init_type_reply. */
    static final int PORT_INIT_TYPE_REPLY = 15;
    /** ibv_port_attr.active_width. */
    static final int PORT_ACTIVE_WIDTH = 16;
    /** ibv_port_attr.active_speed. */
    static final int PORT_ACTIVE_SPEED = 17;
    /** ibv_port_attr.phys_state. */
    static final int PORT_PHYS_STATE = 18;
    /** ibv_port_attr.link_layer (IBV_LINK_LAYER_*). */
    static final int PORT_LINK_LAYER = 19;
    /** ibv_port_attr.flags. */
    static final int PORT_FLAGS = 20;
    /** ibv_port_attr.port_cap_flags2. */
    static final int PORT_PORT_CAP_FLAGS2 = 21;
    /** Length of the queryPort() array. */
    static final int PORT_ATTR_LENGTH = 22;

    // ---- long[] indices for the connection manager's last event on a channel (cmEventDetails) ----
    /** rdma_cm_event.status (a negative errno, or a reject reason for REJECTED). */
    static final int CM_STATUS = 0;
    /** conn.responder_resources. */
    static final int CM_RESPONDER_RESOURCES = 1;
    /** conn.initiator_depth. */
    static final int CM_INITIATOR_DEPTH = 2;
    /** conn.retry_count. */
    static final int CM_RETRY_COUNT = 3;
    /** conn.rnr_retry_count. */
    static final int CM_RNR_RETRY_COUNT = 4;
    /** conn.qp_num, or ud.qp_num for UD events. */
    static final int CM_QP_NUM = 5;
    /** ud.qkey (UD events only, else 0). */
    static final int CM_QKEY = 6;
    /** 1 when the event carried UD parameters (ud.ah_attr is then at CM_AH). */
    static final int CM_IS_UD = 7;
    /** Where ud.ah_attr (AH_* fields) starts. */
    static final int CM_AH = 8;
    /** Length of a cm event detail array. */
    static final int CM_EVENT_LENGTH = CM_AH + AH_ATTR_LENGTH;

    // ---- long[] indices for rdma_conn_param (cmConnect, cmAccept) ----
    /** responder_resources. */
    static final int CONN_RESPONDER_RESOURCES = 0;
    /** initiator_depth. */
    static final int CONN_INITIATOR_DEPTH = 1;
    /** flow_control. */
    static final int CONN_FLOW_CONTROL = 2;
    /** retry_count. */
    static final int CONN_RETRY_COUNT = 3;
    /** rnr_retry_count. */
    static final int CONN_RNR_RETRY_COUNT = 4;
    /** srq. */
    static final int CONN_SRQ = 5;
    /** qp_num (0: librdmacm takes it from the id's QP). */
    static final int CONN_QP_NUM = 6;
    /** Length of a connection parameter array. */
    static final int CONN_LENGTH = 7;

    // ---- int[] from the layout methods ----
    /** sendWrLayout(): sizeof(struct ibv_send_wr), then the offsets named below, then the SGE's. */
    static final int SWR_SIZE = 0;
    /** offsetof wr_id. */
    static final int SWR_WR_ID = 1;
    /** offsetof next. */
    static final int SWR_NEXT = 2;
    /** offsetof sg_list. */
    static final int SWR_SG_LIST = 3;
    /** offsetof num_sge. */
    static final int SWR_NUM_SGE = 4;
    /** offsetof opcode. */
    static final int SWR_OPCODE = 5;
    /** offsetof send_flags. */
    static final int SWR_SEND_FLAGS = 6;
    /** offsetof imm_data (network byte order in C). */
    static final int SWR_IMM_DATA = 7;
    /** offsetof wr.rdma.remote_addr. */
    static final int SWR_RDMA_REMOTE_ADDR = 8;
    /** offsetof wr.rdma.rkey. */
    static final int SWR_RDMA_RKEY = 9;
    /** offsetof wr.atomic.remote_addr. */
    static final int SWR_ATOMIC_REMOTE_ADDR = 10;
    /** offsetof wr.atomic.compare_add. */
    static final int SWR_ATOMIC_COMPARE_ADD = 11;
    /** offsetof wr.atomic.swap. */
    static final int SWR_ATOMIC_SWAP = 12;
    /** offsetof wr.atomic.rkey. */
    static final int SWR_ATOMIC_RKEY = 13;
    /** offsetof wr.ud.ah. */
    static final int SWR_UD_AH = 14;
    /** offsetof wr.ud.remote_qpn. */
    static final int SWR_UD_REMOTE_QPN = 15;
    /** offsetof wr.ud.remote_qkey. */
    static final int SWR_UD_REMOTE_QKEY = 16;
    /** sizeof(struct ibv_sge). */
    static final int SGE_SIZE = 17;
    /** offsetof ibv_sge.addr. */
    static final int SGE_ADDR = 18;
    /** offsetof ibv_sge.length. */
    static final int SGE_LENGTH = 19;
    /** offsetof ibv_sge.lkey. */
    static final int SGE_LKEY = 20;
    /** Length of the sendWrLayout() array. */
    static final int SWR_LAYOUT_LENGTH = 21;

    /** recvWrLayout(): sizeof(struct ibv_recv_wr). */
    static final int RWR_SIZE = 0;
    /** offsetof wr_id. */
    static final int RWR_WR_ID = 1;
    /** offsetof next. */
    static final int RWR_NEXT = 2;
    /** offsetof sg_list. */
    static final int RWR_SG_LIST = 3;
    /** offsetof num_sge. */
    static final int RWR_NUM_SGE = 4;
    /** Length of the recvWrLayout() array. */
    static final int RWR_LAYOUT_LENGTH = 5;

    /** wcLayout(): sizeof(struct ibv_wc). */
    static final int WC_SIZE = 0;
    /** offsetof wr_id. */
    static final int WC_WR_ID = 1;
    /** offsetof status. */
    static final int WC_STATUS = 2;
    /** offsetof opcode. */
    static final int WC_OPCODE = 3;
    /** offsetof vendor_err. */
    static final int WC_VENDOR_ERR = 4;
    /** offsetof byte_len. */
    static final int WC_BYTE_LEN = 5;
    /** offsetof imm_data. */
    static final int WC_IMM_DATA = 6;
    /** offsetof qp_num. */
    static final int WC_QP_NUM = 7;
    /** offsetof src_qp. */
    static final int WC_SRC_QP = 8;
    /** offsetof wc_flags. */
    static final int WC_WC_FLAGS = 9;
    /** offsetof pkey_index. */
    static final int WC_PKEY_INDEX = 10;
    /** offsetof slid. */
    static final int WC_SLID = 11;
    /** offsetof sl. */
    static final int WC_SL = 12;
    /** offsetof dlid_path_bits. */
    static final int WC_DLID_PATH_BITS = 13;
    /** Length of the wcLayout() array. */
    static final int WC_LAYOUT_LENGTH = 14;

    private IbexNative()
    {
    }

    /** @return {@link #VERSION} of the loaded library; the provider refuses a mismatch. */
    static native int version();

    /** @return the ibex version the library was built from; the provider refuses one other than its own. */
    static native String projectVersion();

    // ---- protection domains, memory regions, completion channels ----

    /**
     * @param context an ibv_context*.
     * @return ibv_alloc_pd: the ibv_pd*.
     */
    static native long allocPd(long context);

    /**
     * @param pd an ibv_pd*; ibv_dealloc_pd fails (EBUSY) while MRs, QPs or AHs use it.
     */
    static native void deallocPd(long pd);

    /**
     * ibv_reg_mr.
     *
     * @param pd      an ibv_pd*.
     * @param address the first byte.
     * @param length  the length in bytes.
     * @param access  enum ibv_access_flags bits.
     * @param keys    receives the lkey [0] and the rkey [1].
     * @return the ibv_mr*.
     */
    static native long regMr(long pd, long address, long length, int access, int[] keys);

    /**
     * @param mr an ibv_mr*, deregistered.
     */
    static native void deregMr(long mr);

    /**
     * @param context an ibv_context*.
     * @return ibv_create_comp_channel, its fd made non-blocking: the ibv_comp_channel*.
     */
    static native long createCompChannel(long context);

    /**
     * @param channel an ibv_comp_channel*; fails (EBUSY) while CQs use it.
     */
    static native void destroyCompChannel(long channel);

    // ---- rdma_cm event channels and ids ----

    /** @return a new event channel (non-blocking fd, with a copy of its last event's details). */
    static native long cmCreateEventChannel();

    /** @param channel an event channel; refused (EINVAL) while ids report on it. */
    static native void cmDestroyEventChannel(long channel);

    /**
     * Waits for one event, keeps a copy of its details (for {@link #cmEventDetails}) and acks it.
     *
     * @param channel   an event channel.
     * @param timeoutMs the longest wait.
     * @param ids       receives the listening id [0] (CONNECT_REQUEST only, else 0) and the event's id [1].
     * @return enum rdma_cm_event_type, or -1 when no event came in time.
     */
    static native int cmGetEvent(long channel, int timeoutMs, long[] ids);

    /**
     * @param cmId an rdma_cm_id*.
     * @param ip   4 bytes of an IPv4 address.
     * @param port the port (0: any).
     */
    static native void cmBindAddr(long cmId, byte[] ip, int port);

    /**
     * @param cmId    an rdma_cm_id*, bound.
     * @param backlog rdma_listen's backlog.
     */
    static native void cmListen(long cmId, int backlog);

    /**
     * rdma_resolve_addr with no source address (bind first to choose one).
     *
     * @param cmId      an rdma_cm_id*.
     * @param ip        4 bytes of the destination's IPv4 address.
     * @param port      the destination port.
     * @param timeoutMs the resolution timeout.
     */
    static native void cmResolveAddr(long cmId, byte[] ip, int port, int timeoutMs);

    /**
     * @param cmId      an rdma_cm_id* with a device.
     * @param timeoutMs the resolution timeout.
     */
    static native void cmResolveRoute(long cmId, int timeoutMs);

    /** @param cmId an rdma_cm_id* with a device. */
    static native void cmDisconnect(long cmId);

    /** @param cmId an rdma_cm_id*, destroyed with the QP left on it. */
    static native void cmDestroyId(long cmId);

    /**
     * @param cmId an rdma_cm_id*.
     * @return its ibv_context*, 0 while it has no device.
     */
    static native long cmContext(long cmId);

    // ---- devices (librdmacm's rdma_get_devices: the same ibv_context pointers rdma_cm ids report) ----

    /**
     * rdma_get_devices. On a machine without RDMA devices librdmacm fails rather than listing none: that
     * throws VerbsException(ENODEV), as on a host without Soft-RoCE.
     *
     * @return the open contexts of all RDMA devices, in rdma_get_devices order (kept open for the process).
     */
    static native long[] contexts();

    /**
     * @param context an ibv_context*.
     * @return ibv_get_device_name(context-&gt;device).
     */
    static native String deviceName(long context);

    /**
     * @param context an ibv_context*.
     * @return context-&gt;device-&gt;transport_type (enum ibv_transport_type, -1 IBV_TRANSPORT_UNKNOWN).
     */
    static native int transportType(long context);

    /**
     * @param context an ibv_context*.
     * @return ibv_device_attr.fw_ver.
     */
    static native String firmwareVersion(long context);

    /**
     * @param context an ibv_context*.
     * @return ibv_query_device: DEV_ATTR_LENGTH values at the DEV_* indices, the numeric members of struct
     *         ibv_device_attr in declaration order (fw_ver omitted, GUIDs as in memory i.e. network byte order
     *         read as a little-endian long).
     */
    static native long[] queryDevice(long context);

    /**
     * @param context an ibv_context*.
     * @param port    port number, from 1.
     * @return ibv_query_port: PORT_ATTR_LENGTH values at the PORT_* indices, the members of struct
     *         ibv_port_attr in declaration order.
     */
    static native long[] queryPort(long context, int port);

    /**
     * @param context an ibv_context*.
     * @param port    port number.
     * @param index   GID index.
     * @return the 16 raw bytes of ibv_query_gid.
     */
    static native byte[] queryGid(long context, int port, int index);

    /**
     * @param context an ibv_context*.
     * @param port    port number.
     * @param index   GID index.
     * @return the entry's type from ibv_query_gid_ex (rdma-core 44 has no public ibv_query_gid_type): enum
     *         ibv_gid_type, 0 IB, 1 RoCE v1, 2 RoCE v2.
     */
    static native int queryGidType(long context, int port, int index);

    /**
     * Waits for one async event with poll(2) on the context's async fd, then gets and acks it. The fd is made
     * non-blocking on first use, so that a thread never blocks on an event another thread took.
     *
     * @param context   an ibv_context*.
     * @param timeoutMs poll timeout, -1 forever.
     * @param out       out[0] = the element: qp_num for QP events, the ibv_cq* for CQ events, the ibv_srq* or
     *                  ibv_wq* for SRQ and WQ events, the port for port events, 0 for IBV_EVENT_DEVICE_FATAL.
     * @return enum ibv_event_type, or -1 on timeout (also when a signal interrupted the wait or another thread
     *         took the event).
     */
    static native int getAsyncEvent(long context, int timeoutMs, long[] out);

    // ---- completion queues (a CQ without a channel, which DiSNI cannot create) ----

    /**
     * @param context ibv_context*.
     * @param channel ibv_comp_channel*, or 0 for none.
     * @param cqe     minimum entries.
     * @param vector  completion vector.
     * @return ibv_cq*.
     */
    static native long createCq(long context, long channel, int cqe, int vector);

    /**
     * @param cq ibv_cq*.
     * @return the cqe the CQ really has (ibv_cq.cqe).
     */
    static native int cqEntries(long cq);

    /**
     * ibv_poll_cq into {@code wcAddress} (n structs of wcLayout()[WC_SIZE]).
     *
     * @param cq        ibv_cq*.
     * @param n         maximum completions.
     * @param wcAddress address of a direct buffer of n ibv_wc.
     * @return completions written.
     */
    static native int pollCq(long cq, int n, long wcAddress);

    /**
     * @param cq            ibv_cq*.
     * @param solicitedOnly ibv_req_notify_cq's solicited_only.
     */
    static native void reqNotifyCq(long cq, boolean solicitedOnly);

    /**
     * Waits for a completion event with poll(2) on the channel's fd, gets it and acks it.
     *
     * @param channel   ibv_comp_channel* from createCompChannel (whose fd is non-blocking).
     * @param timeoutMs poll timeout, -1 forever.
     * @return the ibv_cq* the event is for, or 0 on timeout (also when a signal interrupted the wait or
     *         another thread took the event: the channel's fd is non-blocking).
     */
    static native long getCqEvent(long channel, int timeoutMs);

    /**
     * @param cq ibv_cq*, destroyed with ibv_destroy_cq.
     */
    static native void destroyCq(long cq);

    // ---- queue pairs ----

    /**
     * ibv_create_qp, or rdma_create_qp when {@code cmId} is not 0 (the QP is then {@code id->qp}). The id must
     * be live and have a device, and the PD be on that device (librdmacm refuses another with EINVAL);
     * rdma_create_qp moves the new QP on at once: a connected QP to INIT (as the guest tests show), a UD QP
     * to RTS.
     *
     * @param cmId     rdma_cm_id*, or 0 for a QP set up out of band.
     * @param pd       ibv_pd*.
     * @param sendCq   ibv_cq*.
     * @param recvCq   ibv_cq*.
     * @param qpType   enum ibv_qp_type (2 RC, 3 UC, 4 UD).
     * @param caps     5 values, in: max_send_wr, max_recv_wr, max_send_sge, max_recv_sge, max_inline_data;
     *                 out: the capabilities the device granted, same order.
     * @param sqSigAll sq_sig_all.
     * @return ibv_qp*.
     */
    static native long createQp(long cmId, long pd, long sendCq, long recvCq, int qpType, int[] caps,
        boolean sqSigAll);

    /**
     * @param qp ibv_qp*.
     * @return qp-&gt;qp_num.
     */
    static native int qpNum(long qp);

    /**
     * ibv_modify_qp.
     *
     * @param qp   ibv_qp*.
     * @param mask enum ibv_qp_attr_mask bits.
     * @param attr QP_ATTR_LENGTH values at the QP_* and QP_AH + AH_* indices.
     * @param dgid ah_attr.grh.dgid (16 bytes).
     */
    static native void modifyQp(long qp, int mask, long[] attr, byte[] dgid);

    /**
     * @param qp ibv_qp*: ibv_query_qp(IBV_QP_STATE).
     * @return enum ibv_qp_state.
     */
    static native int queryQpState(long qp);

    /**
     * ibv_query_qp of every field but the address vector.
     *
     * @param qp     ibv_qp*.
     * @param values receives the QP fields, QP_STATE to QP_RNR_RETRY (at least QP_AH long).
     */
    static native void queryQp(long qp, long[] values);

    /**
     * ibv_destroy_qp, or rdma_destroy_qp when {@code cmId} is not 0; with an id, a {@code qp} that is not
     * {@code id->qp} (another QP, or one destroyed already) throws VerbsException(EINVAL).
     *
     * @param cmId rdma_cm_id* the QP was created on, or 0.
     * @param qp   ibv_qp*.
     */
    static native void destroyQp(long cmId, long qp);

    /** @return sendWrLayout: SWR_LAYOUT_LENGTH sizes and offsets from the C headers. */
    static native int[] sendWrLayout();

    /** @return recvWrLayout: RWR_LAYOUT_LENGTH sizes and offsets. */
    static native int[] recvWrLayout();

    /** @return wcLayout: WC_LAYOUT_LENGTH sizes and offsets. */
    static native int[] wcLayout();

    /**
     * ibv_post_send of the list starting at {@code wrAddress}. On failure throws PostException with the
     * errno and the index of bad_wr in the list.
     *
     * @param qp        ibv_qp*.
     * @param wrAddress address of the first struct ibv_send_wr.
     */
    static native void postSend(long qp, long wrAddress);

    /**
     * ibv_post_recv, as {@link #postSend}.
     *
     * @param qp        ibv_qp*.
     * @param wrAddress address of the first struct ibv_recv_wr.
     */
    static native void postRecv(long qp, long wrAddress);

    // ---- address handles ----

    /**
     * ibv_create_ah.
     *
     * @param pd   ibv_pd*.
     * @param ah   AH_ATTR_LENGTH values at the AH_* indices.
     * @param dgid grh.dgid (16 bytes).
     * @return ibv_ah*.
     */
    static native long createAh(long pd, long[] ah, byte[] dgid);

    /**
     * @param ah ibv_ah*, destroyed.
     */
    static native void destroyAh(long ah);

    // ---- rdma_cm connection calls (the channel handle is one cmCreateEventChannel returned) ----

    /**
     * rdma_create_id honouring the port space (DiSNI's {@code _createId} does too, in this library).
     *
     * <p>librdmacm 44 exports no rdma_create_id2, and rdma_create_id types the kernel id from the port space
     * alone: UD for RDMA_PS_UDP and RDMA_PS_IPOIB, RC for RDMA_PS_TCP and RDMA_PS_IB. {@code qpType} must be
     * that type, with one exception: RDMA_PS_IB with IBV_QPT_UC is accepted and gives an RC-typed id. UC over
     * rdma_cm is therefore NOT supported: such an id binds, resolves address and route (device, port, GIDs) and
     * can own a UC QP made by {@link #createQp}, but rdma_cm moves that QP with RC attributes, which a UC QP
     * refuses (rdma_accept fails with EINVAL, as the guest tests show); connect a UC QP out of band with
     * {@link #modifyQp}. Any other
     * combination throws VerbsException(EINVAL).
     *
     * @param channel   event channel handle.
     * @param portSpace enum rdma_port_space.
     * @param qpType    enum ibv_qp_type: the type the port space implies, or IBV_QPT_UC with RDMA_PS_IB.
     * @return rdma_cm_id*.
     */
    static native long cmCreateId(long channel, int portSpace, int qpType);

    /**
     * What the last event {@link #cmGetEvent} returned on this channel carried (the native keeps a copy
     * because it acks at once). UD parameters come with CONNECT_REQUEST, ESTABLISHED and
     * MULTICAST_JOIN on ids of the UDP or IPoIB port space; every other event carries conn parameters. Throws
     * VerbsException(EINVAL) before the channel's first event.
     *
     * @param channel     event channel handle.
     * @param out         CM_EVENT_LENGTH values at the CM_* indices (AH fields at CM_AH).
     * @param dgid        the UD ah_attr's dgid (16 bytes), written when CM_IS_UD.
     * @param privateData receives the private data (at most 255 bytes; what does not fit is dropped).
     * @return the private data length the event carried (for IB/RoCE the CM message's whole private data
     *         field, so it may exceed what the peer passed).
     */
    static native int cmEventDetails(long channel, long[] out, byte[] dgid, byte[] privateData);

    /**
     * rdma_connect with all of rdma_conn_param.
     *
     * @param cmId        rdma_cm_id*.
     * @param param       CONN_LENGTH values at the CONN_* indices.
     * @param privateData private data, or null.
     */
    static native void cmConnect(long cmId, long[] param, byte[] privateData);

    /**
     * rdma_accept with all of rdma_conn_param (DiSNI passes no private data on accept).
     *
     * @param cmId        rdma_cm_id*.
     * @param param       CONN_LENGTH values.
     * @param privateData private data, or null.
     */
    static native void cmAccept(long cmId, long[] param, byte[] privateData);

    /**
     * rdma_reject.
     *
     * @param cmId        rdma_cm_id*.
     * @param privateData private data, or null.
     */
    static native void cmReject(long cmId, byte[] privateData);

    /**
     * @param cmId rdma_cm_id*.
     * @return id-&gt;port_num.
     */
    static native int cmPortNum(long cmId);

    /**
     * @param cmId   rdma_cm_id*.
     * @param remote the destination (rdma_get_peer_addr) rather than the source (rdma_get_local_addr).
     * @return the sockaddr bytes: family (2 bytes, host order), port (2 bytes, network order), then 4 or 16
     *         address bytes; empty when unset.
     */
    static native byte[] cmAddress(long cmId, boolean remote);
}
