/*
 * The event channel handle both JNI classes see: librdmacm's channel plus a copy of what the last event
 * carried. DiSNI's Java acks every event inside _getCmEvent, and the ack frees the event's private data and
 * parameters, so the copy is what IbexNative.cmEventDetails reads. Also tracks which rdma_cm ids are live, so
 * a destroyed id (DiSNI's destroyEp leaves its Java object open) is refused instead of freed twice.
 */
#ifndef IBEX_CM_CHANNEL_H
#define IBEX_CM_CHANNEL_H

#include <pthread.h>
#include <rdma/rdma_cma.h>
#include <stdint.h>

/* rdma_conn_param and rdma_ud_param carry at most 255 bytes (private_data_len is a uint8_t). */
#define CM_PRIVATE_DATA_MAX 255

struct cm_event_copy
{
    int event;  /* enum rdma_cm_event_type, -1 before the first event */
    int status;
    int is_ud;  /* the parameters are ud, not conn */
    struct rdma_conn_param conn; /* private_data pointer cleared: the bytes are below */
    struct rdma_ud_param ud;     /* likewise */
    uint8_t private_data_len;
    uint8_t private_data[CM_PRIVATE_DATA_MAX];
};

struct cm_channel
{
    struct rdma_event_channel *events;
    pthread_mutex_t lock; /* guards last: one thread may poll while another reads the details */
    struct cm_event_copy last;
};

/* A new channel with a non-blocking fd, or NULL with errno set. */
struct cm_channel *cm_channel_create(void);

void cm_channel_destroy(struct cm_channel *channel);

/*
 * Waits up to timeout_ms (-1: forever) for one event, keeps a copy of its details, acks it. Writes the
 * listening id (CONNECT_REQUEST only, else NULL) and the event's id. Returns the event type, -1 when no event
 * came in time, or -errno when polling or reading the channel failed. The id a CONNECT_REQUEST creates is
 * tracked as live from here on.
 */
int cm_channel_next(struct cm_channel *channel, int timeout_ms, struct rdma_cm_id **listen_id,
    struct rdma_cm_id **id);

/* Copies the last event's details into out. */
void cm_channel_last(struct cm_channel *channel, struct cm_event_copy *out);

/* rdma_create_id on the channel with the port space; the id is tracked as live. Returns 0 or -errno. */
int cm_channel_create_id(struct cm_channel *channel, enum rdma_port_space ps, struct rdma_cm_id **id);

/* How many live ids report on the channel: destroying it under them would leave them a freed channel. */
int cm_channel_ids(struct cm_channel *channel);

/* Nonzero when id was created here and not destroyed yet. */
int cm_id_live(struct rdma_cm_id *id);

/*
 * Destroys the id, first its QP if it still has one (rdma_destroy_id leaves the QP behind), or the whole
 * endpoint (rdma_destroy_ep) when endpoint is set. Returns 0, -EINVAL when the id is not live, or -errno.
 */
int cm_id_destroy(struct rdma_cm_id *id, int endpoint);

#endif
