/*
 * IbexNative's devices: the contexts librdmacm opened (the ones its ids report, so that verbs objects made
 * here and by rdma_cm share them), names, device/port/GID queries, and async events.
 */
#include "ibex_native.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

JNIEXPORT jlongArray JNICALL IBEX(contexts)(JNIEnv *env, jclass cls UNUSED)
{
    struct ibv_context **list;
    jlongArray result;
    int count = 0;

    list = rdma_get_devices(&count);
    if (list == NULL) {
        ibex_throw_verbs(env, "contexts: rdma_get_devices", errno);
        return NULL;
    }
    result = (*env)->NewLongArray(env, count);
    for (int i = 0; result != NULL && i < count; i++) {
        jlong handle = HANDLE(list[i]);

        (*env)->SetLongArrayRegion(env, result, i, 1, &handle);
    }
    rdma_free_devices(list); /* only the array: librdmacm keeps the contexts open for the process */
    return result;
}

JNIEXPORT jstring JNICALL IBEX(deviceName)(JNIEnv *env, jclass cls UNUSED, jlong context)
{
    if (ibex_null_verbs(env, context, "deviceName: context")) {
        return NULL;
    }
    return (*env)->NewStringUTF(env, ibv_get_device_name(PTR(struct ibv_context, context)->device));
}

JNIEXPORT jint JNICALL IBEX(transportType)(JNIEnv *env, jclass cls UNUSED, jlong context)
{
    if (ibex_null_verbs(env, context, "transportType: context")) {
        return -1;
    }
    return PTR(struct ibv_context, context)->device->transport_type;
}

/* ibv_query_device into attr; 0, or -1 after throwing. */
static int query_device(JNIEnv *env, jlong context, struct ibv_device_attr *attr, const char *what)
{
    int ret;

    if (ibex_null_verbs(env, context, what)) {
        return -1;
    }
    memset(attr, 0, sizeof(*attr));
    ret = ibv_query_device(PTR(struct ibv_context, context), attr);
    if (ret != 0) {
        ibex_throw_verbs(env, what, ret);
        return -1;
    }
    return 0;
}

JNIEXPORT jstring JNICALL IBEX(firmwareVersion)(JNIEnv *env, jclass cls UNUSED, jlong context)
{
    struct ibv_device_attr attr;

    if (query_device(env, context, &attr, "firmwareVersion: ibv_query_device") != 0) {
        return NULL;
    }
    attr.fw_ver[sizeof(attr.fw_ver) - 1] = '\0';
    return (*env)->NewStringUTF(env, attr.fw_ver);
}

JNIEXPORT jlongArray JNICALL IBEX(queryDevice)(JNIEnv *env, jclass cls UNUSED, jlong context)
{
    struct ibv_device_attr a;
    jlong v[DEV_ATTR_LENGTH];
    jlongArray result;

    if (query_device(env, context, &a, "queryDevice: ibv_query_device") != 0) {
        return NULL;
    }
    /* GUIDs stay as the device holds them (network byte order), as ibv_devinfo's raw bytes */
    v[DEV_NODE_GUID] = (jlong)a.node_guid;
    v[DEV_SYS_IMAGE_GUID] = (jlong)a.sys_image_guid;
    v[DEV_MAX_MR_SIZE] = (jlong)a.max_mr_size;
    v[DEV_PAGE_SIZE_CAP] = (jlong)a.page_size_cap;
    v[DEV_VENDOR_ID] = a.vendor_id;
    v[DEV_VENDOR_PART_ID] = a.vendor_part_id;
    v[DEV_HW_VER] = a.hw_ver;
    v[DEV_MAX_QP] = a.max_qp;
    v[DEV_MAX_QP_WR] = a.max_qp_wr;
    v[DEV_DEVICE_CAP_FLAGS] = a.device_cap_flags;
    v[DEV_MAX_SGE] = a.max_sge;
    v[DEV_MAX_SGE_RD] = a.max_sge_rd;
    v[DEV_MAX_CQ] = a.max_cq;
    v[DEV_MAX_CQE] = a.max_cqe;
    v[DEV_MAX_MR] = a.max_mr;
    v[DEV_MAX_PD] = a.max_pd;
    v[DEV_MAX_QP_RD_ATOM] = a.max_qp_rd_atom;
    v[DEV_MAX_EE_RD_ATOM] = a.max_ee_rd_atom;
    v[DEV_MAX_RES_RD_ATOM] = a.max_res_rd_atom;
    v[DEV_MAX_QP_INIT_RD_ATOM] = a.max_qp_init_rd_atom;
    v[DEV_MAX_EE_INIT_RD_ATOM] = a.max_ee_init_rd_atom;
    v[DEV_ATOMIC_CAP] = a.atomic_cap;
    v[DEV_MAX_EE] = a.max_ee;
    v[DEV_MAX_RDD] = a.max_rdd;
    v[DEV_MAX_MW] = a.max_mw;
    v[DEV_MAX_RAW_IPV6_QP] = a.max_raw_ipv6_qp;
    v[DEV_MAX_RAW_ETHY_QP] = a.max_raw_ethy_qp;
    v[DEV_MAX_MCAST_GRP] = a.max_mcast_grp;
    v[DEV_MAX_MCAST_QP_ATTACH] = a.max_mcast_qp_attach;
    v[DEV_MAX_TOTAL_MCAST_QP_ATTACH] = a.max_total_mcast_qp_attach;
    v[DEV_MAX_AH] = a.max_ah;
    v[DEV_MAX_FMR] = a.max_fmr;
    v[DEV_MAX_MAP_PER_FMR] = a.max_map_per_fmr;
    v[DEV_MAX_SRQ] = a.max_srq;
    v[DEV_MAX_SRQ_WR] = a.max_srq_wr;
    v[DEV_MAX_SRQ_SGE] = a.max_srq_sge;
    v[DEV_MAX_PKEYS] = a.max_pkeys;
    v[DEV_LOCAL_CA_ACK_DELAY] = a.local_ca_ack_delay;
    v[DEV_PHYS_PORT_CNT] = a.phys_port_cnt;
    result = (*env)->NewLongArray(env, DEV_ATTR_LENGTH);
    if (result != NULL) {
        (*env)->SetLongArrayRegion(env, result, 0, DEV_ATTR_LENGTH, v);
    }
    return result;
}

