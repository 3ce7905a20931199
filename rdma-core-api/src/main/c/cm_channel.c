#include "cm_channel.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

/*
 * The live ids: a small array scanned linearly, guarded by one lock. Only connection management touches it
 * (a few calls per connection), never the data path.
 */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rdma_cm_id **live_ids;
static size_t live_count;
static size_t live_capacity;

static int live_add(struct rdma_cm_id *id)
{
    int ret = 0;

    pthread_mutex_lock(&live_lock);
    if (live_count == live_capacity) {
        size_t capacity = live_capacity == 0 ? 64 : live_capacity * 2;
        struct rdma_cm_id **grown = realloc(live_ids, capacity * sizeof(*grown));

        if (grown == NULL) {
            ret = -ENOMEM;
        } else {
            live_ids = grown;
            live_capacity = capacity;
        }
    }
    if (ret == 0) {
        live_ids[live_count++] = id;
    }
    pthread_mutex_unlock(&live_lock);
    return ret;
}

/* Removes id; returns nonzero when it was live. Removing first makes two racing destroys free it once. */
static int live_remove(struct rdma_cm_id *id)
{
    int found = 0;

    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < live_count; i++) {
        if (live_ids[i] == id) {
            live_ids[i] = live_ids[--live_count];
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&live_lock);
    return found;
}

int cm_id_live(struct rdma_cm_id *id)
{
    int found = 0;

    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < live_count && !found; i++) {
        found = live_ids[i] == id;
    }
    pthread_mutex_unlock(&live_lock);
    return found;
}

int cm_channel_ids(struct cm_channel *channel)
{
    int count = 0;

    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < live_count; i++) {
        count += live_ids[i]->channel == channel->events; /* live, so safe to read */
    }
    pthread_mutex_unlock(&live_lock);
    return count;
}

struct cm_channel *cm_channel_create(void)
{
    struct cm_channel *channel = calloc(1, sizeof(*channel));
    int flags;

    if (channel == NULL) {
        return NULL;
    }
    channel->events = rdma_create_event_channel();
    if (channel->events == NULL) {
        free(channel);
        return NULL;
    }
    /* Non-blocking: a poll wake-up whose event another thread took must not block rdma_get_cm_event. */
    flags = fcntl(channel->events->fd, F_GETFL);
    if (flags < 0 || fcntl(channel->events->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        int err = errno;

        rdma_destroy_event_channel(channel->events);
        free(channel);
        errno = err;
        return NULL;
    }
    pthread_mutex_init(&channel->lock, NULL);
    channel->last.event = -1;
    return channel;
}

void cm_channel_destroy(struct cm_channel *channel)
{
    rdma_destroy_event_channel(channel->events);
    pthread_mutex_destroy(&channel->lock);
    free(channel);
}

static int is_ud_event(const struct rdma_cm_event *event)
{
    /* librdmacm fills param.ud instead of param.conn for these events on UD ids (ucma_copy_ud_event). */
    if (event->id == NULL || event->id->qp_type != IBV_QPT_UD) {
        return 0;
    }
    return event->event == RDMA_CM_EVENT_CONNECT_REQUEST || event->event == RDMA_CM_EVENT_ESTABLISHED
        || event->event == RDMA_CM_EVENT_MULTICAST_JOIN;
}

static void keep_copy(struct cm_channel *channel, const struct rdma_cm_event *event)
{
    struct cm_event_copy *last = &channel->last;
    const void *data;
    uint8_t length;

    pthread_mutex_lock(&channel->lock);
    memset(last, 0, sizeof(*last));
    last->event = event->event;
    last->status = event->status;
    last->is_ud = is_ud_event(event);
    if (last->is_ud) {
        last->ud = event->param.ud;
        data = event->param.ud.private_data;
        length = event->param.ud.private_data_len;
        last->ud.private_data = NULL;
    } else {
        last->conn = event->param.conn;
        data = event->param.conn.private_data;
        length = event->param.conn.private_data_len;
        last->conn.private_data = NULL;
    }
    if (data != NULL) {
        last->private_data_len = length;
        memcpy(last->private_data, data, length);
    }
    pthread_mutex_unlock(&channel->lock);
}

int cm_channel_next(struct cm_channel *channel, int timeout_ms, struct rdma_cm_id **listen_id,
    struct rdma_cm_id **id)
{
    struct pollfd ready = { .fd = channel->events->fd, .events = POLLIN };
    struct rdma_cm_event *event;
    int type;
    int ret = poll(&ready, 1, timeout_ms);

    if (ret == 0 || (ret < 0 && errno == EINTR)) {
        return -1;
    }
    if (ret < 0) {
        return -errno;
    }
    if (rdma_get_cm_event(channel->events, &event) != 0) {
        return errno == EAGAIN ? -1 : -errno; /* EAGAIN: another thread took the event */
    }
    type = event->event;
    *listen_id = event->listen_id;
    *id = event->id;
    keep_copy(channel, event);
    if (type == RDMA_CM_EVENT_CONNECT_REQUEST && live_add(event->id) != 0) {
        /* Untracked, every later call would refuse the id: reject and drop it rather than leak it. */
        rdma_reject(event->id, NULL, 0);
        rdma_ack_cm_event(event);
        rdma_destroy_id(*id);
        return -ENOMEM;
    }
    rdma_ack_cm_event(event);
    return type;
}

void cm_channel_last(struct cm_channel *channel, struct cm_event_copy *out)
{
    pthread_mutex_lock(&channel->lock);
    *out = channel->last;
    pthread_mutex_unlock(&channel->lock);
}

int cm_channel_create_id(struct cm_channel *channel, enum rdma_port_space ps, struct rdma_cm_id **id)
{
    int ret;

    if (rdma_create_id(channel->events, id, channel, ps) != 0) {
        return -errno;
    }
    ret = live_add(*id);
    if (ret != 0) {
        rdma_destroy_id(*id);
    }
    return ret;
}

int cm_id_destroy(struct rdma_cm_id *id, int endpoint)
{
    if (!live_remove(id)) {
        return -EINVAL;
    }
    if (endpoint) {
        rdma_destroy_ep(id); /* destroys the QP too; returns nothing */
        return 0;
    }
    if (id->qp != NULL) {
        rdma_destroy_qp(id);
    }
    if (rdma_destroy_id(id) != 0) {
        return -errno;
    }
    return 0;
}
