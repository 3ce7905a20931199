/*
 * DiSNI's start-up checks: the library version and the struct sizes and offsets its Java writes and reads
 * (it takes strides from these, so they must come from the very headers the verbs calls use).
 */
#include "disni_native.h"

#include <netinet/in.h>
#include <stddef.h>

JNIEXPORT jint JNICALL DISNI(getVersion)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return DISNI_JNI_VERSION;
}

JNIEXPORT jint JNICALL DISNI(getSockAddrInSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return sizeof(struct sockaddr_in);
}

JNIEXPORT jint JNICALL DISNI(getIbvRecvWRSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return sizeof(struct ibv_recv_wr);
}

JNIEXPORT jint JNICALL DISNI(getIbvSendWRSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return sizeof(struct ibv_send_wr);
}

JNIEXPORT jint JNICALL DISNI(getIbvSgeSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return sizeof(struct ibv_sge);
}

JNIEXPORT jint JNICALL DISNI(getIbvWCSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return sizeof(struct ibv_wc);
}

JNIEXPORT jint JNICALL DISNI(getRemoteAddressOffset)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return offsetof(struct ibv_send_wr, wr.rdma.remote_addr);
}

JNIEXPORT jint JNICALL DISNI(getRKeyOffset)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return offsetof(struct ibv_send_wr, wr.rdma.rkey);
}
