/*
 * IbexNative's rdma_cm additions to DiSNI: ids in any port space, the details of the last event on a channel,
 * connect/accept with all connection parameters and private data, reject, and the id's port and addresses.
 * Channel handles are DiSNI's (_createEventChannel: a struct cm_channel); failures throw VerbsException.
 */
#include "cm_channel.h"
#include "ibex_native.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

/* Indices into IbexNative's long[] arrays; IbexNative.java names the same values. */
enum
{
    CM_STATUS, CM_RESPONDER_RESOURCES, CM_INITIATOR_DEPTH, CM_RETRY_COUNT, CM_RNR_RETRY_COUNT, CM_QP_NUM, CM_QKEY,
    CM_IS_UD, CM_AH, CM_EVENT_LENGTH = CM_AH + AH_ATTR_LENGTH
};
enum
{
    CONN_RESPONDER_RESOURCES, CONN_INITIATOR_DEPTH, CONN_FLOW_CONTROL, CONN_RETRY_COUNT, CONN_RNR_RETRY_COUNT,
    CONN_SRQ, CONN_QP_NUM, CONN_LENGTH
};

/* Copies the Java private data (null: none) into buffer; returns its length, or -1 after throwing. */
static int private_data(JNIEnv *env, jbyteArray data, uint8_t buffer[CM_PRIVATE_DATA_MAX], const char *what)
{
    jsize length;

    if (data == NULL) {
        return 0;
    }
    length = (*env)->GetArrayLength(env, data);
    if (length > CM_PRIVATE_DATA_MAX) {
        char message[160];

        snprintf(message, sizeof(message), "%s: private data of %d bytes, at most %d fit", what, (int)length,
            CM_PRIVATE_DATA_MAX);
        ibex_throw_verbs(env, message, EINVAL);
        return -1;
    }
    (*env)->GetByteArrayRegion(env, data, 0, length, (jbyte *)buffer);
    return (int)length;
}

JNIEXPORT jlong JNICALL IBEX(cmCreateId)(JNIEnv *env, jclass cls UNUSED, jlong channel, jint port_space,
    jint qp_type)
{
    enum ibv_qp_type implied = port_space == RDMA_PS_UDP || port_space == RDMA_PS_IPOIB ? IBV_QPT_UD : IBV_QPT_RC;
    struct rdma_cm_id *id;
    char what[96];
    int ret;

    if (ibex_null_verbs(env, channel, "cmCreateId: channel")) {
        return 0;
    }
    /*
     * librdmacm 44 exports only rdma_create_id, which types the kernel id from the port space (UD for UDP
     * and IPoIB, RC otherwise). UC is allowed only with RDMA_PS_IB, on an RC-typed id: see IbexNative.
     */
    if ((enum ibv_qp_type)qp_type != implied && !(port_space == RDMA_PS_IB && qp_type == IBV_QPT_UC)) {
        snprintf(what, sizeof(what), "cmCreateId: QP type %d does not go with port space 0x%x", qp_type,
            (unsigned)port_space);
        ibex_throw_verbs(env, what, EINVAL);
        return 0;
    }
    ret = cm_channel_create_id(PTR(struct cm_channel, channel), (enum rdma_port_space)port_space, &id);
    if (ret != 0) {
        snprintf(what, sizeof(what), "cmCreateId: rdma_create_id (port space 0x%x)", (unsigned)port_space);
        ibex_throw_verbs(env, what, ret);
        return 0;
    }
    return HANDLE(id);
}

JNIEXPORT jint JNICALL IBEX(cmEventDetails)(JNIEnv *env, jclass cls UNUSED, jlong channel, jlongArray out,
    jbyteArray dgid, jbyteArray private_out)
{
    struct cm_event_copy last;
    jlong values[CM_EVENT_LENGTH];
    jsize room;

    if (ibex_null_verbs(env, channel, "cmEventDetails: channel")
        || ibex_short_array(env, out, CM_EVENT_LENGTH, "cmEventDetails: out")
        || ibex_short_array(env, dgid, 16, "cmEventDetails: dgid")
        || ibex_short_array(env, private_out, 0, "cmEventDetails: privateData")) {
        return -1;
    }
    cm_channel_last(PTR(struct cm_channel, channel), &last);
    if (last.event < 0) {
        ibex_throw_verbs(env, "cmEventDetails: no event was read from this channel yet", EINVAL);
        return -1;
    }
    memset(values, 0, sizeof(values));
    values[CM_STATUS] = last.status;
    values[CM_IS_UD] = last.is_ud;
    if (last.is_ud) {
        values[CM_QP_NUM] = last.ud.qp_num;
        values[CM_QKEY] = last.ud.qkey;
        ibex_ah_values(values + CM_AH, &last.ud.ah_attr);
        (*env)->SetByteArrayRegion(env, dgid, 0, 16, (const jbyte *)last.ud.ah_attr.grh.dgid.raw);
    } else {
        values[CM_RESPONDER_RESOURCES] = last.conn.responder_resources;
        values[CM_INITIATOR_DEPTH] = last.conn.initiator_depth;
        values[CM_RETRY_COUNT] = last.conn.retry_count;
        values[CM_RNR_RETRY_COUNT] = last.conn.rnr_retry_count;
        values[CM_QP_NUM] = last.conn.qp_num;
    }
    (*env)->SetLongArrayRegion(env, out, 0, CM_EVENT_LENGTH, values);
    room = (*env)->GetArrayLength(env, private_out);
    (*env)->SetByteArrayRegion(env, private_out, 0, room < last.private_data_len ? room : last.private_data_len,
        (const jbyte *)last.private_data);
    return last.private_data_len;
}

