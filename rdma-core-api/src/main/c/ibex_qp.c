/*
 * IbexNative's queue pairs: created on a PD (out of band) or on an rdma_cm id, moved through their states
 * with every ibv_qp_attr field IbexNative names (the address vector included), queried (the state alone, or
 * every field but the address vector), destroyed.
 */
#include "ibex_native.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* IbexNative.createQp's caps: in the order of struct ibv_qp_cap. */
enum
{
    CAP_MAX_SEND_WR, CAP_MAX_RECV_WR, CAP_MAX_SEND_SGE, CAP_MAX_RECV_SGE, CAP_MAX_INLINE_DATA, CAP_LENGTH
};

JNIEXPORT jlong JNICALL IBEX(createQp)(JNIEnv *env, jclass cls UNUSED, jlong cm_id, jlong pd, jlong send_cq,
    jlong recv_cq, jint qp_type, jintArray caps, jboolean sq_sig_all)
{
    struct ibv_qp_init_attr init;
    struct ibv_qp *qp;
    jint cap[CAP_LENGTH];
    struct rdma_cm_id *id = NULL;

    if (ibex_null_verbs(env, pd, "createQp: pd") || ibex_null_verbs(env, send_cq, "createQp: send CQ")
        || ibex_null_verbs(env, recv_cq, "createQp: receive CQ")
        || ibex_short_array(env, caps, CAP_LENGTH, "createQp: caps")) {
        return 0;
    }
    if (cm_id != 0 && (id = ibex_cm_id(env, cm_id, 1, "createQp")) == NULL) {
        return 0;
    }
    (*env)->GetIntArrayRegion(env, caps, 0, CAP_LENGTH, cap);
    memset(&init, 0, sizeof(init));
    init.send_cq = PTR(struct ibv_cq, send_cq);
    init.recv_cq = PTR(struct ibv_cq, recv_cq);
    init.qp_type = (enum ibv_qp_type)qp_type;
    init.sq_sig_all = sq_sig_all ? 1 : 0;
    init.cap.max_send_wr = (uint32_t)cap[CAP_MAX_SEND_WR];
    init.cap.max_recv_wr = (uint32_t)cap[CAP_MAX_RECV_WR];
    init.cap.max_send_sge = (uint32_t)cap[CAP_MAX_SEND_SGE];
    init.cap.max_recv_sge = (uint32_t)cap[CAP_MAX_RECV_SGE];
    init.cap.max_inline_data = (uint32_t)cap[CAP_MAX_INLINE_DATA];
    if (id != NULL) {
        /* rdma_create_qp refuses a PD of another device itself (EINVAL) and copies the granted caps back. */
        qp = rdma_create_qp(id, PTR(struct ibv_pd, pd), &init) == 0 ? id->qp : NULL;
    } else {
        qp = ibv_create_qp(PTR(struct ibv_pd, pd), &init);
    }
    if (qp == NULL) {
        char what[160];

        snprintf(what, sizeof(what), "createQp: %s (type %d, send %d x %d SGEs, receive %d x %d SGEs, inline %d)",
            id != NULL ? "rdma_create_qp" : "ibv_create_qp", qp_type, cap[CAP_MAX_SEND_WR], cap[CAP_MAX_SEND_SGE],
            cap[CAP_MAX_RECV_WR], cap[CAP_MAX_RECV_SGE], cap[CAP_MAX_INLINE_DATA]);
        ibex_throw_verbs(env, what, errno);
        return 0;
    }
    cap[CAP_MAX_SEND_WR] = (jint)init.cap.max_send_wr;
    cap[CAP_MAX_RECV_WR] = (jint)init.cap.max_recv_wr;
    cap[CAP_MAX_SEND_SGE] = (jint)init.cap.max_send_sge;
    cap[CAP_MAX_RECV_SGE] = (jint)init.cap.max_recv_sge;
    cap[CAP_MAX_INLINE_DATA] = (jint)init.cap.max_inline_data;
    (*env)->SetIntArrayRegion(env, caps, 0, CAP_LENGTH, cap);
    return HANDLE(qp);
}

JNIEXPORT jint JNICALL IBEX(qpNum)(JNIEnv *env, jclass cls UNUSED, jlong qp)
{
    return ibex_null_verbs(env, qp, "qpNum: qp") ? -1 : (jint)PTR(struct ibv_qp, qp)->qp_num;
}

