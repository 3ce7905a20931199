/*
 * The rdma_cm natives of both JNI classes: event channel, ids, address and route resolution, connection
 * set-up and teardown, each one static body entered from DiSNI's NativeDispatcher (IOException) and, where
 * ibex needs it, from IbexNative (VerbsException). Differences from DiSNI's own C, each fixing a defect: _createId honours the port space,
 * _resolveAddr binds to the source address when one is given, _getCmEvent keeps the event's details
 * (cm_channel.h), _destroyCmId destroys a QP left on the id, and every call refuses null, destroyed or
 * not-yet-resolved ids with an IOException instead of crashing inside librdmacm.
 */
#include "cm_channel.h"
#include "ibex_native.h"

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

/* The id, or NULL after throwing "<what>: <reason>" (VerbsException when verbs, else IOException). */
static struct rdma_cm_id *checked_id(JNIEnv *env, jlong handle, int need_device, const char *what, int verbs)
{
    const char *reason = cm_id_unusable(handle, need_device);
    char message[256];

    if (reason == NULL) {
        return PTR(struct rdma_cm_id, handle);
    }
    snprintf(message, sizeof(message), "%s: %s", what, reason);
    ibex_throw_text(env, verbs, message);
    return NULL;
}

static struct rdma_cm_id *usable_id(JNIEnv *env, jlong handle, int need_device, const char *what)
{
    return checked_id(env, handle, need_device, what, 0);
}

static struct cm_channel *checked_channel(JNIEnv *env, jlong handle, const char *what, int verbs)
{
    if (handle == 0) {
        ibex_throw_null_handle(env, what, verbs);
        return NULL;
    }
    return PTR(struct cm_channel, handle);
}

static struct cm_channel *usable_channel(JNIEnv *env, jlong handle, const char *what)
{
    return checked_channel(env, handle, what, 0);
}

/* ---- the bodies both JNI classes call; verbs picks the exception type ---- */

static jlong create_event_channel(JNIEnv *env, int verbs)
{
    struct cm_channel *channel = cm_channel_create();

    if (channel == NULL) {
        ibex_throw_either(env, verbs, "rdma_create_event_channel", errno);
        return verbs ? 0 : -1;
    }
    return HANDLE(channel);
}

static jint destroy_event_channel(JNIEnv *env, jlong handle, int verbs)
{
    struct cm_channel *channel = checked_channel(env, handle, "rdma_destroy_event_channel", verbs);
    int ids;

    if (channel == NULL) {
        return -EINVAL;
    }
    ids = cm_channel_ids(channel);
    if (ids > 0) {
        char message[160];

        snprintf(message, sizeof(message), "rdma_destroy_event_channel: %d rdma_cm id(s) still report on the "
            "channel; destroy them first", ids);
        return ibex_throw_text(env, verbs, message);
    }
    cm_channel_destroy(channel);
    return 0;
}

/* The event type, -1 when none came in time; writes the listening id and the event's id. */
static jint next_event(JNIEnv *env, jlong handle, jint timeout_ms, jlong *listen_out, jlong *id_out, int verbs)
{
    struct cm_channel *channel = checked_channel(env, handle, "rdma_get_cm_event", verbs);
    struct rdma_cm_id *listen_id = NULL;
    struct rdma_cm_id *id = NULL;
    int type;

    if (channel == NULL) {
        return -1;
    }
    type = cm_channel_next(channel, timeout_ms, &listen_id, &id);
    if (type < -1) {
        ibex_throw_either(env, verbs, "rdma_get_cm_event", type);
        return -1;
    }
    *listen_out = HANDLE(listen_id);
    *id_out = HANDLE(id);
    return type;
}

static void bind_addr(JNIEnv *env, jlong handle, const struct sockaddr *address, int verbs)
{
    struct rdma_cm_id *id = checked_id(env, handle, 0, "rdma_bind_addr", verbs);

    if (id != NULL && rdma_bind_addr(id, (struct sockaddr *)address) != 0) {
        ibex_throw_either(env, verbs, "rdma_bind_addr", errno);
    }
}

static void listen_id(JNIEnv *env, jlong handle, jint backlog, int verbs)
{
    struct rdma_cm_id *id = checked_id(env, handle, 0, "rdma_listen", verbs);

    if (id != NULL && rdma_listen(id, backlog) != 0) {
        ibex_throw_either(env, verbs, "rdma_listen", errno);
    }
}

