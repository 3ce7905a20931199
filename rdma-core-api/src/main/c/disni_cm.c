/*
 * DiSNI's rdma_cm natives: event channel, ids, address and route resolution, connection set-up and
 * teardown. Differences from DiSNI's own C, each fixing a defect: _createId honours the port space,
 * _resolveAddr binds to the source address when one is given, _getCmEvent keeps the event's details
 * (cm_channel.h), _destroyCmId destroys a QP left on the id, and every call refuses null, destroyed or
 * not-yet-resolved ids with an IOException instead of crashing inside librdmacm.
 */
#include "cm_channel.h"
#include "disni_native.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

const char *cm_id_unusable(jlong handle, int need_device)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, handle);

    if (id == NULL) {
        return "null rdma_cm id (closed or never created)";
    }
    if (!cm_id_live(id)) {
        return "not a live rdma_cm id (already destroyed)";
    }
    if (need_device && id->verbs == NULL) {
        return "the rdma_cm id has no device yet (bind it to a local RDMA address, or resolve its address "
               "and wait for ADDR_RESOLVED first)";
    }
    return NULL;
}

/* The id for a DiSNI call, or NULL after throwing IOException "<what>: <reason>". */
static struct rdma_cm_id *usable_id(JNIEnv *env, jlong handle, int need_device, const char *what)
{
    const char *reason = cm_id_unusable(handle, need_device);
    char message[256];

    if (reason == NULL) {
        return PTR(struct rdma_cm_id, handle);
    }
    snprintf(message, sizeof(message), "%s: %s", what, reason);
    ibex_throw_msg(env, message);
    return NULL;
}

static struct cm_channel *usable_channel(JNIEnv *env, jlong handle, const char *what)
{
    return ibex_null_handle(env, handle, what) ? NULL : PTR(struct cm_channel, handle);
}

JNIEXPORT jlong JNICALL DISNI(createEventChannel)(JNIEnv *env, jobject self UNUSED)
{
    struct cm_channel *channel = cm_channel_create();

    if (channel == NULL) {
        ibex_throw_io(env, "rdma_create_event_channel", errno);
        return -1;
    }
    return HANDLE(channel);
}

JNIEXPORT jint JNICALL DISNI(destroyEventChannel)(JNIEnv *env, jobject self UNUSED, jlong handle)
{
    struct cm_channel *channel = usable_channel(env, handle, "rdma_destroy_event_channel");
    int ids;

    if (channel == NULL) {
        return -EINVAL;
    }
    ids = cm_channel_ids(channel);
    if (ids > 0) {
        char message[160];

        snprintf(message, sizeof(message), "rdma_destroy_event_channel: %d rdma_cm id(s) still report on the "
            "channel; destroy them first", ids);
        return ibex_throw_msg(env, message);
    }
    cm_channel_destroy(channel);
    return 0;
}

JNIEXPORT jlong JNICALL DISNI(createId)(JNIEnv *env, jobject self UNUSED, jlong handle, jshort ps)
{
    struct cm_channel *channel = usable_channel(env, handle, "rdma_create_id");
    struct rdma_cm_id *id;
    int ret;

    if (channel == NULL) {
        return -1;
    }
    ret = cm_channel_create_id(channel, (enum rdma_port_space)(uint16_t)ps, &id);
    if (ret != 0) {
        char what[64];

        snprintf(what, sizeof(what), "rdma_create_id (port space 0x%x)", (unsigned)(uint16_t)ps);
        ibex_throw_io(env, what, ret);
        return -1;
    }
    return HANDLE(id);
}

JNIEXPORT jlong JNICALL DISNI(createQP)(JNIEnv *env, jobject self UNUSED, jlong handle, jlong pd, jlong send_cq,
    jlong recv_cq, jint qp_type, jint max_send_wr, jint max_recv_wr, jint max_inline)
{
    struct rdma_cm_id *id = usable_id(env, handle, 1, "rdma_create_qp");
    struct ibv_qp_init_attr attr;

    if (id == NULL || ibex_null_handle(env, pd, "rdma_create_qp: pd")
        || ibex_null_handle(env, send_cq, "rdma_create_qp: send CQ")
        || ibex_null_handle(env, recv_cq, "rdma_create_qp: receive CQ")) {
        return -1;
    }
    memset(&attr, 0, sizeof(attr));
    attr.send_cq = PTR(struct ibv_cq, send_cq);
    attr.recv_cq = PTR(struct ibv_cq, recv_cq);
    attr.qp_type = (enum ibv_qp_type)qp_type;
    attr.cap.max_send_wr = (uint32_t)max_send_wr;
    attr.cap.max_recv_wr = (uint32_t)max_recv_wr;
    attr.cap.max_send_sge = 4; /* DiSNI's fixed choice: its Java has no SGE count */
    attr.cap.max_recv_sge = 4;
    attr.cap.max_inline_data = (uint32_t)max_inline;
    if (rdma_create_qp(id, PTR(struct ibv_pd, pd), &attr) != 0) {
        ibex_throw_io(env, "rdma_create_qp", errno);
        return -1;
    }
    return HANDLE(id->qp);
}

