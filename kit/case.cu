/* case.cu — verdicts and the kernel deadline (see case.h). */
#include "case.h"
#include "check.h"
#include "bench.h"
#include "guard.h"

#include <cuda_profiler_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *tl_case_verdict_name(tl_case_verdict v)
{
    static const char *names[] = {"pass", "wrong", "out of bounds", "input changed", "CUDA error", "timed out",
                                  "process ended", "not allowed", "not run"};
    return names[v];
}

double tl_kernel_timeout_s(void)
{
    const char *s = getenv("TILELAB_KERNEL_TIMEOUT_S");
    double t = s ? atof(s) : 0;
    return t > 0 ? t : 10.0;
}

void tl_case_set(tl_case_result *r, tl_case_verdict v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->verdict = v;
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
}

__global__ void tl_poison_shared_kernel(int words)
{
    extern __shared__ unsigned shared_words[];
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        shared_words[i] = TL_SHARED_POISON;
}

void tl_case_poison_shared(void)
{
    int device = 0, sms = 1, bytes = 48 << 10;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    /* Several blocks of 48 KiB per SM (the default per-block maximum on
     * every arch the kit supports) cover most of each SM's shared memory. */
    tl_poison_shared_kernel<<<sms * 4, 256, bytes>>>(bytes / 4);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaDeviceSynchronize());
}

void tl_case_profile_begin(void)
{
    (void)cudaProfilerStart();
}

void tl_case_profile_end(void)
{
    (void)cudaProfilerStop();
}

/* With a kernel still running, the CUDA runtime's own exit handler waits for
 * it forever. Registered after CUDA started, this runs first and leaves
 * without it; the process's end frees the GPU. */
static void exit_past_running_kernel(int status, void *unused)
{
    (void)unused;
    fflush(NULL);
    _exit(status);
}

int (*tl_case_outcome_hook)(const char *shape, tl_case_result *r);

int tl_case_wait(cudaError_t err, const char *shape, tl_case_result *r)
{
    if (tl_case_outcome_hook) {
        int remote = tl_case_outcome_hook(shape, r);
        if (remote != 1)
            return remote;
    }
    const char *when = "at launch";
    if (err == cudaSuccess) {
        when = "while the kernel ran";
        cudaEvent_t done;
        CHECK_CUDA(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
        CHECK_CUDA(cudaEventRecord(done, 0));
        double limit = tl_kernel_timeout_s(), deadline = tl_seconds_now() + limit;
        while ((err = cudaEventQuery(done)) == cudaErrorNotReady && tl_seconds_now() < deadline)
            usleep(500);
        if (err == cudaErrorNotReady) {
            on_exit(exit_past_running_kernel, NULL);
            tl_case_set(r, TL_CASE_TIMEOUT, "shape %s: timed out: the kernel was still running after %g s (one "
                        "launch should take milliseconds). Likely: a loop whose exit condition never changes, or "
                        "threads waiting at a barrier that others of the block never reach (a __syncthreads() "
                        "in a branch not every thread takes). Next: fix that loop or barrier; compute-sanitizer "
                        "--tool synccheck names a divergent barrier.", shape, limit);
            return -1;
        }
        if (err == cudaSuccess)
            err = cudaEventDestroy(done);
    }
    if (err == cudaSuccess)
        return 0;
    tl_case_set(r, TL_CASE_CUDA_ERROR, "shape %s: CUDA error %s: %s (%s). Next: %s.", shape, when,
                cudaGetErrorName(err), cudaGetErrorString(err), tl_cuda_error_hint(err));
    return -1;
}