JNIEXPORT void JNICALL IBEX(modifyQp)(JNIEnv *env, jclass cls UNUSED, jlong qp, jint mask, jlongArray values,
    jbyteArray dgid)
{
    struct ibv_qp_attr attr;
    jlong v[QP_ATTR_LENGTH];
    jbyte gid[16];
    int ret;

    if (ibex_null_verbs(env, qp, "modifyQp: qp") || ibex_short_array(env, values, QP_ATTR_LENGTH, "modifyQp: attr")
        || ibex_short_array(env, dgid, sizeof(gid), "modifyQp: dgid")) {
        return;
    }
    (*env)->GetLongArrayRegion(env, values, 0, QP_ATTR_LENGTH, v);
    (*env)->GetByteArrayRegion(env, dgid, 0, sizeof(gid), gid);
    memset(&attr, 0, sizeof(attr));
    attr.qp_state = (enum ibv_qp_state)v[QP_STATE];
    attr.cur_qp_state = (enum ibv_qp_state)v[QP_CUR_STATE];
    attr.path_mtu = (enum ibv_mtu)v[QP_PATH_MTU];
    attr.qkey = (uint32_t)v[QP_QKEY];
    attr.rq_psn = (uint32_t)v[QP_RQ_PSN];
    attr.sq_psn = (uint32_t)v[QP_SQ_PSN];
    attr.dest_qp_num = (uint32_t)v[QP_DEST_QP_NUM];
    attr.qp_access_flags = (unsigned int)v[QP_ACCESS_FLAGS];
    attr.pkey_index = (uint16_t)v[QP_PKEY_INDEX];
    attr.port_num = (uint8_t)v[QP_PORT_NUM];
    attr.max_rd_atomic = (uint8_t)v[QP_MAX_RD_ATOMIC];
    attr.max_dest_rd_atomic = (uint8_t)v[QP_MAX_DEST_RD_ATOMIC];
    attr.min_rnr_timer = (uint8_t)v[QP_MIN_RNR_TIMER];
    attr.timeout = (uint8_t)v[QP_TIMEOUT];
    attr.retry_cnt = (uint8_t)v[QP_RETRY_CNT];
    attr.rnr_retry = (uint8_t)v[QP_RNR_RETRY];
    ibex_ah_attr(&attr.ah_attr, v + QP_AH, gid);
    ret = ibv_modify_qp(PTR(struct ibv_qp, qp), &attr, mask);
    if (ret != 0) {
        char what[96];

        snprintf(what, sizeof(what), "modifyQp: ibv_modify_qp (QP 0x%x, mask 0x%x, to state %d)",
            PTR(struct ibv_qp, qp)->qp_num, (unsigned)mask, (int)attr.qp_state);
        ibex_throw_verbs(env, what, ret);
    }
}

JNIEXPORT jint JNICALL IBEX(queryQpState)(JNIEnv *env, jclass cls UNUSED, jlong qp)
{
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    int ret;

    if (ibex_null_verbs(env, qp, "queryQpState: qp")) {
        return -1;
    }
    ret = ibv_query_qp(PTR(struct ibv_qp, qp), &attr, IBV_QP_STATE, &init);
    return ret == 0 ? (jint)attr.qp_state : ibex_throw_verbs(env, "queryQpState: ibv_query_qp", ret);
}

JNIEXPORT void JNICALL IBEX(queryQp)(JNIEnv *env, jclass cls UNUSED, jlong qp, jlongArray values)
{
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    jlong v[QP_AH];
    int ret;

    if (ibex_null_verbs(env, qp, "queryQp: qp") || ibex_short_array(env, values, QP_AH, "queryQp: attr")) {
        return;
    }
    memset(&attr, 0, sizeof(attr));
    ret = ibv_query_qp(PTR(struct ibv_qp, qp), &attr, IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_PATH_MTU
        | IBV_QP_QKEY | IBV_QP_RQ_PSN | IBV_QP_SQ_PSN | IBV_QP_DEST_QPN | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX
        | IBV_QP_PORT | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER | IBV_QP_TIMEOUT
        | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY, &init);
    if (ret != 0) {
        ibex_throw_verbs(env, "queryQp: ibv_query_qp", ret);
        return;
    }
    v[QP_STATE] = attr.qp_state;
    v[QP_CUR_STATE] = attr.cur_qp_state;
    v[QP_PATH_MTU] = attr.path_mtu;
    v[QP_QKEY] = attr.qkey;
    v[QP_RQ_PSN] = attr.rq_psn;
    v[QP_SQ_PSN] = attr.sq_psn;
    v[QP_DEST_QP_NUM] = attr.dest_qp_num;
    v[QP_ACCESS_FLAGS] = attr.qp_access_flags;
    v[QP_PKEY_INDEX] = attr.pkey_index;
    v[QP_PORT_NUM] = attr.port_num;
    v[QP_MAX_RD_ATOMIC] = attr.max_rd_atomic;
    v[QP_MAX_DEST_RD_ATOMIC] = attr.max_dest_rd_atomic;
    v[QP_MIN_RNR_TIMER] = attr.min_rnr_timer;
    v[QP_TIMEOUT] = attr.timeout;
    v[QP_RETRY_CNT] = attr.retry_cnt;
    v[QP_RNR_RETRY] = attr.rnr_retry;
    (*env)->SetLongArrayRegion(env, values, 0, QP_AH, v);
}

JNIEXPORT void JNICALL IBEX(destroyQp)(JNIEnv *env, jclass cls UNUSED, jlong cm_id, jlong qp)
{
    struct rdma_cm_id *id;
    int ret;

    if (ibex_null_verbs(env, qp, "destroyQp: qp")) {
        return;
    }
    if (cm_id == 0) {
        ret = ibv_destroy_qp(PTR(struct ibv_qp, qp));
        if (ret != 0) {
            ibex_throw_verbs(env, "destroyQp: ibv_destroy_qp", ret);
        }
        return;
    }
    id = ibex_cm_id(env, cm_id, 0, "destroyQp");
    if (id != NULL && id->qp != PTR(struct ibv_qp, qp)) {
        ibex_throw_verbs(env, "destroyQp: the QP is not the rdma_cm id's (destroyed already?)", EINVAL);
    } else if (id != NULL) {
        rdma_destroy_qp(id); /* void: librdmacm ignores ibv_destroy_qp's result, and clears id->qp */
    }
}