JNIEXPORT void JNICALL DISNI(bindAddr)(JNIEnv *env, jobject self UNUSED, jlong handle, jlong address)
{
    struct rdma_cm_id *id = usable_id(env, handle, 0, "rdma_bind_addr");

    if (id == NULL || ibex_null_handle(env, address, "rdma_bind_addr: address")) {
        return;
    }
    if (rdma_bind_addr(id, PTR(struct sockaddr, address)) != 0) {
        ibex_throw_io(env, "rdma_bind_addr", errno);
    }
}

JNIEXPORT void JNICALL DISNI(listen)(JNIEnv *env, jobject self UNUSED, jlong handle, jint backlog)
{
    struct rdma_cm_id *id = usable_id(env, handle, 0, "rdma_listen");

    if (id != NULL && rdma_listen(id, backlog) != 0) {
        ibex_throw_io(env, "rdma_listen", errno);
    }
}

JNIEXPORT void JNICALL DISNI(resolveAddr)(JNIEnv *env, jobject self UNUSED, jlong handle, jlong source,
    jlong destination, jint timeout_ms)
{
    struct rdma_cm_id *id = usable_id(env, handle, 0, "rdma_resolve_addr");

    if (id == NULL || ibex_null_handle(env, destination, "rdma_resolve_addr: destination")) {
        return;
    }
    /* source 0: let the kernel pick the local address (DiSNI's Java always passes 0). */
    if (rdma_resolve_addr(id, PTR(struct sockaddr, source), PTR(struct sockaddr, destination), timeout_ms) != 0) {
        ibex_throw_io(env, "rdma_resolve_addr", errno);
    }
}

JNIEXPORT void JNICALL DISNI(resolveRoute)(JNIEnv *env, jobject self UNUSED, jlong handle, jint timeout_ms)
{
    struct rdma_cm_id *id = usable_id(env, handle, 1, "rdma_resolve_route");

    if (id != NULL && rdma_resolve_route(id, timeout_ms) != 0) {
        ibex_throw_io(env, "rdma_resolve_route", errno);
    }
}

JNIEXPORT jint JNICALL DISNI(getCmEvent)(JNIEnv *env, jobject self UNUSED, jlong handle, jlong listen_out,
    jlong id_out, jint timeout_ms)
{
    struct cm_channel *channel = usable_channel(env, handle, "rdma_get_cm_event");
    struct rdma_cm_id *listen_id = NULL;
    struct rdma_cm_id *id = NULL;
    int type;

    if (channel == NULL || ibex_null_handle(env, listen_out, "rdma_get_cm_event: listen id address")
        || ibex_null_handle(env, id_out, "rdma_get_cm_event: id address")) {
        return -1;
    }
    type = cm_channel_next(channel, timeout_ms, &listen_id, &id);
    if (type < -1) {
        ibex_throw_io(env, "rdma_get_cm_event", type);
        return -1;
    }
    if (type >= 0) {
        *PTR(int64_t, listen_out) = HANDLE(listen_id);
        *PTR(int64_t, id_out) = HANDLE(id);
    }
    return type;
}

/* Connection parameters as DiSNI sets them: as many RDMA reads in flight as the device allows. */
static void disni_conn_param(struct rdma_conn_param *param, jint retry_count, jint rnr_retry_count)
{
    memset(param, 0, sizeof(*param));
    param->responder_resources = RDMA_MAX_RESP_RES; /* librdmacm substitutes the device's maximum */
    param->initiator_depth = RDMA_MAX_INIT_DEPTH;
    param->retry_count = (uint8_t)retry_count;
    param->rnr_retry_count = (uint8_t)rnr_retry_count;
}

JNIEXPORT void JNICALL DISNI(connect)(JNIEnv *env, jobject self UNUSED, jlong handle, jint retry_count,
    jint rnr_retry_count, jlong private_data, jbyte private_data_len)
{
    struct rdma_cm_id *id = usable_id(env, handle, 1, "rdma_connect");
    struct rdma_conn_param param;

    if (id == NULL) {
        return;
    }
    disni_conn_param(&param, retry_count, rnr_retry_count);
    if (private_data != 0) {
        param.private_data = PTR(const void, private_data);
        param.private_data_len = (uint8_t)private_data_len;
    }
    if (rdma_connect(id, &param) != 0) {
        ibex_throw_io(env, "rdma_connect", errno);
    }
}

