/*
 * What one verbs call costs through libibverbs: the C side of io.ibex.benchmarks.VerbsCallCost, in the same
 * procedure (read that class's comment) with the same sizes, timed with clock_gettime(CLOCK_MONOTONIC) as
 * System.nanoTime is. softroce/bench-calls.sh builds it on the host and runs it in the Soft-RoCE guest.
 *
 * usage: verbs_call_cost DEVICE GID_INDEX CYCLES
 */
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MESSAGE_LENGTH = 64, LIST_LENGTH = 16, LISTS = 4, RECEIVES = LIST_LENGTH * LISTS, EMPTY_POLLS = 1000 };

struct endpoint {
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_qp *qp;
    struct ibv_mr *mr;
    char buf[MESSAGE_LENGTH];
};

static void die(const char *what)
{
    perror(what);
    exit(1);
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void open_endpoint(struct ibv_context *ctx, struct endpoint *ep)
{
    const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    ep->pd = ibv_alloc_pd(ctx);
    ep->cq = ep->pd ? ibv_create_cq(ctx, 2 * RECEIVES, NULL, NULL, 0) : NULL;
    ep->mr = ep->cq ? ibv_reg_mr(ep->pd, ep->buf, sizeof ep->buf, access) : NULL;
    if (!ep->mr)
        die("pd, cq or mr");
    struct ibv_qp_init_attr init = {
        .send_cq = ep->cq, .recv_cq = ep->cq, .qp_type = IBV_QPT_RC,
        .cap = { .max_send_wr = RECEIVES, .max_recv_wr = RECEIVES, .max_send_sge = 1, .max_recv_sge = 1 },
    };
    ep->qp = ibv_create_qp(ep->pd, &init);
    if (!ep->qp)
        die("ibv_create_qp");
    struct ibv_qp_attr attr = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qp_access_flags = access };
    if (ibv_modify_qp(ep->qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
        die("modify to INIT");
}

static void connect_endpoint(struct ibv_context *ctx, int gid_index, struct endpoint *ep, struct endpoint *peer)
{
    struct ibv_port_attr port;
    union ibv_gid gid;
    if (ibv_query_port(ctx, 1, &port) || ibv_query_gid(ctx, 1, gid_index, &gid))
        die("query port or gid");
    struct ibv_qp_attr rtr = {
        .qp_state = IBV_QPS_RTR, .path_mtu = port.active_mtu, .dest_qp_num = peer->qp->qp_num,
        .max_dest_rd_atomic = 1, .min_rnr_timer = 12,
        .ah_attr = { .is_global = 1, .port_num = 1, .dlid = port.lid,
                     .grh = { .dgid = gid, .sgid_index = gid_index, .hop_limit = 1 } },
    };
    if (ibv_modify_qp(ep->qp, &rtr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                      IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
        die("modify to RTR");
    struct ibv_qp_attr rts = {
        .qp_state = IBV_QPS_RTS, .timeout = 14, .retry_cnt = 7, .rnr_retry = 7, .max_rd_atomic = 1,
    };
    if (ibv_modify_qp(ep->qp, &rts, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                      IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
        die("modify to RTS");
}

static void check(const struct ibv_wc *wc, const char *what)
{
    if (wc->status != IBV_WC_SUCCESS) {
        fprintf(stderr, "%s failed: %s (wr_id %llu)\n", what, ibv_wc_status_str(wc->status),
                (unsigned long long)wc->wr_id);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: verbs_call_cost DEVICE GID_INDEX CYCLES\n");
        return 2;
    }
    const int gid_index = atoi(argv[2]);
    const long cycles = atol(argv[3]);
    struct ibv_device **devices = ibv_get_device_list(NULL);
    struct ibv_context *ctx = NULL;
    for (int i = 0; devices && devices[i] && !ctx; i++)
        if (strcmp(ibv_get_device_name(devices[i]), argv[1]) == 0)
            ctx = ibv_open_device(devices[i]);
    if (!ctx) {
        fprintf(stderr, "no device %s\n", argv[1]);
        return 1;
    }
    static struct endpoint x, y;
    open_endpoint(ctx, &x);
    open_endpoint(ctx, &y);
    connect_endpoint(ctx, gid_index, &x, &y);
    connect_endpoint(ctx, gid_index, &y, &x);

    struct ibv_sge send_sge = { (uintptr_t)x.buf, MESSAGE_LENGTH, x.mr->lkey };
    struct ibv_sge recv_sge = { (uintptr_t)y.buf, MESSAGE_LENGTH, y.mr->lkey };
    struct ibv_recv_wr recv = { .sg_list = &recv_sge, .num_sge = 1 }, *bad_recv;
    struct ibv_send_wr list[LIST_LENGTH], *bad_send;
    memset(list, 0, sizeof list);
    for (int i = 0; i < LIST_LENGTH; i++) {
        list[i].opcode = IBV_WR_SEND;
        list[i].sg_list = &send_sge;
        list[i].num_sge = 1;
        list[i].next = i + 1 < LIST_LENGTH ? &list[i + 1] : NULL;
    }
    list[LIST_LENGTH - 1].send_flags = IBV_SEND_SIGNALED;
    struct ibv_wc wcs[LIST_LENGTH];

    long long post_recv = 0, post_list = 0, poll_one = 0, empty_poll = 0, clock_read = 0, measured = 0;
    for (long cycle = 0; cycle < cycles; cycle++) {
        const long long t0 = now_ns();
        for (int i = 0; i < RECEIVES; i++)
            if (ibv_post_recv(y.qp, &recv, &bad_recv))
                die("ibv_post_recv");
        const long long t1 = now_ns();
        for (int i = 0; i < LISTS; i++)
            if (ibv_post_send(x.qp, list, &bad_send))
                die("ibv_post_send");
        const long long t2 = now_ns();
        long long polls = 0;
        for (int received = 0; received < RECEIVES;) {
            const long long s = now_ns();
            const int n = ibv_poll_cq(y.cq, 1, wcs);
            const long long e = now_ns();
            if (n == 1) {
                check(&wcs[0], "receive");
                received++;
                polls += e - s;
            }
        }
        for (int lists = 0; lists < LISTS;) {
            const int n = ibv_poll_cq(x.cq, LIST_LENGTH, wcs);
            for (int i = 0; i < n; i++)
                check(&wcs[i], "SEND");
            lists += n;
        }
        const long long t3 = now_ns();
        for (int i = 0; i < EMPTY_POLLS; i++)
            ibv_poll_cq(y.cq, 1, wcs);
        const long long t4 = now_ns();
        for (int i = 0; i < EMPTY_POLLS; i++)
            now_ns();
        const long long t5 = now_ns();
        if (cycle >= cycles / 2) {
            post_recv += t1 - t0;
            post_list += t2 - t1;
            poll_one += polls;
            empty_poll += t4 - t3;
            clock_read += t5 - t4;
            measured++;
        }
    }
    printf("C:    empty poll %lld ns, poll returning one %lld ns, post one receive %lld ns, "
           "clock read %lld ns, post %d SENDs %lld ns (%lld cycles measured)\n",
           empty_poll / (measured * EMPTY_POLLS), poll_one / (measured * RECEIVES),
           post_recv / (measured * RECEIVES), clock_read / (measured * EMPTY_POLLS), LIST_LENGTH,
           post_list / (measured * LISTS), measured);

    ibv_destroy_qp(x.qp);
    ibv_destroy_qp(y.qp);
    ibv_dereg_mr(x.mr);
    ibv_dereg_mr(y.mr);
    ibv_destroy_cq(x.cq);
    ibv_destroy_cq(y.cq);
    ibv_dealloc_pd(x.pd);
    ibv_dealloc_pd(y.pd);
    ibv_close_device(ctx);
    ibv_free_device_list(devices);
    return 0;
}
