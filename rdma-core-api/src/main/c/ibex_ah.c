/*
 * IbexNative's address handles, which UD sends name in wr.ud.ah.
 */
#include "ibex_native.h"

#include <errno.h>
#include <stdio.h>

JNIEXPORT jlong JNICALL IBEX(createAh)(JNIEnv *env, jclass cls UNUSED, jlong pd, jlongArray values, jbyteArray dgid)
{
    struct ibv_ah_attr attr;
    jlong v[AH_ATTR_LENGTH];
    jbyte gid[16];
    struct ibv_ah *ah;

    if (ibex_null_verbs(env, pd, "createAh: pd") || ibex_short_array(env, values, AH_ATTR_LENGTH, "createAh: ah")
        || ibex_short_array(env, dgid, sizeof(gid), "createAh: dgid")) {
        return 0;
    }
    (*env)->GetLongArrayRegion(env, values, 0, AH_ATTR_LENGTH, v);
    (*env)->GetByteArrayRegion(env, dgid, 0, sizeof(gid), gid);
    ibex_ah_attr(&attr, v, gid);
    ah = ibv_create_ah(PTR(struct ibv_pd, pd), &attr);
    if (ah == NULL) {
        char what[96];

        snprintf(what, sizeof(what), "createAh: ibv_create_ah (port %d, global %d, sgid index %d)", attr.port_num,
            attr.is_global, attr.grh.sgid_index);
        ibex_throw_verbs(env, what, errno);
        return 0;
    }
    return HANDLE(ah);
}

JNIEXPORT void JNICALL IBEX(destroyAh)(JNIEnv *env, jclass cls UNUSED, jlong ah)
{
    int ret;

    if (ibex_null_verbs(env, ah, "destroyAh: ah")) {
        return;
    }
    ret = ibv_destroy_ah(PTR(struct ibv_ah, ah));
    if (ret != 0) {
        ibex_throw_verbs(env, "destroyAh: ibv_destroy_ah", ret);
    }
}
