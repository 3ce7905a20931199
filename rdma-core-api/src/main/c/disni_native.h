/*
 * Shared by the C files that serve DiSNI 2.1's com.ibm.disni.verbs.impl.NativeDispatcher (disni_*.c) and
 * the rdma_cm part of ibex's IbexNative (ibex_cm.c). Every handle crossing JNI is a C pointer as a jlong.
 */
#ifndef IBEX_DISNI_NATIVE_H
#define IBEX_DISNI_NATIVE_H

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <stddef.h>
#include <stdint.h>

#include "jni_util.h"

/* The native library version DiSNI 2.1's Java refuses to start without. */
#define DISNI_JNI_VERSION 32

/* A JNI entry point of DiSNI's NativeDispatcher: DISNI(getVersion) names _getVersion. */
#define DISNI(name) Java_com_ibm_disni_verbs_impl_NativeDispatcher__1##name

#define UNUSED __attribute__((unused))

/*
 * What _modifyQP reads at its attribute address. DiSNI's Java has no way to pass QP attributes (its
 * modifyQP passes 0, which the C refuses with an IOException); a caller that writes this image into a
 * direct buffer gets a real ibv_modify_qp.
 */
struct disni_modify_qp
{
    int32_t mask; /* enum ibv_qp_attr_mask bits */
    int32_t reserved;
    struct ibv_qp_attr attr;
};

/*
 * NULL when the rdma_cm id behind handle can be used, else why not: a null handle, an id this library never
 * created or already destroyed, or (need_device) an id that has no device yet. librdmacm dereferences
 * id->verbs without checking in rdma_resolve_route, rdma_connect, rdma_accept and rdma_disconnect, so those
 * calls must not reach it before an address was bound or resolved.
 */
const char *cm_id_unusable(jlong handle, int need_device);

/*
 * Index of bad in the work request list starting at first (next_offset: offsetof the next pointer), for
 * reporting which request ibv_post_send or ibv_post_recv refused; the list's length when bad is not in it.
 */
int wr_list_index(const void *first, const void *bad, size_t next_offset);

#endif
