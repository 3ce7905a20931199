/*
 * DiSNI's verbs natives: CQ, QP modification, post, poll, notification and the getters (PD, MR and
 * completion channel: ibex_pd.c). Every handle is checked for null (an IOException, never a crash); post and poll do nothing else,
 * so the data path costs one JNI call and no allocation.
 */
#include "disni_native.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

JNIEXPORT jlong JNICALL DISNI(createCQ)(JNIEnv *env, jobject self UNUSED, jlong context, jlong channel, jint cqe,
    jint vector)
{
    struct ibv_cq *cq;

    if (ibex_null_handle(env, context, "ibv_create_cq: context")) {
        return -1;
    }
    cq = ibv_create_cq(PTR(struct ibv_context, context), cqe, NULL, PTR(struct ibv_comp_channel, channel), vector);
    if (cq == NULL) {
        char what[64];

        snprintf(what, sizeof(what), "ibv_create_cq (cqe %d, vector %d)", cqe, vector);
        ibex_throw_io(env, what, errno);
        return -1;
    }
    return HANDLE(cq);
}

JNIEXPORT jint JNICALL DISNI(destroyCQ)(JNIEnv *env, jobject self UNUSED, jlong cq)
{
    int ret;

    if (ibex_null_handle(env, cq, "ibv_destroy_cq")) {
        return -EINVAL;
    }
    ret = ibv_destroy_cq(PTR(struct ibv_cq, cq));
    return ret == 0 ? 0 : ibex_throw_io(env, "ibv_destroy_cq (QPs still use it?)", ret);
}

JNIEXPORT jint JNICALL DISNI(modifyQP)(JNIEnv *env, jobject self UNUSED, jlong qp, jlong attributes)
{
    struct disni_modify_qp *modify = PTR(struct disni_modify_qp, attributes);
    int ret;

    if (ibex_null_handle(env, qp, "ibv_modify_qp")) {
        return -EINVAL;
    }
    if (modify == NULL) {
        return ibex_throw_msg(env, "ibv_modify_qp: no attributes (DiSNI's IbvQpAttr never reaches native code; "
            "pass the address of a struct disni_modify_qp image, or use IbexNative.modifyQp)");
    }
    ret = ibv_modify_qp(PTR(struct ibv_qp, qp), &modify->attr, modify->mask);
    if (ret != 0) {
        char what[64];

        snprintf(what, sizeof(what), "ibv_modify_qp (mask 0x%x, state %d)", (unsigned)modify->mask,
            (int)modify->attr.qp_state);
        return ibex_throw_io(env, what, ret);
    }
    return 0;
}

JNIEXPORT jint JNICALL DISNI(queryOdpSupport)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    struct ibv_device_attr_ex attr;

    if (ibex_null_handle(env, context, "ibv_query_device_ex")) {
        return -1;
    }
    memset(&attr, 0, sizeof(attr));
    if (ibv_query_device_ex(PTR(struct ibv_context, context), NULL, &attr) != 0
        || !(attr.odp_caps.general_caps & IBV_ODP_SUPPORT)) {
        return -1; /* DiSNI's "no on-demand paging" */
    }
    /* DiSNI's IBV_ODP_SUPPORT_* bits are rdma-core's enum ibv_odp_transport_cap_bits; report RC's. */
    return (jint)attr.odp_caps.per_transport_caps.rc_odp_caps;
}

JNIEXPORT jint JNICALL DISNI(expPrefetchMr)(JNIEnv *env, jobject self UNUSED, jlong mr_handle, jlong address,
    jint length)
{
    struct ibv_mr *mr = PTR(struct ibv_mr, mr_handle);
    struct ibv_sge range;
    int ret;

    if (ibex_null_handle(env, mr_handle, "ibv_advise_mr")) {
        return -EINVAL;
    }
    /* The experimental MLNX_OFED verb DiSNI called is ibv_advise_mr(PREFETCH) in rdma-core. */
    range.addr = (uint64_t)address;
    range.length = (uint32_t)length;
    range.lkey = mr->lkey;
    ret = ibv_advise_mr(mr->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, IBV_ADVISE_MR_FLAG_FLUSH, &range, 1);
    return ret == 0 ? 0 : ibex_throw_io(env, "ibv_advise_mr (prefetch; needs an on-demand-paging MR)", ret);
}

int wr_list_index(const void *first, const void *bad, size_t next_offset)
{
    int index = 0;

    for (const char *wr = first; wr != NULL && wr != bad; wr = *(const char *const *)(wr + next_offset)) {
        index++;
    }
    return index;
}

