// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).
//
// The floor under an operator that must tell a value's delivery from a cancel on another thread
// (withLatestFrom): what two uncontended atomic read-modify-writes per element cost on this
// machine, and two lock round trips (a compare-and-swap and a releasing store each), beside an
// empty loop. See perf/README.md, "SluiceExt".
//
//   cc -O2 perf/atomic-floor.c -o /tmp/atomic-floor && /tmp/atomic-floor
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static bool take(_Atomic bool *lock) {
    bool expected = false;
    return atomic_compare_exchange_strong_explicit(lock, &expected, true, memory_order_acquire, memory_order_relaxed);
}

int main(void) {
    _Atomic long gate = 0;
    _Atomic bool lock = false;
    const long n = 100000000;
    volatile long sink = 0;
    for (int run = 0; run < 3; run++) {
        double start = now();
        for (long i = 0; i < n; i++) sink += i;
        double loop = (now() - start) / n;

        start = now();
        for (long i = 0; i < n; i++) {
            atomic_fetch_add_explicit(&gate, 2, memory_order_acq_rel);
            sink += i;
            atomic_fetch_sub_explicit(&gate, 2, memory_order_acq_rel);
        }
        double rmw = (now() - start) / n;

        start = now();
        for (long i = 0; i < n; i++) {
            if (take(&lock)) atomic_store_explicit(&lock, false, memory_order_release);
            sink += i;
            if (take(&lock)) atomic_store_explicit(&lock, false, memory_order_release);
        }
        double locks = (now() - start) / n;
        printf("per element: empty loop %.2f ns, two read-modify-writes %.2f ns, two lock round trips %.2f ns\n",
               loop, rmw, locks);
    }
    return 0;
}
