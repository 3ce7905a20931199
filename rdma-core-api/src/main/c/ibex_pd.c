/*
 * Protection domains, memory regions and completion channels, for both JNI classes: each call is one static
 * body, entered from DiSNI's NativeDispatcher (IOException on failure) and from IbexNative (VerbsException).
 */
#include "ibex_native.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

static jlong alloc_pd(JNIEnv *env, jlong context, int verbs)
{
    struct ibv_pd *pd;

    if (context == 0) {
        ibex_throw_null_handle(env, "ibv_alloc_pd: context", verbs);
        return verbs ? 0 : -1;
    }
    pd = ibv_alloc_pd(PTR(struct ibv_context, context));
    if (pd == NULL) {
        ibex_throw_either(env, verbs, "ibv_alloc_pd", errno);
        return verbs ? 0 : -1;
    }
    return HANDLE(pd);
}

static jint dealloc_pd(JNIEnv *env, jlong pd, int verbs)
{
    int ret;

    if (pd == 0) {
        ibex_throw_null_handle(env, "ibv_dealloc_pd", verbs);
        return -EINVAL;
    }
    ret = ibv_dealloc_pd(PTR(struct ibv_pd, pd));
    return ret == 0 ? 0 : ibex_throw_either(env, verbs, "ibv_dealloc_pd (MRs or QPs still use it?)", ret);
}

/* ibv_reg_mr; the keys and the kernel handle go to keys[0..2]. Returns the ibv_mr*, or 0 after throwing. */
static struct ibv_mr *reg_mr(JNIEnv *env, jlong pd, jlong address, size_t length, jint access, uint32_t keys[3],
    int verbs)
{
    struct ibv_mr *mr;

    if (pd == 0) {
        ibex_throw_null_handle(env, "ibv_reg_mr: pd", verbs);
        return NULL;
    }
    mr = ibv_reg_mr(PTR(struct ibv_pd, pd), PTR(void, address), length, access);
    if (mr == NULL) {
        char what[96];

        snprintf(what, sizeof(what), "ibv_reg_mr (length %zu, access 0x%x)", length, (unsigned)access);
        ibex_throw_either(env, verbs, what, errno);
        return NULL;
    }
    keys[0] = mr->lkey;
    keys[1] = mr->rkey;
    keys[2] = mr->handle;
    return mr;
}

static void dereg_mr(JNIEnv *env, jlong mr, int verbs)
{
    int ret;

    if (mr == 0) {
        ibex_throw_null_handle(env, "ibv_dereg_mr", verbs);
        return;
    }
    ret = ibv_dereg_mr(PTR(struct ibv_mr, mr));
    if (ret != 0) {
        ibex_throw_either(env, verbs, "ibv_dereg_mr", ret);
    }
}

static jlong create_comp_channel(JNIEnv *env, jlong context, int verbs)
{
    struct ibv_comp_channel *channel;
    int flags;

    if (context == 0) {
        ibex_throw_null_handle(env, "ibv_create_comp_channel: context", verbs);
        return verbs ? 0 : -1;
    }
    channel = ibv_create_comp_channel(PTR(struct ibv_context, context));
    if (channel == NULL) {
        ibex_throw_either(env, verbs, "ibv_create_comp_channel", errno);
        return verbs ? 0 : -1;
    }
    /* Non-blocking, so a timed wait for a CQ event holds even when another thread took the event. */
    flags = fcntl(channel->fd, F_GETFL);
    if (flags < 0 || fcntl(channel->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        int err = errno;

        ibv_destroy_comp_channel(channel);
        ibex_throw_either(env, verbs, "ibv_create_comp_channel: O_NONBLOCK", err);
        return verbs ? 0 : -1;
    }
    return HANDLE(channel);
}

static jint destroy_comp_channel(JNIEnv *env, jlong channel, int verbs)
{
    int ret;

    if (channel == 0) {
        ibex_throw_null_handle(env, "ibv_destroy_comp_channel", verbs);
        return -EINVAL;
    }
    ret = ibv_destroy_comp_channel(PTR(struct ibv_comp_channel, channel));
    return ret == 0 ? 0 : ibex_throw_either(env, verbs, "ibv_destroy_comp_channel (CQs still use it?)", ret);
}

/* ---- DiSNI's NativeDispatcher ---- */

JNIEXPORT jlong JNICALL DISNI(allocPd)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    return alloc_pd(env, context, 0);
}

