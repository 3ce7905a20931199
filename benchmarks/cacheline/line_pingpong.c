/*
 * The machine's floor for a round trip between two threads: two threads hand one 64-byte line back and forth
 * (each waits for the other's count in it, then writes its own), so a round trip is two transfers of one cache line
 * between the two CPUs and nothing else. Aeron IPC's ping-pong and ibex's cost this much plus their own work.
 * Build and run: gcc -O2 -pthread -o /tmp/line_pingpong benchmarks/cacheline/line_pingpong.c && /tmp/line_pingpong [ROUND_TRIPS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(64) volatile long line[8];

static long long now_nanos(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *pong(void *arg)
{
    const long round_trips = *(const long *)arg;
    for (long i = 1; i <= round_trips; i++) {
        while (line[0] != i) {
        }
        line[0] = -i;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    long round_trips = argc > 1 ? atol(argv[1]) : 2000000;
    pthread_t thread;
    pthread_create(&thread, NULL, pong, &round_trips);
    const long warm = round_trips / 10;
    long long start = 0;
    for (long i = 1; i <= round_trips; i++) {
        if (i == warm) {
            start = now_nanos();
        }
        line[0] = i;
        while (line[0] != -i) {
        }
    }
    const long long took = now_nanos() - start;
    pthread_join(thread, NULL);
    printf("%ld round trips of one cache line: %.3f us each (mean)\n", round_trips - warm,
        took / 1000.0 / (round_trips - warm));
    return 0;
}
