/*
 * BarePacer.java in C: a pacer that does nothing per step (VILLAS's missed-step rule) and counts the stalls over
 * 10 us, to tell the machine's share of missed steps from the JVM's.
 * Build and run: gcc -O2 -o /tmp/bare_pacer benchmarks/pacing/bare_pacer.c && /tmp/bare_pacer STEPS [RATE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_nanos(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s STEPS [RATE]\n", argv[0]);
        return 2;
    }
    const long long steps = atoll(argv[1]);
    const long long period = (long long)(1e9 / (argc > 2 ? atof(argv[2]) : 100000.0));
    const long long start = now_nanos();
    long long last = start, next = 0, missed = 0, stalls = 0, stalled = 0;
    while (next < steps) {
        const long long now = now_nanos();
        if (now - last > 10000) {
            stalls++;
            stalled += now - last;
        }
        last = now;
        if (now - (start + next * period) >= 0) {
            long long step = (now - start) / period;
            if (step > steps)
                step = steps;
            missed += step - next;
            next = step + 1;
        }
    }
    const double seconds = (last - start) / 1e9;
    printf("c: %lld steps in %.3f s: missed %lld (%.2f%%); %lld stalls over 10 us (%.0f/s), %.2f%% of the time\n",
           steps, seconds, missed, 100.0 * missed / steps, stalls, stalls / seconds, 100 * stalled / 1e9 / seconds);
    return 0;
}