/* source NULL: the kernel picks the local address. */
static void resolve_addr(JNIEnv *env, jlong handle, const struct sockaddr *source, const struct sockaddr *destination,
    jint timeout_ms, int verbs)
{
    struct rdma_cm_id *id = checked_id(env, handle, 0, "rdma_resolve_addr", verbs);

    if (id != NULL && rdma_resolve_addr(id, (struct sockaddr *)source, (struct sockaddr *)destination,
        timeout_ms) != 0) {
        ibex_throw_either(env, verbs, "rdma_resolve_addr", errno);
    }
}

static void resolve_route(JNIEnv *env, jlong handle, jint timeout_ms, int verbs)
{
    struct rdma_cm_id *id = checked_id(env, handle, 1, "rdma_resolve_route", verbs);

    if (id != NULL && rdma_resolve_route(id, timeout_ms) != 0) {
        ibex_throw_either(env, verbs, "rdma_resolve_route", errno);
    }
}

static jint disconnect_id(JNIEnv *env, jlong handle, int verbs)
{
    struct rdma_cm_id *id = checked_id(env, handle, 1, "rdma_disconnect", verbs);

    if (id == NULL) {
        return -EINVAL;
    }
    if (rdma_disconnect(id) != 0) {
        return ibex_throw_either(env, verbs, "rdma_disconnect", errno);
    }
    return 0;
}

static jint destroy_id(JNIEnv *env, jlong handle, int endpoint, const char *what, int verbs)
{
    struct rdma_cm_id *id = checked_id(env, handle, 0, what, verbs);
    int ret;

    if (id == NULL) {
        return -EINVAL;
    }
    ret = cm_id_destroy(id, endpoint);
    return ret == 0 ? 0 : ibex_throw_either(env, verbs, what, ret);
}

/* The id's ibv_context*, 0 while it has no device, -1 after throwing. */
static jlong id_context(JNIEnv *env, jlong handle, int verbs)
{
    struct rdma_cm_id *id = checked_id(env, handle, 0, "the device of an rdma_cm id", verbs);

    return id == NULL ? -1 : HANDLE(id->verbs);
}

/* ---- DiSNI's NativeDispatcher ---- */

JNIEXPORT jlong JNICALL DISNI(createEventChannel)(JNIEnv *env, jobject self UNUSED)
{
    return create_event_channel(env, 0);
}

JNIEXPORT jint JNICALL DISNI(destroyEventChannel)(JNIEnv *env, jobject self UNUSED, jlong handle)
{
    return destroy_event_channel(env, handle, 0);
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
    if (!ibex_null_handle(env, address, "rdma_bind_addr: address")) {
        bind_addr(env, handle, PTR(struct sockaddr, address), 0);
    }
}

JNIEXPORT void JNICALL DISNI(listen)(JNIEnv *env, jobject self UNUSED, jlong handle, jint backlog)
{
    listen_id(env, handle, backlog, 0);
}

JNIEXPORT void JNICALL DISNI(resolveAddr)(JNIEnv *env, jobject self UNUSED, jlong handle, jlong source,
    jlong destination, jint timeout_ms)
{
    /* source 0: let the kernel pick the local address (DiSNI's Java always passes 0). */
    if (!ibex_null_handle(env, destination, "rdma_resolve_addr: destination")) {
        resolve_addr(env, handle, PTR(struct sockaddr, source), PTR(struct sockaddr, destination), timeout_ms, 0);
    }
}

JNIEXPORT void JNICALL DISNI(resolveRoute)(JNIEnv *env, jobject self UNUSED, jlong handle, jint timeout_ms)
{
    resolve_route(env, handle, timeout_ms, 0);
}