/* rdma_conn_param from IbexNative's long[]; private data into buffer. Returns 0, or -1 after throwing. */
static int conn_param(JNIEnv *env, jlongArray values, jbyteArray data, struct rdma_conn_param *param,
    uint8_t buffer[CM_PRIVATE_DATA_MAX], const char *what)
{
    jlong v[CONN_LENGTH];
    int length;

    if (ibex_short_array(env, values, CONN_LENGTH, what)) {
        return -1;
    }
    length = private_data(env, data, buffer, what);
    if (length < 0) {
        return -1;
    }
    (*env)->GetLongArrayRegion(env, values, 0, CONN_LENGTH, v);
    memset(param, 0, sizeof(*param));
    param->responder_resources = (uint8_t)v[CONN_RESPONDER_RESOURCES];
    param->initiator_depth = (uint8_t)v[CONN_INITIATOR_DEPTH];
    param->flow_control = (uint8_t)v[CONN_FLOW_CONTROL];
    param->retry_count = (uint8_t)v[CONN_RETRY_COUNT];
    param->rnr_retry_count = (uint8_t)v[CONN_RNR_RETRY_COUNT];
    param->srq = (uint8_t)v[CONN_SRQ];
    param->qp_num = (uint32_t)v[CONN_QP_NUM];
    param->private_data = length > 0 ? buffer : NULL;
    param->private_data_len = (uint8_t)length;
    return 0;
}

JNIEXPORT void JNICALL IBEX(cmConnect)(JNIEnv *env, jclass cls UNUSED, jlong handle, jlongArray values,
    jbyteArray data)
{
    struct rdma_cm_id *id = ibex_cm_id(env, handle, 1, "cmConnect");
    uint8_t buffer[CM_PRIVATE_DATA_MAX];
    struct rdma_conn_param param;

    if (id == NULL || conn_param(env, values, data, &param, buffer, "cmConnect") != 0) {
        return;
    }
    if (rdma_connect(id, &param) != 0) {
        ibex_throw_verbs(env, "cmConnect: rdma_connect", errno);
    }
}

JNIEXPORT void JNICALL IBEX(cmAccept)(JNIEnv *env, jclass cls UNUSED, jlong handle, jlongArray values,
    jbyteArray data)
{
    struct rdma_cm_id *id = ibex_cm_id(env, handle, 1, "cmAccept");
    uint8_t buffer[CM_PRIVATE_DATA_MAX];
    struct rdma_conn_param param;

    if (id == NULL || conn_param(env, values, data, &param, buffer, "cmAccept") != 0) {
        return;
    }
    if (rdma_accept(id, &param) != 0) {
        ibex_throw_verbs(env, "cmAccept: rdma_accept", errno);
    }
}

JNIEXPORT void JNICALL IBEX(cmReject)(JNIEnv *env, jclass cls UNUSED, jlong handle, jbyteArray data)
{
    struct rdma_cm_id *id = ibex_cm_id(env, handle, 0, "cmReject");
    uint8_t buffer[CM_PRIVATE_DATA_MAX];
    int length;

    if (id == NULL) {
        return;
    }
    length = private_data(env, data, buffer, "cmReject");
    if (length >= 0 && rdma_reject(id, length > 0 ? buffer : NULL, (uint8_t)length) != 0) {
        ibex_throw_verbs(env, "cmReject: rdma_reject", errno);
    }
}

JNIEXPORT jint JNICALL IBEX(cmPortNum)(JNIEnv *env, jclass cls UNUSED, jlong handle)
{
    struct rdma_cm_id *id = ibex_cm_id(env, handle, 0, "cmPortNum");

    return id == NULL ? -1 : id->port_num;
}

JNIEXPORT jbyteArray JNICALL IBEX(cmAddress)(JNIEnv *env, jclass cls UNUSED, jlong handle, jboolean remote)
{
    struct rdma_cm_id *id = ibex_cm_id(env, handle, 0, "cmAddress");
    const struct sockaddr *address;
    uint8_t bytes[20];
    jsize length;
    jbyteArray result;

    if (id == NULL) {
        return NULL;
    }
    address = remote ? rdma_get_peer_addr(id) : rdma_get_local_addr(id);
    /* family in host order, then the port as the sockaddr holds it (network order), then the address */
    memcpy(bytes, &address->sa_family, 2);
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)address;

        memcpy(bytes + 2, &in->sin_port, 2);
        memcpy(bytes + 4, &in->sin_addr, 4);
        length = 8;
    } else if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)address;

        memcpy(bytes + 2, &in6->sin6_port, 2);
        memcpy(bytes + 4, &in6->sin6_addr, 16);
        length = 20;
    } else if (address->sa_family == AF_UNSPEC) {
        length = 0;
    } else {
        char message[96];

        snprintf(message, sizeof(message), "cmAddress: address family %d is neither IPv4 nor IPv6",
            address->sa_family);
        ibex_throw_verbs(env, message, EAFNOSUPPORT);
        return NULL;
    }
    result = (*env)->NewByteArray(env, length);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, length, (const jbyte *)bytes);
    }
    return result;
}