JNIEXPORT void JNICALL DISNI(postSend)(JNIEnv *env, jobject self UNUSED, jlong qp, jlong wr_list)
{
    struct ibv_send_wr *bad = NULL;
    int ret;

    if (ibex_null_handle(env, qp, "ibv_post_send: qp") || ibex_null_handle(env, wr_list, "ibv_post_send: wr list")) {
        return;
    }
    ret = ibv_post_send(PTR(struct ibv_qp, qp), PTR(struct ibv_send_wr, wr_list), &bad);
    if (ret != 0) {
        char what[96];

        snprintf(what, sizeof(what), "ibv_post_send (work request %d of the list)",
            wr_list_index(PTR(void, wr_list), bad, offsetof(struct ibv_send_wr, next)));
        ibex_throw_io(env, what, ret);
    }
}

JNIEXPORT void JNICALL DISNI(postRecv)(JNIEnv *env, jobject self UNUSED, jlong qp, jlong wr_list)
{
    struct ibv_recv_wr *bad = NULL;
    int ret;

    if (ibex_null_handle(env, qp, "ibv_post_recv: qp") || ibex_null_handle(env, wr_list, "ibv_post_recv: wr list")) {
        return;
    }
    ret = ibv_post_recv(PTR(struct ibv_qp, qp), PTR(struct ibv_recv_wr, wr_list), &bad);
    if (ret != 0) {
        char what[96];

        snprintf(what, sizeof(what), "ibv_post_recv (work request %d of the list)",
            wr_list_index(PTR(void, wr_list), bad, offsetof(struct ibv_recv_wr, next)));
        ibex_throw_io(env, what, ret);
    }
}

JNIEXPORT jint JNICALL DISNI(pollCQ)(JNIEnv *env, jobject self UNUSED, jlong cq, jint n, jlong wc_array)
{
    int polled;

    if (ibex_null_handle(env, cq, "ibv_poll_cq: cq") || ibex_null_handle(env, wc_array, "ibv_poll_cq: wc array")) {
        return -EINVAL;
    }
    polled = ibv_poll_cq(PTR(struct ibv_cq, cq), n, PTR(struct ibv_wc, wc_array));
    return polled >= 0 ? polled : ibex_throw_io(env, "ibv_poll_cq", polled);
}

JNIEXPORT jint JNICALL DISNI(reqNotifyCQ)(JNIEnv *env, jobject self UNUSED, jlong cq, jint solicited_only)
{
    int ret;

    if (ibex_null_handle(env, cq, "ibv_req_notify_cq")) {
        return -EINVAL;
    }
    ret = ibv_req_notify_cq(PTR(struct ibv_cq, cq), solicited_only);
    return ret == 0 ? 0 : ibex_throw_io(env, "ibv_req_notify_cq", ret);
}

JNIEXPORT jint JNICALL DISNI(getCqEvent)(JNIEnv *env, jobject self UNUSED, jlong handle, jint timeout_ms)
{
    struct ibv_comp_channel *channel = PTR(struct ibv_comp_channel, handle);
    struct pollfd ready;
    struct ibv_cq *cq;
    void *cq_context;
    int ret;

    if (ibex_null_handle(env, handle, "ibv_get_cq_event")) {
        return -EINVAL;
    }
    ready.fd = channel->fd;
    ready.events = POLLIN;
    ready.revents = 0;
    ret = poll(&ready, 1, timeout_ms);
    if (ret <= 0 || ibv_get_cq_event(channel, &cq, &cq_context) != 0) {
        return -1; /* no event in time */
    }
    /*
     * Acked here: DiSNI's own CQ processor never calls ackEvents, and ibv_destroy_cq waits for every event
     * to be acked, so _ackCqEvent is a no-op to keep the count exact.
     */
    ibv_ack_cq_events(cq, 1);
    return 0;
}

JNIEXPORT jint JNICALL DISNI(ackCqEvent)(JNIEnv *env, jobject self UNUSED, jlong cq, jint count UNUSED)
{
    return ibex_null_handle(env, cq, "ibv_ack_cq_events") ? -EINVAL : 0; /* _getCqEvent acked already */
}

JNIEXPORT jint JNICALL DISNI(getQpNum)(JNIEnv *env, jobject self UNUSED, jlong qp)
{
    return ibex_null_handle(env, qp, "qp_num") ? -1 : (jint)PTR(struct ibv_qp, qp)->qp_num;
}

JNIEXPORT jint JNICALL DISNI(getContextFd)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    return ibex_null_handle(env, context, "cmd_fd") ? -1 : PTR(struct ibv_context, context)->cmd_fd;
}

JNIEXPORT jint JNICALL DISNI(getContextNumCompVectors)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    return ibex_null_handle(env, context, "num_comp_vectors") ? -1
        : PTR(struct ibv_context, context)->num_comp_vectors;
}

JNIEXPORT jint JNICALL DISNI(getPdHandle)(JNIEnv *env, jobject self UNUSED, jlong pd)
{
    return ibex_null_handle(env, pd, "pd handle") ? -1 : (jint)PTR(struct ibv_pd, pd)->handle;
}
