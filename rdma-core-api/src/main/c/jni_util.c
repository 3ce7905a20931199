#include "jni_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errno_of(int err)
{
    int code = err < 0 ? -err : err;
    return code == 0 ? EIO : code;
}

int ibex_throw_io(JNIEnv *env, const char *what, int err)
{
    char message[256];
    int code = errno_of(err); /* 0 means a verb failed without setting errno: report EIO */

    snprintf(message, sizeof(message), "%s: %s (errno %d)", what, strerror(code), code);
    ibex_throw_msg(env, message);
    return -code;
}

int ibex_throw_verbs(JNIEnv *env, const char *what, int err)
{
    char message[256];
    int code = errno_of(err);
    jclass cls;
    jmethodID init;
    jstring text;
    jobject exception;

    if ((*env)->ExceptionCheck(env)) {
        return -code;
    }
    snprintf(message, sizeof(message), "%s: %s", what, strerror(code));
    cls = (*env)->FindClass(env, "io/ibex/rdma/verbs/VerbsException");
    if (cls == NULL) {
        return -code;
    }
    init = (*env)->GetMethodID(env, cls, "<init>", "(ILjava/lang/String;)V");
    text = init == NULL ? NULL : (*env)->NewStringUTF(env, message);
    exception = text == NULL ? NULL : (*env)->NewObject(env, cls, init, code, text);
    if (exception != NULL) {
        (*env)->Throw(env, (jthrowable)exception);
    }
    return -code;
}

int ibex_throw_post(JNIEnv *env, const char *what, int err, int bad_index)
{
    char message[256];
    int code = errno_of(err);
    jclass cls;
    jmethodID init;
    jstring text;
    jobject exception;

    if ((*env)->ExceptionCheck(env)) {
        return -code;
    }
    /* PostException's constructor appends the index and the errno */
    snprintf(message, sizeof(message), "%s: %s", what, strerror(code));
    cls = (*env)->FindClass(env, "io/ibex/rdma/verbs/PostException");
    if (cls == NULL) {
        return -code;
    }
    init = (*env)->GetMethodID(env, cls, "<init>", "(IILjava/lang/String;)V");
    text = init == NULL ? NULL : (*env)->NewStringUTF(env, message);
    exception = text == NULL ? NULL : (*env)->NewObject(env, cls, init, code, bad_index, text);
    if (exception != NULL) {
        (*env)->Throw(env, (jthrowable)exception);
    }
    return -code;
}

int ibex_throw_msg(JNIEnv *env, const char *message)
{
    jclass cls;

    if ((*env)->ExceptionCheck(env)) {
        return -EINVAL; /* keep the first exception: it names the real cause */
    }
    cls = (*env)->FindClass(env, "java/io/IOException");
    if (cls != NULL) {
        (*env)->ThrowNew(env, cls, message);
    }
    return -EINVAL;
}

/* The one wording of a null handle, for both exception types. */
int ibex_throw_null_handle(JNIEnv *env, const char *what, int verbs)
{
    char message[160];

    snprintf(message, sizeof(message), "%s: null handle (closed or never created)", what);
    ibex_throw_text(env, verbs, message);
    return 1;
}

int ibex_throw_either(JNIEnv *env, int verbs, const char *what, int err)
{
    return verbs ? ibex_throw_verbs(env, what, err) : ibex_throw_io(env, what, err);
}

int ibex_throw_text(JNIEnv *env, int verbs, const char *message)
{
    if (verbs) {
        ibex_throw_verbs(env, message, EINVAL);
    } else {
        ibex_throw_msg(env, message);
    }
    return -EINVAL;
}
