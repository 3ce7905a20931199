/*
 * Protection domains, memory regions and completion channels, for both JNI classes: each call is one static
 * body, entered from DiSNI's NativeDispatcher (IOException on failure) and from IbexNative (VerbsException).
 */
#include "ibex_native.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

/* Nonzero after throwing when handle is null. */
static int null_handle(JNIEnv *env, jlong handle, const char *what, int verbs)
{
    return handle == 0 ? ibex_throw_null_handle(env, what, verbs) : 0;
}

/* 0, or -errno after throwing "<what>: <strerror(ret)>" when a destroy call returned ret != 0. */
static jint destroyed(JNIEnv *env, int ret, const char *what, int verbs)
{
    return ret == 0 ? 0 : ibex_throw_either(env, verbs, what, ret);
}

/* The handle of a created object, or after throwing with errno what the caller returns on failure. */
static jlong created(JNIEnv *env, void *object, const char *what, int verbs)
{
    if (object == NULL) {
        ibex_throw_either(env, verbs, what, errno);
        return verbs ? 0 : -1;
    }
    return HANDLE(object);
}

static jlong alloc_pd(JNIEnv *env, jlong context, int verbs)
{
    if (null_handle(env, context, "ibv_alloc_pd: context", verbs)) {
        return verbs ? 0 : -1;
    }
    return created(env, ibv_alloc_pd(PTR(struct ibv_context, context)), "ibv_alloc_pd", verbs);
}

static jint dealloc_pd(JNIEnv *env, jlong pd, int verbs)
{
    if (null_handle(env, pd, "ibv_dealloc_pd", verbs)) {
        return -EINVAL;
    }
    return destroyed(env, ibv_dealloc_pd(PTR(struct ibv_pd, pd)), "ibv_dealloc_pd (MRs or QPs still use it?)", verbs);
}

/* ibv_reg_mr; the keys and the kernel handle go to keys[0..2]. Returns the ibv_mr*, or NULL after throwing. */
static struct ibv_mr *reg_mr(JNIEnv *env, jlong pd, jlong address, size_t length, jint access, uint32_t keys[3],
    int verbs)
{
    struct ibv_mr *mr;
    char what[96];

    if (null_handle(env, pd, "ibv_reg_mr: pd", verbs)) {
        return NULL;
    }
    mr = ibv_reg_mr(PTR(struct ibv_pd, pd), PTR(void, address), length, access);
    if (mr == NULL) {
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
    if (!null_handle(env, mr, "ibv_dereg_mr", verbs)) {
        destroyed(env, ibv_dereg_mr(PTR(struct ibv_mr, mr)), "ibv_dereg_mr", verbs);
    }
}

static jlong create_comp_channel(JNIEnv *env, jlong context, int verbs)
{
    struct ibv_comp_channel *channel;
    int flags;
    int err;

    if (null_handle(env, context, "ibv_create_comp_channel: context", verbs)) {
        return verbs ? 0 : -1;
    }
    channel = ibv_create_comp_channel(PTR(struct ibv_context, context));
    if (channel == NULL) {
        return created(env, NULL, "ibv_create_comp_channel", verbs);
    }
    /* Non-blocking, so a timed wait for a CQ event holds even when another thread took the event. */
    flags = fcntl(channel->fd, F_GETFL);
    if (flags >= 0 && fcntl(channel->fd, F_SETFL, flags | O_NONBLOCK) == 0) {
        return HANDLE(channel);
    }
    err = errno;
    ibv_destroy_comp_channel(channel);
    errno = err;
    return created(env, NULL, "ibv_create_comp_channel: O_NONBLOCK", verbs);
}

static jint destroy_comp_channel(JNIEnv *env, jlong channel, int verbs)
{
    if (null_handle(env, channel, "ibv_destroy_comp_channel", verbs)) {
        return -EINVAL;
    }
    return destroyed(env, ibv_destroy_comp_channel(PTR(struct ibv_comp_channel, channel)),
        "ibv_destroy_comp_channel (CQs still use it?)", verbs);
}

/* ---- the entry points: DiSNI's NativeDispatcher (IOException) and IbexNative's (VerbsException) ---- */

JNIEXPORT jlong JNICALL DISNI(allocPd)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    return alloc_pd(env, context, 0);
}

JNIEXPORT jlong JNICALL IBEX(allocPd)(JNIEnv *env, jclass cls UNUSED, jlong context)
{
    return alloc_pd(env, context, 1);
}

JNIEXPORT jint JNICALL DISNI(deallocPd)(JNIEnv *env, jobject self UNUSED, jlong pd)
{
    return dealloc_pd(env, pd, 0);
}

JNIEXPORT void JNICALL IBEX(deallocPd)(JNIEnv *env, jclass cls UNUSED, jlong pd)
{
    dealloc_pd(env, pd, 1);
}

JNIEXPORT void JNICALL DISNI(deregMr)(JNIEnv *env, jobject self UNUSED, jlong mr)
{
    dereg_mr(env, mr, 0);
}

JNIEXPORT jlong JNICALL DISNI(createCompChannel)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    return create_comp_channel(env, context, 0);
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

JNIEXPORT jlong JNICALL IBEX(createCompChannel)(JNIEnv *env, jclass cls UNUSED, jlong context)
{
    return create_comp_channel(env, context, 1);
}

JNIEXPORT void JNICALL IBEX(deregMr)(JNIEnv *env, jclass cls UNUSED, jlong mr)
{
    dereg_mr(env, mr, 1);
}

JNIEXPORT jint JNICALL DISNI(destroyCompChannel)(JNIEnv *env, jobject self UNUSED, jlong channel)
{
    return destroy_comp_channel(env, channel, 0);
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

JNIEXPORT void JNICALL IBEX(destroyCompChannel)(JNIEnv *env, jclass cls UNUSED, jlong channel)
{
    destroy_comp_channel(env, channel, 1);
}