JNIEXPORT jlongArray JNICALL IBEX(queryPort)(JNIEnv *env, jclass cls UNUSED, jlong context, jint port)
{
    struct ibv_port_attr a;
    jlong v[PORT_ATTR_LENGTH];
    jlongArray result;
    int ret;

    if (ibex_null_verbs(env, context, "queryPort: context")) {
        return NULL;
    }
    memset(&a, 0, sizeof(a));
    ret = port < 1 || port > UINT8_MAX ? EINVAL : ibv_query_port(PTR(struct ibv_context, context), (uint8_t)port, &a);
    if (ret != 0) {
        char what[64];

        snprintf(what, sizeof(what), "queryPort: ibv_query_port (port %d)", port);
        ibex_throw_verbs(env, what, ret);
        return NULL;
    }
    v[PORT_STATE] = a.state;
    v[PORT_MAX_MTU] = a.max_mtu;
    v[PORT_ACTIVE_MTU] = a.active_mtu;
    v[PORT_GID_TBL_LEN] = a.gid_tbl_len;
    v[PORT_PORT_CAP_FLAGS] = a.port_cap_flags;
    v[PORT_MAX_MSG_SZ] = a.max_msg_sz;
    v[PORT_BAD_PKEY_CNTR] = a.bad_pkey_cntr;
    v[PORT_QKEY_VIOL_CNTR] = a.qkey_viol_cntr;
    v[PORT_PKEY_TBL_LEN] = a.pkey_tbl_len;
    v[PORT_LID] = a.lid;
    v[PORT_SM_LID] = a.sm_lid;
    v[PORT_LMC] = a.lmc;
    v[PORT_MAX_VL_NUM] = a.max_vl_num;
    v[PORT_SM_SL] = a.sm_sl;
    v[PORT_SUBNET_TIMEOUT] = a.subnet_timeout;
    v[PORT_INIT_TYPE_REPLY] = a.init_type_reply;
    v[PORT_ACTIVE_WIDTH] = a.active_width;
    v[PORT_ACTIVE_SPEED] = a.active_speed;
    v[PORT_PHYS_STATE] = a.phys_state;
    v[PORT_LINK_LAYER] = a.link_layer;
    v[PORT_FLAGS] = a.flags;
    v[PORT_PORT_CAP_FLAGS2] = a.port_cap_flags2;
    result = (*env)->NewLongArray(env, PORT_ATTR_LENGTH);
    if (result != NULL) {
        (*env)->SetLongArrayRegion(env, result, 0, PORT_ATTR_LENGTH, v);
    }
    return result;
}

/*
 * ibv_query_gid_ex for port and index: the GID and its type. 0, or -1 after throwing. (rdma-core 44 has no
 * public ibv_query_gid_type; the _ex call reports the type of the same entry.)
 */
