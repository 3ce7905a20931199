/*
 * IbexNative's versions, and the argument checks and ah_attr conversions its other files share.
 */
#include "ibex_native.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

JNIEXPORT jint JNICALL IBEX(version)(JNIEnv *env UNUSED, jclass cls UNUSED)
{
    return IBEX_NATIVE_VERSION;
}

JNIEXPORT jstring JNICALL IBEX(projectVersion)(JNIEnv *env, jclass cls UNUSED)
{
    return (*env)->NewStringUTF(env, IBEX_PROJECT_VERSION);
}

struct rdma_cm_id *ibex_cm_id(JNIEnv *env, jlong handle, int need_device, const char *what)
{
    const char *reason = cm_id_unusable(handle, need_device);
    char message[256];

    if (reason == NULL) {
        return PTR(struct rdma_cm_id, handle);
    }
    snprintf(message, sizeof(message), "%s: %s", what, reason);
    ibex_throw_verbs(env, message, EINVAL);
    return NULL;
}

int ibex_short_array(JNIEnv *env, jarray array, jsize length, const char *what)
{
    char message[160];

    if (array != NULL && (*env)->GetArrayLength(env, array) >= length) {
        return 0;
    }
    snprintf(message, sizeof(message), "%s: needs an array of at least %d elements, got %s", what, (int)length,
        array == NULL ? "null" : "a shorter one");
    ibex_throw_verbs(env, message, EINVAL);
    return 1;
}

void ibex_ah_values(jlong *out, const struct ibv_ah_attr *ah)
{
    out[AH_DLID] = ah->dlid;
    out[AH_SL] = ah->sl;
    out[AH_SRC_PATH_BITS] = ah->src_path_bits;
    out[AH_STATIC_RATE] = ah->static_rate;
    out[AH_IS_GLOBAL] = ah->is_global;
    out[AH_PORT_NUM] = ah->port_num;
    out[AH_FLOW_LABEL] = ah->grh.flow_label;
    out[AH_SGID_INDEX] = ah->grh.sgid_index;
    out[AH_HOP_LIMIT] = ah->grh.hop_limit;
    out[AH_TRAFFIC_CLASS] = ah->grh.traffic_class;
}

void ibex_ah_attr(struct ibv_ah_attr *ah, const jlong *values, const jbyte *dgid)
{
    memset(ah, 0, sizeof(*ah));
    ah->dlid = (uint16_t)values[AH_DLID];
    ah->sl = (uint8_t)values[AH_SL];
    ah->src_path_bits = (uint8_t)values[AH_SRC_PATH_BITS];
    ah->static_rate = (uint8_t)values[AH_STATIC_RATE];
    ah->is_global = (uint8_t)values[AH_IS_GLOBAL];
    ah->port_num = (uint8_t)values[AH_PORT_NUM];
    ah->grh.flow_label = (uint32_t)values[AH_FLOW_LABEL];
    ah->grh.sgid_index = (uint8_t)values[AH_SGID_INDEX];
    ah->grh.hop_limit = (uint8_t)values[AH_HOP_LIMIT];
    ah->grh.traffic_class = (uint8_t)values[AH_TRAFFIC_CLASS];
    memcpy(ah->grh.dgid.raw, dgid, sizeof(ah->grh.dgid.raw));
}
