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

/* Throws IOException if handle is 0 ("<what>: null handle"); returns nonzero when it threw. */
int ibex_null_handle(JNIEnv *env, jlong handle, const char *what);

/* As ibex_null_handle, for ibex's own JNI class: throws VerbsException(EINVAL). */
int ibex_null_verbs(JNIEnv *env, jlong handle, const char *what);

#endif