static int query_gid(JNIEnv *env, jlong context, jint port, jint index, struct ibv_gid_entry *entry,
    const char *what)
{
    int ret;

    if (ibex_null_verbs(env, context, what)) {
        return -1;
    }
    if (port < 1 || index < 0) {
        ret = EINVAL;
    } else {
        memset(entry, 0, sizeof(*entry));
        ret = ibv_query_gid_ex(PTR(struct ibv_context, context), (uint32_t)port, (uint32_t)index, entry, 0);
    }
    if (ret != 0) {
        char message[96];

        snprintf(message, sizeof(message), "%s: ibv_query_gid_ex (port %d, GID index %d)", what, port, index);
        ibex_throw_verbs(env, message, ret);
        return -1;
    }
    return 0;
}

JNIEXPORT jbyteArray JNICALL IBEX(queryGid)(JNIEnv *env, jclass cls UNUSED, jlong context, jint port, jint index)
{
    struct ibv_gid_entry entry;
    jbyteArray result;

    if (query_gid(env, context, port, index, &entry, "queryGid") != 0) {
        return NULL;
    }
    result = (*env)->NewByteArray(env, sizeof(entry.gid.raw));
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, sizeof(entry.gid.raw), (const jbyte *)entry.gid.raw);
    }
    return result;
}

JNIEXPORT jint JNICALL IBEX(queryGidType)(JNIEnv *env, jclass cls UNUSED, jlong context, jint port, jint index)
{
    struct ibv_gid_entry entry;

    return query_gid(env, context, port, index, &entry, "queryGidType") != 0 ? -1 : (jint)entry.gid_type;
}

/* What an async event is about, as IbexNative.getAsyncEvent reports it. */
static jlong event_element(const struct ibv_async_event *event)
{
    switch (event->event_type) {
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_COMM_EST:
    case IBV_EVENT_SQ_DRAINED:
    case IBV_EVENT_PATH_MIG:
    case IBV_EVENT_PATH_MIG_ERR:
    case IBV_EVENT_QP_LAST_WQE_REACHED:
        return event->element.qp->qp_num;
    case IBV_EVENT_CQ_ERR:
        return HANDLE(event->element.cq);
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_SRQ_LIMIT_REACHED:
        return HANDLE(event->element.srq);
    case IBV_EVENT_WQ_FATAL:
        return HANDLE(event->element.wq);
    case IBV_EVENT_PORT_ACTIVE:
    case IBV_EVENT_PORT_ERR:
    case IBV_EVENT_LID_CHANGE:
    case IBV_EVENT_PKEY_CHANGE:
    case IBV_EVENT_SM_CHANGE:
    case IBV_EVENT_CLIENT_REREGISTER:
    case IBV_EVENT_GID_CHANGE:
        return event->element.port_num;
    default:
        return 0; /* IBV_EVENT_DEVICE_FATAL names no element */
    }
}

JNIEXPORT jint JNICALL IBEX(getAsyncEvent)(JNIEnv *env, jclass cls UNUSED, jlong handle, jint timeout_ms,
    jlongArray out)
{
    struct ibv_context *context = PTR(struct ibv_context, handle);
    struct ibv_async_event event;
    struct pollfd ready;
    jlong element;
    int flags;
    int ret;

    if (ibex_null_verbs(env, handle, "getAsyncEvent: context") || ibex_short_array(env, out, 1, "getAsyncEvent")) {
        return -1;
    }
    /* Non-blocking, so that the timeout holds even when another thread took the event poll(2) announced. */
    flags = fcntl(context->async_fd, F_GETFL);
    if (flags < 0 || (!(flags & O_NONBLOCK) && fcntl(context->async_fd, F_SETFL, flags | O_NONBLOCK) < 0)) {
        ibex_throw_verbs(env, "getAsyncEvent: O_NONBLOCK on the async fd", errno);
        return -1;
    }
    ready.fd = context->async_fd;
    ready.events = POLLIN;
    ready.revents = 0;
    ret = poll(&ready, 1, timeout_ms);
    if (ret < 0 && errno != EINTR) {
        ibex_throw_verbs(env, "getAsyncEvent: poll", errno);
        return -1;
    }
    if (ret <= 0 || ibv_get_async_event(context, &event) != 0) {
        return -1; /* no event in time, a signal, or another thread got it */
    }
    element = event_element(&event);
    ibv_ack_async_event(&event);
    (*env)->SetLongArrayRegion(env, out, 0, 1, &element);
    return event.event_type;
}
