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
 * Two builds of this one file, so every kernel a grade compares is timed
 * through the same path:
 *   - a kit worker (the copy, the naive matmul, cuBLAS): the kit's launch
 *     file is linked in;
 *   - the lab worker (TL_WORKER_LOADS_LAB): a program with no lab code in it.
 *     The lab file is a shared library, PROGRAM.so beside this program, which it
 *     maps only once the sandbox is on. From the moment it is mapped, the
 *     process is the file's: its constructors, nvcc's registration code (which
 *     the file's macros can reach) and its launches all run inside the
 *     sandbox, and no descriptor it could write through is open but the
 *     protocol's and the output.
 */
#include "tilelab.h"
#include "sandbox.h"
#include "worker_protocol.h"
#include "guard.h"
#include "lab_launches.h"

#include <cuda_profiler_api.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The launch functions: the worker calls them through this table. */
static tl_lab_launches lab;

#ifndef TL_WORKER_LOADS_LAB
/* A kit worker: its launch file defines some of these; the others stay NULL. */
extern "C" {
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) void launch_##name params __attribute__((weak));
#include TL_LAUNCHES
#undef TL_LAUNCH
/* A kit worker (cuBLAS) sets itself up here, before the sandbox. */
void tl_worker_warmup(void) __attribute__((weak));
}

static int lab_open(char *why, size_t len)
{
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) lab.name = launch_##name;
#include TL_LAUNCHES
#undef TL_LAUNCH
    if (tl_worker_warmup) {
        tl_worker_warmup();
        if (cudaDeviceSynchronize() != cudaSuccess) {
            snprintf(why, len, "the kit worker's set-up failed");
            return -1;
        }
    }
    return 0;
}
#define lab_load(why, len) 0
#else
/* The lab worker: the file is this program's path + ".so" (mk/submission.mk). */
static char lab_path[4096];

static int lab_open(char *why, size_t len)
{
    return tl_sandbox_library(lab_path, sizeof lab_path, why, len);
}

/* Maps the lab file, inside the sandbox: its code runs from here on. */
static int lab_load(char *why, size_t len)
{
    void *so = dlopen(lab_path, RTLD_NOW | RTLD_LOCAL);
    if (!so) {
        snprintf(why, len, "cannot load the lab file's library: %s", dlerror());
        return -1;
    }
    lab = tl_lab_launches_of(so);
    return 0;
}
#endif

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

/* ---- device allocations made by the launch (lab 5: in place means none) ----
 * A kit worker wraps the calls at link time (--wrap, mk/kit.mk); the lab
 * worker exports its own definitions of them (grader/lab_allocs.c), so the
 * lab library's calls bind there first. A count the worker keeps is the
 * file's to change once it is loaded: the inspector's allow-list and its
 * count of static device memory (grader/inspect.c) stand beside it. */
#ifndef TL_WORKER_LOADS_LAB
static unsigned device_allocs;
#define COUNTED(name, params, args)                                              \
    cudaError_t __real_##name params;                                            \
    cudaError_t __wrap_##name params { device_allocs++; return __real_##name args; }
extern "C" {
COUNTED(cudaMalloc, (void **p, size_t n), (p, n))
COUNTED(cudaMallocManaged, (void **p, size_t n, unsigned flags), (p, n, flags))
COUNTED(cudaMallocAsync, (void **p, size_t n, cudaStream_t s), (p, n, s))
COUNTED(cudaMallocPitch, (void **p, size_t *pitch, size_t w, size_t h), (p, pitch, w, h))
}
#else
extern "C" unsigned tl_lab_device_allocs;
#define device_allocs tl_lab_device_allocs
#endif

/* ---- shared memory poison: a tile the kernel never wrote reads NaN ---- */

__global__ void worker_empty(void)
{
}

__global__ void worker_poison_shared(int words)
{
    extern __shared__ unsigned shared_words[];
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        shared_words[i] = TL_SHARED_POISON;
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

static void call(const tl_worker_request *q, uint64_t rotation)
{
    tl_lab_launch_call(&lab, q->op, pointer(&q->ptr[0], rotation), pointer(&q->ptr[1], rotation),
                       pointer(&q->ptr[2], rotation), q->arg);
}

static void serve(const tl_worker_request *q)
{
    if (q->op == TL_OP_WARM) {
        worker_empty<<<1, 1>>>();
        cudaError_t err = cudaDeviceSynchronize();
        send_reply(TL_REPLY_DONE, err, 0, 0, 0);
        return;
    }
    if (q->op >= TL_OP_COUNT || !tl_lab_launch_defined(&lab, q->op)) {
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
        err = cudaDeviceSynchronize();
    }
    char why[512];
    if (err != cudaSuccess || lab_open(why, sizeof why) != 0) {
        if (err == cudaSuccess)
            fprintf(stderr, "worker: %s\n", why);
        send_reply(TL_REPLY_SETUP_FAILED, err, 0, 0, 0);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_sandbox_close_files(TL_WORKER_REPLY_FD);

    fcntl(TL_WORKER_REQUEST_FD, F_SETFL, fcntl(TL_WORKER_REQUEST_FD, F_GETFL) | O_NONBLOCK);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSYS, &sa, NULL);
    int entered = tl_sandbox_enter(setup.flags & TL_WORKER_ALLOW_FILES, why, sizeof why);
    /* The judge's setup message stays in this frame for the worker's life, and the lab
     * file can read it: its flags differ in a counted run. Nothing of it is needed now. */
    explicit_bzero(&setup, sizeof setup);
    if (entered != 0) {
        fprintf(stderr, "worker: cannot enter the sandbox: %s\n", why);
        send_reply(TL_REPLY_SETUP_FAILED, 0, 0, 0, 0);
        return TL_EXIT_CANNOT_RUN;
    }
    /* Nothing of the lab file has run before this line. */
    if (lab_load(why, sizeof why) != 0) {
        fprintf(stderr, "worker: %s\n", why);
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