JNIEXPORT jint JNICALL DISNI(deallocPd)(JNIEnv *env, jobject self UNUSED, jlong pd)
{
    return dealloc_pd(env, pd, 0);
}

JNIEXPORT jlong JNICALL DISNI(regMr)(JNIEnv *env, jobject self UNUSED, jlong pd, jlong address, jint length,
    jint access, jlong lkey_out, jlong rkey_out, jlong handle_out)
{
    uint32_t keys[3];
    struct ibv_mr *mr;

    if (ibex_null_handle(env, lkey_out, "ibv_reg_mr: lkey address")
        || ibex_null_handle(env, rkey_out, "ibv_reg_mr: rkey address")
        || ibex_null_handle(env, handle_out, "ibv_reg_mr: handle address")) {
        return -1;
    }
    mr = reg_mr(env, pd, address, (size_t)(uint32_t)length, access, keys, 0);
    if (mr == NULL) {
        return -1;
    }
    *PTR(uint32_t, lkey_out) = keys[0];
    *PTR(uint32_t, rkey_out) = keys[1];
    *PTR(uint32_t, handle_out) = keys[2];
    return HANDLE(mr);
}

JNIEXPORT void JNICALL DISNI(deregMr)(JNIEnv *env, jobject self UNUSED, jlong mr)
{
    dereg_mr(env, mr, 0);
}

JNIEXPORT jlong JNICALL DISNI(createCompChannel)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    return create_comp_channel(env, context, 0);
}

JNIEXPORT jint JNICALL DISNI(destroyCompChannel)(JNIEnv *env, jobject self UNUSED, jlong channel)
{
    return destroy_comp_channel(env, channel, 0);
}

/* ---- IbexNative ---- */

JNIEXPORT jlong JNICALL IBEX(allocPd)(JNIEnv *env, jclass cls UNUSED, jlong context)
{
    return alloc_pd(env, context, 1);
}

JNIEXPORT void JNICALL IBEX(deallocPd)(JNIEnv *env, jclass cls UNUSED, jlong pd)
{
    dealloc_pd(env, pd, 1);
}

JNIEXPORT jlong JNICALL IBEX(regMr)(JNIEnv *env, jclass cls UNUSED, jlong pd, jlong address, jlong length,
    jint access, jintArray keys_out)
{
    uint32_t keys[3];
    struct ibv_mr *mr;

    if (ibex_short_array(env, keys_out, 2, "ibv_reg_mr: keys")) {
        return 0;
    }
    mr = reg_mr(env, pd, address, (size_t)length, access, keys, 1);
    if (mr == NULL) {
        return 0;
    }
    (*env)->SetIntArrayRegion(env, keys_out, 0, 2, (const jint *)keys);
    return HANDLE(mr);
}

JNIEXPORT void JNICALL IBEX(deregMr)(JNIEnv *env, jclass cls UNUSED, jlong mr)
{
    dereg_mr(env, mr, 1);
}

JNIEXPORT jlong JNICALL IBEX(createCompChannel)(JNIEnv *env, jclass cls UNUSED, jlong context)
{
    return create_comp_channel(env, context, 1);
}

JNIEXPORT void JNICALL IBEX(destroyCompChannel)(JNIEnv *env, jclass cls UNUSED, jlong channel)
{
    destroy_comp_channel(env, channel, 1);
}
