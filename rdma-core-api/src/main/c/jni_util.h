/* Shared JNI helpers: error reporting and pointer checks. Policy lives in Java; C only reports. */
#ifndef IBEX_JNI_UTIL_H
#define IBEX_JNI_UTIL_H

#include <jni.h>
#include <stdint.h>

/* A Java long holding a C pointer, and back. */
#define PTR(type, handle) ((type *)(intptr_t)(handle))
#define HANDLE(ptr) ((jlong)(intptr_t)(ptr))

/*
 * Throws java.io.IOException "<what>: <strerror(err)> (errno <err>)". Accepts a positive or negative
 * errno (rxe and some librdmacm paths return -errno). Returns -abs(err) so callers can `return`.
 */
int ibex_throw_io(JNIEnv *env, const char *what, int err);

/*
 * For ibex's own JNI class: throws io.ibex.rdma.verbs.VerbsException(errno, "<what>: <strerror>").
 * Returns -abs(err).
 */
int ibex_throw_verbs(JNIEnv *env, const char *what, int err);

/* Throws io.ibex.rdma.verbs.PostException(errno, badIndex, "<what>: <strerror>"). Returns -abs(err). */
int ibex_throw_post(JNIEnv *env, const char *what, int err, int bad_index);

/* Throws java.io.IOException with the message as given. Returns -EINVAL. */
int ibex_throw_msg(JNIEnv *env, const char *message);

/*
 * For the calls both JNI classes share: ibex_throw_verbs when verbs is nonzero, else ibex_throw_io. Returns
 * -abs(err).
 */
int ibex_throw_either(JNIEnv *env, int verbs, const char *what, int err);

/* Throws message as is: VerbsException(EINVAL) when verbs is nonzero, else IOException. Returns -EINVAL. */
int ibex_throw_text(JNIEnv *env, int verbs, const char *message);

/* Throws "<what>: null handle": VerbsException(EINVAL) when verbs is nonzero, else IOException. Returns 1. */
int ibex_throw_null_handle(JNIEnv *env, const char *what, int verbs);

/*
 * Throws IOException if handle is 0 ("<what>: null handle"); returns nonzero when it threw. Inline: every post
 * and poll checks its handles, and a function call would cost more than the check.
 */
static inline int ibex_null_handle(JNIEnv *env, jlong handle, const char *what)
{
    return handle == 0 ? ibex_throw_null_handle(env, what, 0) : 0;
}

/* As ibex_null_handle, for ibex's own JNI class: throws VerbsException(EINVAL). */
static inline int ibex_null_verbs(JNIEnv *env, jlong handle, const char *what)
{
    return handle == 0 ? ibex_throw_null_handle(env, what, 1) : 0;
}

#endif
