#include "jni_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ibex_throw_io(JNIEnv *env, const char *what, int err)
{
    char message[256];
    int code = err < 0 ? -err : err;

    if (code == 0) {
        code = EIO; /* a verb that failed without setting errno */
    }
    snprintf(message, sizeof(message), "%s: %s (errno %d)", what, strerror(code), code);
    ibex_throw_msg(env, message);
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

int ibex_null_handle(JNIEnv *env, jlong handle, const char *what)
{
    char message[160];

    if (handle != 0) {
        return 0;
    }
    snprintf(message, sizeof(message), "%s: null handle (closed or never created)", what);
    ibex_throw_msg(env, message);
    return 1;
}