JNIEXPORT void JNICALL DISNI(accept)(JNIEnv *env, jobject self UNUSED, jlong handle, jint retry_count,
    jint rnr_retry_count)
{
    struct rdma_cm_id *id = usable_id(env, handle, 1, "rdma_accept");
    struct rdma_conn_param param;

    if (id == NULL) {
        return;
    }
    disni_conn_param(&param, retry_count, rnr_retry_count);
    if (rdma_accept(id, &param) != 0) {
        ibex_throw_io(env, "rdma_accept", errno);
    }
}

JNIEXPORT jint JNICALL DISNI(ackCmEvent)(JNIEnv *env UNUSED, jobject self UNUSED, jint event UNUSED)
{
    return 0; /* _getCmEvent acked the event already, after keeping its details */
}

JNIEXPORT jint JNICALL DISNI(disconnect)(JNIEnv *env, jobject self UNUSED, jlong handle)
{
    struct rdma_cm_id *id = usable_id(env, handle, 1, "rdma_disconnect");

    if (id == NULL) {
        return -EINVAL;
    }
    if (rdma_disconnect(id) != 0) {
        return ibex_throw_io(env, "rdma_disconnect", errno);
    }
    return 0;
}

static jint destroy_id(JNIEnv *env, jlong handle, int endpoint, const char *what)
{
    struct rdma_cm_id *id = usable_id(env, handle, 0, what);
    int ret;

    if (id == NULL) {
        return -EINVAL;
    }
    ret = cm_id_destroy(id, endpoint);
    return ret == 0 ? 0 : ibex_throw_io(env, what, ret);
}

JNIEXPORT jint JNICALL DISNI(destroyCmId)(JNIEnv *env, jobject self UNUSED, jlong handle)
{
    return destroy_id(env, handle, 0, "rdma_destroy_id");
}

JNIEXPORT jint JNICALL DISNI(destroyEp)(JNIEnv *env, jobject self UNUSED, jlong handle)
{
    return destroy_id(env, handle, 1, "rdma_destroy_ep");
}

JNIEXPORT jint JNICALL DISNI(destroyQP)(JNIEnv *env, jobject self UNUSED, jlong handle)
{
    struct rdma_cm_id *id = usable_id(env, handle, 0, "rdma_destroy_qp");

    if (id == NULL) {
        return -EINVAL;
    }
    if (id->qp == NULL) {
        return ibex_throw_msg(env, "rdma_destroy_qp: the rdma_cm id has no QP (never created or destroyed)");
    }
    rdma_destroy_qp(id);
    return 0;
}

/* Copies the id's sockaddr_in into DiSNI's 16-byte buffer; DiSNI's SockAddrIn knows only IPv4. */
static jint copy_address(JNIEnv *env, jlong handle, jlong out, int remote, const char *what)
{
    struct rdma_cm_id *id = usable_id(env, handle, 0, what);
    const struct sockaddr *address;

    if (id == NULL || ibex_null_handle(env, out, what)) {
        return -EINVAL;
    }
    address = remote ? rdma_get_peer_addr(id) : rdma_get_local_addr(id);
    if (address->sa_family != AF_INET && address->sa_family != AF_UNSPEC) {
        char message[160];

        snprintf(message, sizeof(message), "%s: address family %d is not IPv4 (DiSNI's SockAddrIn reads only "
            "sockaddr_in)", what, address->sa_family);
        return ibex_throw_msg(env, message);
    }
    memcpy(PTR(void, out), address, sizeof(struct sockaddr_in));
    return 0;
}

JNIEXPORT jint JNICALL DISNI(getSrcAddr)(JNIEnv *env, jobject self UNUSED, jlong handle, jlong out)
{
    return copy_address(env, handle, out, 0, "rdma_get_local_addr");
}

JNIEXPORT jint JNICALL DISNI(getDstAddr)(JNIEnv *env, jobject self UNUSED, jlong handle, jlong out)
{
    return copy_address(env, handle, out, 1, "rdma_get_peer_addr");
}

JNIEXPORT jlong JNICALL DISNI(getContext)(JNIEnv *env, jobject self UNUSED, jlong handle)
{
    struct rdma_cm_id *id = usable_id(env, handle, 0, "getContext");

    if (id == NULL) {
        return -1;
    }
    /* -1, not an exception, when there is no device yet: DiSNI's getVerbs() then returns null and asks again. */
    return id->verbs == NULL ? -1 : HANDLE(id->verbs);
}
