/*
 * worker.cu — the only program the student's code is linked into.
 *
 * Started by a judge (worker_protocol.h): it starts CUDA, maps the judge's
 * buffers, enters the sandbox (sandbox.h), then calls the launch function
 * the judge names, on the judge's buffers, as often as asked, and says when
 * the kernels have finished. It decides nothing: the judge checks every
 * output, times every call from its own clock, and kills this process's
 * whole group when a step ends or a deadline passes.
 *
 * Linked with a lab file, or with a kit file defining the same launch (the
 * copy, the naive matmul, cuBLAS): every kernel a grade compares is timed
 * through the same path.
 */
#include "tilelab.h"
#include "sandbox.h"
#include "worker_protocol.h"

#include <cuda_profiler_api.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The lab file defines some of these; the others stay NULL. */
extern "C" {
void launch_transpose(const float *in, float *out, int rows, int cols) __attribute__((weak));
void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K) __attribute__((weak));
void launch_reverse_blocks(const float *in, float *out, int n) __attribute__((weak));
void launch_block_sums(const float *in, float *sums, int n) __attribute__((weak));
void launch_pair_sums(const float *in, float *out, int n) __attribute__((weak));
void launch_transpose_inplace(float *a, int n) __attribute__((weak));
void launch_matmul_dbuf(const float *A, const float *B, float *C, int M, int N, int K) __attribute__((weak));
void launch_matmul_sparse(const float *A, const float *Bt, const unsigned char *pattern, float *C, int M, int N,
                          int K) __attribute__((weak));
/* A kit worker (cuBLAS) sets itself up here, before the sandbox. */
void tl_worker_warmup(void) __attribute__((weak));
}

static uint32_t current_seq;

static void send_reply(uint32_t status, int cuda_error, int at_launch, int syscall, unsigned allocs)
{
    tl_worker_reply r;
    memset(&r, 0, sizeof r);
    r.magic = TL_WORKER_MAGIC;
    r.seq = current_seq;
    r.status = status;
    r.cuda_error = cuda_error;
    r.at_launch = at_launch;
    r.syscall = syscall;
    r.device_allocs = allocs;
    /* One write of a few dozen bytes to a pipe is atomic. */
    if (write(TL_WORKER_REPLY_FD, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
}

/* A call the sandbox stopped: say which, then leave. The call did not happen. */
static void on_sigsys(int sig, siginfo_t *info, void *context)
{
    (void)sig;
    (void)context;
    send_reply(TL_REPLY_FORBIDDEN, 0, 0, info->si_syscall, 0);
    _exit(125);
}

/* Read a whole message. The request pipe is non-blocking: for a while
 * after each request the worker spins on it, since waking a sleeping
 * process can take longer than a kernel (C-states), and that wait would be
 * on the judge's clock. Then it sleeps in poll(). */
static int read_all(int fd, void *buf, size_t len)
{
    char *p = (char *)buf;
    struct timespec began;
    clock_gettime(CLOCK_MONOTONIC, &began);
    while (len) {
        ssize_t n = read(fd, p, len);
        if (n > 0) {
            p += n;
            len -= (size_t)n;
            continue;
        }
        if (n == 0 || (errno != EAGAIN && errno != EINTR))
            return -1;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - began.tv_sec) * 1000000000L + (now.tv_nsec - began.tv_nsec) > 50000000L) {
            struct pollfd pf = {fd, POLLIN, 0};
            poll(&pf, 1, -1);
        }
    }
    return 0;
}

/* ---- device allocations made by the launch (lab 5: in place means none) ---- */

static unsigned device_allocs;
extern "C" {
cudaError_t __real_cudaMalloc(void **p, size_t n);
cudaError_t __wrap_cudaMalloc(void **p, size_t n) { device_allocs++; return __real_cudaMalloc(p, n); }
cudaError_t __real_cudaMallocManaged(void **p, size_t n, unsigned flags);
cudaError_t __wrap_cudaMallocManaged(void **p, size_t n, unsigned flags)
{
    device_allocs++;
    return __real_cudaMallocManaged(p, n, flags);
}
cudaError_t __real_cudaMallocAsync(void **p, size_t n, cudaStream_t s);
cudaError_t __wrap_cudaMallocAsync(void **p, size_t n, cudaStream_t s)
{
    device_allocs++;
    return __real_cudaMallocAsync(p, n, s);
}
cudaError_t __real_cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h);
cudaError_t __wrap_cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h)
{
    device_allocs++;
    return __real_cudaMallocPitch(p, pitch, w, h);
}
}

/* ---- shared memory poison: a tile the kernel never wrote reads NaN ---- */

__global__ void worker_empty(void)
{
}

__global__ void worker_poison_shared(int words)
{
    extern __shared__ unsigned shared_words[];
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        shared_words[i] = 0x7FC00000u;
}

static void poison_shared(void)
{
    int device = 0, sms = 1, bytes = 48 << 10;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    worker_poison_shared<<<sms * 4, 256, bytes>>>(bytes / 4);
    cudaDeviceSynchronize();
}

/* ---- one request ---- */

static char *buffer_base[TL_WORKER_MAX_BUFFERS];
static uint32_t buffer_count;

static float *pointer(const tl_worker_ptr *p, uint64_t rotation)
{
    if (p->buffer < 0 || (uint32_t)p->buffer >= buffer_count)
        return NULL;
    return (float *)(buffer_base[p->buffer] + p->offset + rotation);
}

