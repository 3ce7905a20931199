/*
 * IbexNative's data path: ibv_post_send and ibv_post_recv of work request lists Java wrote into direct
 * buffers, and the sizes and offsets it writes them at. A post is one JNI call with no allocation and no copy:
 * the lists are passed to the provider as they are, UD (ah, remote_qpn, remote_qkey) and atomic fields
 * included.
 */
#include "ibex_native.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

/* IbexNative.sendWrLayout(), recvWrLayout(), wcLayout(): the SWR_*, RWR_* and WC_* indices. */
static const jint SEND_WR_LAYOUT[] = {
    sizeof(struct ibv_send_wr), offsetof(struct ibv_send_wr, wr_id), offsetof(struct ibv_send_wr, next),
    offsetof(struct ibv_send_wr, sg_list), offsetof(struct ibv_send_wr, num_sge),
    offsetof(struct ibv_send_wr, opcode), offsetof(struct ibv_send_wr, send_flags),
    offsetof(struct ibv_send_wr, imm_data), offsetof(struct ibv_send_wr, wr.rdma.remote_addr),
    offsetof(struct ibv_send_wr, wr.rdma.rkey), offsetof(struct ibv_send_wr, wr.atomic.remote_addr),
    offsetof(struct ibv_send_wr, wr.atomic.compare_add), offsetof(struct ibv_send_wr, wr.atomic.swap),
    offsetof(struct ibv_send_wr, wr.atomic.rkey), offsetof(struct ibv_send_wr, wr.ud.ah),
    offsetof(struct ibv_send_wr, wr.ud.remote_qpn), offsetof(struct ibv_send_wr, wr.ud.remote_qkey),
    sizeof(struct ibv_sge), offsetof(struct ibv_sge, addr), offsetof(struct ibv_sge, length),
    offsetof(struct ibv_sge, lkey)
};

static const jint RECV_WR_LAYOUT[] = {
    sizeof(struct ibv_recv_wr), offsetof(struct ibv_recv_wr, wr_id), offsetof(struct ibv_recv_wr, next),
    offsetof(struct ibv_recv_wr, sg_list), offsetof(struct ibv_recv_wr, num_sge)
};

static const jint WC_LAYOUT[] = {
    sizeof(struct ibv_wc), offsetof(struct ibv_wc, wr_id), offsetof(struct ibv_wc, status),
    offsetof(struct ibv_wc, opcode), offsetof(struct ibv_wc, vendor_err), offsetof(struct ibv_wc, byte_len),
    offsetof(struct ibv_wc, imm_data), offsetof(struct ibv_wc, qp_num), offsetof(struct ibv_wc, src_qp),
    offsetof(struct ibv_wc, wc_flags), offsetof(struct ibv_wc, pkey_index), offsetof(struct ibv_wc, slid),
    offsetof(struct ibv_wc, sl), offsetof(struct ibv_wc, dlid_path_bits)
};

/* The lengths IbexNative.java expects (SWR_LAYOUT_LENGTH, RWR_LAYOUT_LENGTH, WC_LAYOUT_LENGTH). */
_Static_assert(sizeof(SEND_WR_LAYOUT) / sizeof(jint) == 21, "IbexNative.SWR_LAYOUT_LENGTH");
_Static_assert(sizeof(RECV_WR_LAYOUT) / sizeof(jint) == 5, "IbexNative.RWR_LAYOUT_LENGTH");
_Static_assert(sizeof(WC_LAYOUT) / sizeof(jint) == 14, "IbexNative.WC_LAYOUT_LENGTH");

static jintArray int_array(JNIEnv *env, const jint *values, jsize length)
{
    jintArray result = (*env)->NewIntArray(env, length);

    if (result != NULL) {
        (*env)->SetIntArrayRegion(env, result, 0, length, values);
    }
    return result;
}

#define INT_ARRAY(env, values) int_array(env, values, (jsize)(sizeof(values) / sizeof(values[0])))

JNIEXPORT jintArray JNICALL IBEX(sendWrLayout)(JNIEnv *env, jclass cls UNUSED)
{
    return INT_ARRAY(env, SEND_WR_LAYOUT);
}

JNIEXPORT jintArray JNICALL IBEX(recvWrLayout)(JNIEnv *env, jclass cls UNUSED)
{
    return INT_ARRAY(env, RECV_WR_LAYOUT);
}

JNIEXPORT jintArray JNICALL IBEX(wcLayout)(JNIEnv *env, jclass cls UNUSED)
{
    return INT_ARRAY(env, WC_LAYOUT);
}

/* PostException for a failed post: the errno and where in the list bad_wr is (0 if the provider named none). */
static void post_failed(JNIEnv *env, const char *what, int ret, jlong first, const void *bad, size_t next_offset)
{
    ibex_throw_post(env, what, ret, bad == NULL ? 0 : wr_list_index(PTR(void, first), bad, next_offset));
}

JNIEXPORT void JNICALL IBEX(postSend)(JNIEnv *env, jclass cls UNUSED, jlong qp, jlong wr_address)
{
    struct ibv_send_wr *bad = NULL;
    int ret;

    if (ibex_null_verbs(env, qp, "postSend: qp") || ibex_null_verbs(env, wr_address, "postSend: wr list")) {
        return;
    }
    ret = ibv_post_send(PTR(struct ibv_qp, qp), PTR(struct ibv_send_wr, wr_address), &bad);
    if (ret != 0) {
        post_failed(env, "postSend: ibv_post_send", ret, wr_address, bad, offsetof(struct ibv_send_wr, next));
    }
}

JNIEXPORT void JNICALL IBEX(postRecv)(JNIEnv *env, jclass cls UNUSED, jlong qp, jlong wr_address)
{
    struct ibv_recv_wr *bad = NULL;
    int ret;

    if (ibex_null_verbs(env, qp, "postRecv: qp") || ibex_null_verbs(env, wr_address, "postRecv: wr list")) {
        return;
    }
    ret = ibv_post_recv(PTR(struct ibv_qp, qp), PTR(struct ibv_recv_wr, wr_address), &bad);
    if (ret != 0) {
        post_failed(env, "postRecv: ibv_post_recv", ret, wr_address, bad, offsetof(struct ibv_recv_wr, next));
    }
}
