/*
 * micro.cu — CPU mode's two costs, each timed alone (make bench-cpu):
 *   barrier   one __syncthreads, per thread: a switch to the scheduler and back;
 *   access    one hooked shared-memory load, per thread, counters off and on.
 * Built and run as a lab file is (cpu/cpu.mk), through the same source step.
 */
#include "tilelab.h"
#include "runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__global__ void barriers(float *out, int rounds)
{
    float x = 0;
    for (int i = 0; i < rounds; i++) {
        x += i;
        __syncthreads();
    }
    out[threadIdx.x] = x;
}

__global__ void loads(float *out, int rounds)
{
    __shared__ float tile[1024];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    float x = 0;
    for (int i = 0; i < rounds; i++)
        x += tile[(threadIdx.x + i) & 1023];
    out[threadIdx.x] = x;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void)
{
    float *out;
    cudaMalloc(&out, 1024 * sizeof(float));
    const int threads = 1024, rounds = 2000;
    tlc_configure(0, 1, 0);   /* one OS thread: per-switch cost, not throughput */
    double t = now();
    LAUNCH(barriers, 1, threads)(out, rounds);
    double barrier_ns = (now() - t) * 1e9 / ((double)threads * rounds);
    t = now();
    LAUNCH(loads, 1, threads)(out, rounds);
    double load_ns = (now() - t) * 1e9 / ((double)threads * rounds);
    tlc_configure(1, 1, 0);
    t = now();
    LAUNCH(loads, 1, threads)(out, rounds);
    double counted_ns = (now() - t) * 1e9 / ((double)threads * rounds);
    printf("barrier (switch to the scheduler and back, per thread): %6.1f ns\n", barrier_ns);
    printf("hooked shared load, counters off:                       %6.1f ns\n", load_ns);
    printf("hooked shared load, counters on:                        %6.1f ns\n", counted_ns);
    return cudaGetLastError() != cudaSuccess;
}
