/*
 * IbexNative's completion queues: with or without a completion channel, polled into a direct buffer of
 * struct ibv_wc (one JNI call, no allocation), and completion events got and acked in one call.
 */
#include "ibex_native.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>

JNIEXPORT jlong JNICALL IBEX(createCq)(JNIEnv *env, jclass cls UNUSED, jlong context, jlong channel, jint cqe,
    jint vector)
{
    struct ibv_cq *cq;

    if (ibex_null_verbs(env, context, "createCq: context")) {
        return 0;
    }
    cq = ibv_create_cq(PTR(struct ibv_context, context), cqe, NULL, PTR(struct ibv_comp_channel, channel), vector);
    if (cq == NULL) {
        char what[80];

        snprintf(what, sizeof(what), "createCq: ibv_create_cq (cqe %d, vector %d)", cqe, vector);
        ibex_throw_verbs(env, what, errno);
        return 0;
    }
    return HANDLE(cq);
}

JNIEXPORT jint JNICALL IBEX(cqEntries)(JNIEnv *env, jclass cls UNUSED, jlong cq)
{
    return ibex_null_verbs(env, cq, "cqEntries: cq") ? -1 : PTR(struct ibv_cq, cq)->cqe;
}

JNIEXPORT jint JNICALL IBEX(pollCq)(JNIEnv *env, jclass cls UNUSED, jlong cq, jint n, jlong wc_address)
{
    int polled;

    if (ibex_null_verbs(env, cq, "pollCq: cq") || ibex_null_verbs(env, wc_address, "pollCq: wc array")) {
        return -1;
    }
    polled = ibv_poll_cq(PTR(struct ibv_cq, cq), n, PTR(struct ibv_wc, wc_address));
    return polled >= 0 ? polled : ibex_throw_verbs(env, "pollCq: ibv_poll_cq", polled);
}

JNIEXPORT void JNICALL IBEX(reqNotifyCq)(JNIEnv *env, jclass cls UNUSED, jlong cq, jboolean solicited_only)
{
    int ret;

    if (ibex_null_verbs(env, cq, "reqNotifyCq: cq")) {
        return;
    }
    ret = ibv_req_notify_cq(PTR(struct ibv_cq, cq), solicited_only ? 1 : 0);
    if (ret != 0) {
        ibex_throw_verbs(env, "reqNotifyCq: ibv_req_notify_cq", ret);
    }
}

JNIEXPORT jlong JNICALL IBEX(getCqEvent)(JNIEnv *env, jclass cls UNUSED, jlong handle, jint timeout_ms)
{
    struct ibv_comp_channel *channel = PTR(struct ibv_comp_channel, handle);
    struct pollfd ready;
    struct ibv_cq *cq;
    void *cq_context;
    int ret;

    if (ibex_null_verbs(env, handle, "getCqEvent: channel")) {
        return 0;
    }
    ready.fd = channel->fd;
    ready.events = POLLIN;
    ready.revents = 0;
    ret = poll(&ready, 1, timeout_ms);
    if (ret < 0 && errno != EINTR) {
        ibex_throw_verbs(env, "getCqEvent: poll", errno);
        return 0;
    }
    /* The channel's fd is non-blocking (DiSNI's _createCompChannel): another thread may have taken the event. */
    if (ret <= 0 || ibv_get_cq_event(channel, &cq, &cq_context) != 0) {
        return 0;
    }
    /* Acked at once, so that ibv_destroy_cq, which waits for every event to be acked, never hangs. */
    ibv_ack_cq_events(cq, 1);
    return HANDLE(cq);
}

JNIEXPORT void JNICALL IBEX(destroyCq)(JNIEnv *env, jclass cls UNUSED, jlong cq)
{
    int ret;

    if (ibex_null_verbs(env, cq, "destroyCq: cq")) {
        return;
    }
    ret = ibv_destroy_cq(PTR(struct ibv_cq, cq));
    if (ret != 0) {
        ibex_throw_verbs(env, "destroyCq: ibv_destroy_cq (QPs still use it?)", ret);
    }
}
