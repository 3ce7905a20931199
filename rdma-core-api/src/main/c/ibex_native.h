/*
 * Shared by the C files behind ibex's own JNI class io.ibex.rdma.provider.disni.IbexNative (ibex_*.c): the
 * entry point macro, the indices of its long[] and int[] arrays (IbexNative.java names the same values), and
 * argument checks that throw VerbsException.
 */
#ifndef IBEX_NATIVE_H
#define IBEX_NATIVE_H

#include "disni_native.h"

/* IbexNative.VERSION: bumped with every signature change there. */
#define IBEX_NATIVE_VERSION 3

/* The ibex version the library was built from (build.sh passes it); IbexNative.projectVersion returns it. */
#ifndef IBEX_PROJECT_VERSION
#define IBEX_PROJECT_VERSION "unknown"
#endif

/* A JNI entry point of IbexNative: IBEX(qpNum) names IbexNative.qpNum. */
#define IBEX(name) Java_io_ibex_rdma_provider_disni_IbexNative_##name

/* ibv_ah_attr, stand-alone or inside a QP attribute or cm event array. */
enum
{
    AH_DLID, AH_SL, AH_SRC_PATH_BITS, AH_STATIC_RATE, AH_IS_GLOBAL, AH_PORT_NUM, AH_FLOW_LABEL, AH_SGID_INDEX,
    AH_HOP_LIMIT, AH_TRAFFIC_CLASS, AH_ATTR_LENGTH
};

/* ibv_qp_attr (modifyQp). */
enum
{
    QP_STATE, QP_CUR_STATE, QP_PATH_MTU, QP_QKEY, QP_RQ_PSN, QP_SQ_PSN, QP_DEST_QP_NUM, QP_ACCESS_FLAGS,
    QP_PKEY_INDEX, QP_PORT_NUM, QP_MAX_RD_ATOMIC, QP_MAX_DEST_RD_ATOMIC, QP_MIN_RNR_TIMER, QP_TIMEOUT,
    QP_RETRY_CNT, QP_RNR_RETRY, QP_AH, QP_ATTR_LENGTH = QP_AH + AH_ATTR_LENGTH
};

/* ibv_device_attr (queryDevice): its numeric members in declaration order, fw_ver left out. */
enum
{
    DEV_NODE_GUID, DEV_SYS_IMAGE_GUID, DEV_MAX_MR_SIZE, DEV_PAGE_SIZE_CAP, DEV_VENDOR_ID, DEV_VENDOR_PART_ID,
    DEV_HW_VER, DEV_MAX_QP, DEV_MAX_QP_WR, DEV_DEVICE_CAP_FLAGS, DEV_MAX_SGE, DEV_MAX_SGE_RD, DEV_MAX_CQ,
    DEV_MAX_CQE, DEV_MAX_MR, DEV_MAX_PD, DEV_MAX_QP_RD_ATOM, DEV_MAX_EE_RD_ATOM, DEV_MAX_RES_RD_ATOM,
    DEV_MAX_QP_INIT_RD_ATOM, DEV_MAX_EE_INIT_RD_ATOM, DEV_ATOMIC_CAP, DEV_MAX_EE, DEV_MAX_RDD, DEV_MAX_MW,
    DEV_MAX_RAW_IPV6_QP, DEV_MAX_RAW_ETHY_QP, DEV_MAX_MCAST_GRP, DEV_MAX_MCAST_QP_ATTACH,
    DEV_MAX_TOTAL_MCAST_QP_ATTACH, DEV_MAX_AH, DEV_MAX_FMR, DEV_MAX_MAP_PER_FMR, DEV_MAX_SRQ, DEV_MAX_SRQ_WR,
    DEV_MAX_SRQ_SGE, DEV_MAX_PKEYS, DEV_LOCAL_CA_ACK_DELAY, DEV_PHYS_PORT_CNT, DEV_ATTR_LENGTH
};

/* ibv_port_attr (queryPort): its members in declaration order. */
enum
{
    PORT_STATE, PORT_MAX_MTU, PORT_ACTIVE_MTU, PORT_GID_TBL_LEN, PORT_PORT_CAP_FLAGS, PORT_MAX_MSG_SZ,
    PORT_BAD_PKEY_CNTR, PORT_QKEY_VIOL_CNTR, PORT_PKEY_TBL_LEN, PORT_LID, PORT_SM_LID, PORT_LMC, PORT_MAX_VL_NUM,
    PORT_SM_SL, PORT_SUBNET_TIMEOUT, PORT_INIT_TYPE_REPLY, PORT_ACTIVE_WIDTH, PORT_ACTIVE_SPEED, PORT_PHYS_STATE,
    PORT_LINK_LAYER, PORT_FLAGS, PORT_PORT_CAP_FLAGS2, PORT_ATTR_LENGTH
};

/*
 * The rdma_cm id behind handle, or NULL after throwing VerbsException(EINVAL, "<what>: <reason>") when
 * cm_id_unusable names a reason (null, not live, or no device yet when need_device).
 */
struct rdma_cm_id *ibex_cm_id(JNIEnv *env, jlong handle, int need_device, const char *what);

/* Nonzero (after throwing VerbsException(EINVAL)) when array is null or shorter than length. */
int ibex_short_array(JNIEnv *env, jarray array, jsize length, const char *what);

/* Writes the AH_ATTR_LENGTH values of ah to out. */
void ibex_ah_values(jlong *out, const struct ibv_ah_attr *ah);

/* Fills ah from AH_ATTR_LENGTH values and the 16 bytes of the GRH's dgid. */
void ibex_ah_attr(struct ibv_ah_attr *ah, const jlong *values, const jbyte *dgid);

#endif