static int defined(uint32_t op)
{
    switch (op) {
    case TL_OP_TRANSPOSE: return launch_transpose != NULL;
    case TL_OP_MATMUL: return launch_matmul != NULL;
    case TL_OP_REVERSE: return launch_reverse_blocks != NULL;
    case TL_OP_SUMS: return launch_block_sums != NULL;
    case TL_OP_PAIRS: return launch_pair_sums != NULL;
    case TL_OP_INPLACE: return launch_transpose_inplace != NULL;
    case TL_OP_DBUF: return launch_matmul_dbuf != NULL;
    case TL_OP_SPARSE: return launch_matmul_sparse != NULL;
    }
    return 0;
}

static void call(const tl_worker_request *q, uint64_t rotation)
{
    float *p0 = pointer(&q->ptr[0], rotation), *p1 = pointer(&q->ptr[1], rotation);
    float *p2 = pointer(&q->ptr[2], rotation);
    const int *a = q->arg;
    switch (q->op) {
    case TL_OP_TRANSPOSE: launch_transpose(p0, p1, a[0], a[1]); break;
    case TL_OP_MATMUL: launch_matmul(p0, p1, p2, a[0], a[1], a[2]); break;
    case TL_OP_REVERSE: launch_reverse_blocks(p0, p1, a[0]); break;
    case TL_OP_SUMS: launch_block_sums(p0, p1, a[0]); break;
    case TL_OP_PAIRS: launch_pair_sums(p0, p1, a[0]); break;
    case TL_OP_INPLACE: launch_transpose_inplace(p0, a[0]); break;
    case TL_OP_DBUF: launch_matmul_dbuf(p0, p1, p2, a[0], a[1], a[2]); break;
    /* The kit's encoding (sparse_case.h): the patterns right after Bt, in the same buffer. */
    case TL_OP_SPARSE:
        launch_matmul_sparse(p0, p1, (const unsigned char *)(p1 + TL_SPARSE_BT_FLOATS(a[2], a[1])), p2, a[0], a[1],
                             a[2]);
        break;
    }
}

static void serve(const tl_worker_request *q)
{
    if (q->op == TL_OP_WARM) {
        worker_empty<<<1, 1>>>();
        cudaError_t err = cudaDeviceSynchronize();
        send_reply(TL_REPLY_DONE, err, 0, 0, 0);
        return;
    }
    if (q->op >= TL_OP_COUNT || !defined(q->op)) {
        send_reply(TL_REPLY_UNDEFINED, 0, 0, 0, 0);
        return;
    }
    if (q->poison_shared)
        poison_shared();
    cudaGetLastError();
    device_allocs = 0;
    cudaError_t first = cudaSuccess;
    int at_launch = 0;
    /* ncu, run with --profile-from-start off, counts only what lies in here. */
    cudaProfilerStart();
    for (uint32_t i = 0; i < (q->repeat ? q->repeat : 1); i++) {
        call(q, i * q->rotate_bytes);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess && first == cudaSuccess)
            first = err, at_launch = 1;
    }
    cudaProfilerStop();
    cudaError_t err = cudaDeviceSynchronize();
    if (first == cudaSuccess)
        first = err;
    send_reply(TL_REPLY_DONE, first, at_launch, 0, device_allocs);
}

int main(void)
{
    tl_worker_setup setup;
    if (read_all(TL_WORKER_REQUEST_FD, &setup, sizeof setup) != 0 || setup.magic != TL_WORKER_MAGIC ||
        setup.nbuffers > TL_WORKER_MAX_BUFFERS) {
        fprintf(stderr, "worker: started without a judge (it is run by ./grade and build/labN, not by hand)\n");
        return TL_EXIT_CANNOT_RUN;
    }
    /* Waiting by spinning: the judge's clock stops when the reply comes. */
    cudaError_t err = cudaSetDeviceFlags(cudaDeviceScheduleSpin);
    if (err == cudaSuccess)
        err = cudaFree(0);
    for (uint32_t i = 0; err == cudaSuccess && i < setup.nbuffers; i++)
        err = cudaIpcOpenMemHandle((void **)&buffer_base[i], setup.handle[i], cudaIpcMemLazyEnablePeerAccess);
    buffer_count = setup.nbuffers;
    if (err == cudaSuccess) {
        poison_shared();   /* loads the worker's own module before the sandbox */
        worker_empty<<<1, 1>>>();
        /* ncu starts its work at the first profiler start: before the
         * sandbox, which allows no new threads. Nothing runs in between. */
        cudaProfilerStart();
        cudaProfilerStop();
        if (tl_worker_warmup)
            tl_worker_warmup();
        err = cudaDeviceSynchronize();
    }
    if (err != cudaSuccess) {
        send_reply(TL_REPLY_SETUP_FAILED, err, 0, 0, 0);
        return TL_EXIT_CANNOT_RUN;
    }

    fcntl(TL_WORKER_REQUEST_FD, F_SETFL, fcntl(TL_WORKER_REQUEST_FD, F_GETFL) | O_NONBLOCK);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSYS, &sa, NULL);
    char why[256];
    if (tl_sandbox_enter(setup.flags & TL_WORKER_ALLOW_FILES, why, sizeof why) != 0) {
        fprintf(stderr, "worker: cannot enter the sandbox: %s\n", why);
        send_reply(TL_REPLY_SETUP_FAILED, 0, 0, 0, 0);
        return TL_EXIT_CANNOT_RUN;
    }
    send_reply(TL_REPLY_READY, 0, 0, 0, 0);

    tl_worker_request q;
    while (read_all(TL_WORKER_REQUEST_FD, &q, sizeof q) == 0 && q.magic == TL_WORKER_MAGIC && !q.quit) {
        current_seq = q.seq;
        serve(&q);
    }
    /* No exit handlers, no destructors: nothing of the lab file runs after this. */
    _exit(0);
}