JNIEXPORT jint JNICALL DISNI(getCmEvent)(JNIEnv *env, jobject self UNUSED, jlong handle, jlong listen_out,
    jlong id_out, jint timeout_ms)
{
    jlong listen_id = 0;
    jlong id = 0;
    int type;

    if (ibex_null_handle(env, listen_out, "rdma_get_cm_event: listen id address")
        || ibex_null_handle(env, id_out, "rdma_get_cm_event: id address")) {
        return -1;
    }
    type = next_event(env, handle, timeout_ms, &listen_id, &id, 0);
    if (type >= 0) {
        *PTR(int64_t, listen_out) = listen_id;
        *PTR(int64_t, id_out) = id;
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
    return disconnect_id(env, handle, 0);
}

JNIEXPORT jint JNICALL DISNI(destroyCmId)(JNIEnv *env, jobject self UNUSED, jlong handle)
{
    return destroy_id(env, handle, 0, "rdma_destroy_id", 0);
}

JNIEXPORT jint JNICALL DISNI(destroyEp)(JNIEnv *env, jobject self UNUSED, jlong handle)
{
    return destroy_id(env, handle, 1, "rdma_destroy_ep", 0);
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
    jlong context = id_context(env, handle, 0);

    /* -1, not an exception, when there is no device yet: DiSNI's getVerbs() then returns null and asks again. */
    return context == 0 ? -1 : context;
}

/* ---- IbexNative ---- */

/* An IPv4 sockaddr_in from 4 address bytes and a port; nonzero after throwing when ip is not 4 bytes. */
static int ipv4(JNIEnv *env, jbyteArray ip, jint port, struct sockaddr_in *out, const char *what)
{
    if (ip == NULL || (*env)->GetArrayLength(env, ip) != 4) {
        char message[96];

        snprintf(message, sizeof(message), "%s: needs a 4-byte IPv4 address", what);
        ibex_throw_verbs(env, message, EINVAL);
        return 1;
    }
    memset(out, 0, sizeof(*out));
    out->sin_family = AF_INET;
    out->sin_port = htons((uint16_t)port);
    (*env)->GetByteArrayRegion(env, ip, 0, 4, (jbyte *)&out->sin_addr.s_addr);
    return 0;
}

JNIEXPORT jlong JNICALL IBEX(cmCreateEventChannel)(JNIEnv *env, jclass cls UNUSED)
{
    return create_event_channel(env, 1);
}

JNIEXPORT void JNICALL IBEX(cmDestroyEventChannel)(JNIEnv *env, jclass cls UNUSED, jlong handle)
{
    destroy_event_channel(env, handle, 1);
}

JNIEXPORT jint JNICALL IBEX(cmGetEvent)(JNIEnv *env, jclass cls UNUSED, jlong handle, jint timeout_ms,
    jlongArray ids_out)
{
    jlong ids[2] = {0, 0};
    int type;

    if (ibex_short_array(env, ids_out, 2, "rdma_get_cm_event: ids")) {
        return -1;
    }
    type = next_event(env, handle, timeout_ms, &ids[0], &ids[1], 1);
    if (type >= 0) {
        (*env)->SetLongArrayRegion(env, ids_out, 0, 2, ids);
    }
    return type;
}

JNIEXPORT void JNICALL IBEX(cmBindAddr)(JNIEnv *env, jclass cls UNUSED, jlong handle, jbyteArray ip, jint port)
{
    struct sockaddr_in address;

    if (!ipv4(env, ip, port, &address, "rdma_bind_addr")) {
        bind_addr(env, handle, (struct sockaddr *)&address, 1);
    }
}

JNIEXPORT void JNICALL IBEX(cmListen)(JNIEnv *env, jclass cls UNUSED, jlong handle, jint backlog)
{
    listen_id(env, handle, backlog, 1);
}

JNIEXPORT void JNICALL IBEX(cmResolveAddr)(JNIEnv *env, jclass cls UNUSED, jlong handle, jbyteArray ip, jint port,
    jint timeout_ms)
{
    struct sockaddr_in destination;

    if (!ipv4(env, ip, port, &destination, "rdma_resolve_addr")) {
        resolve_addr(env, handle, NULL, (struct sockaddr *)&destination, timeout_ms, 1);
    }
}

JNIEXPORT void JNICALL IBEX(cmResolveRoute)(JNIEnv *env, jclass cls UNUSED, jlong handle, jint timeout_ms)
{
    resolve_route(env, handle, timeout_ms, 1);
}

JNIEXPORT void JNICALL IBEX(cmDisconnect)(JNIEnv *env, jclass cls UNUSED, jlong handle)
{
    disconnect_id(env, handle, 1);
}

JNIEXPORT void JNICALL IBEX(cmDestroyId)(JNIEnv *env, jclass cls UNUSED, jlong handle)
{
    destroy_id(env, handle, 0, "rdma_destroy_id", 1);
}

JNIEXPORT jlong JNICALL IBEX(cmContext)(JNIEnv *env, jclass cls UNUSED, jlong handle)
{
    return id_context(env, handle, 1);
}
