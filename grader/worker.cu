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
#include "lab_exits.h"

#include <cxxabi.h>
#include <exception>
#include <typeinfo>

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
#include <sys/syscall.h>
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

/* The worker's own end, never the lab file's exit: _exit and exit are kit/lab_exits.c's in the lab
 * worker, which would report them as the file's. */
static void leave(int code) __attribute__((noreturn));
static void leave(int code)
{
    for (;;)
        syscall(SYS_exit_group, code);
}

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
        leave(3);
}

/* The lab file ended the process (kit/lab_exits.c) or threw out of a launch:
 * say how, then leave, as a crash would. */
static void send_ended(const char *what, const void *caller)
{
    char where[200] = "";
#ifdef TL_WORKER_LOADS_LAB   /* kit/lab_exits.c is the lab worker's alone */
    if (caller)
        tl_lab_where(caller, where, sizeof where);
#else
    (void)caller;
#endif
    tl_worker_reply r;
    memset(&r, 0, sizeof r);
    r.magic = TL_WORKER_MAGIC;
    r.seq = current_seq;
    r.status = TL_REPLY_ENDED;
    snprintf(r.what, sizeof r.what, "%s%s%s", what, where[0] ? " " : "", where);
    snprintf(r.what_alone, sizeof r.what_alone, "%.63s", what);
#ifdef TL_WORKER_LOADS_LAB
    Dl_info info;
    if (caller && dladdr(caller, &info) && info.dli_fname && !strcmp(info.dli_fname, lab_path))
        r.lab_offset = (uint64_t)((const char *)caller - (const char *)info.dli_fbase);
#endif
    if (write(TL_WORKER_REPLY_FD, &r, sizeof r) != (ssize_t)sizeof r)
        leave(3);
    leave(125);
}

/* A call the sandbox stopped: say which, then leave. The call did not happen. */
static void on_sigsys(int sig, siginfo_t *info, void *context)
{
    (void)sig;
    (void)context;
    send_reply(TL_REPLY_FORBIDDEN, 0, 0, info->si_syscall, 0);
    leave(125);
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
COUNTED(cudaMalloc3D, (cudaPitchedPtr *p, cudaExtent e), (p, e))
COUNTED(cudaMallocArray, (cudaArray_t *a, const cudaChannelFormatDesc *d, size_t w, size_t h, unsigned f), (a, d, w, h, f))
COUNTED(cudaMalloc3DArray, (cudaArray_t *a, const cudaChannelFormatDesc *d, cudaExtent e, unsigned f), (a, d, e, f))
COUNTED(cudaMallocFromPoolAsync, (void **p, size_t n, cudaMemPool_t pool, cudaStream_t s), (p, n, pool, s))
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

/* One launch function's call. An exception that leaves it ends the request
 * as a crash would (the worker's reply says which), so the worker's own C++
 * (the loop below, the reply) never unwinds through the lab file's frames. */
static void call_catching(const tl_worker_request *q, uint64_t rotation)
{
    char what[192];
    try {
        call(q, rotation);
        return;
    } catch (const std::exception &e) {
        int status = -1;
        char *type = abi::__cxa_demangle(typeid(e).name(), NULL, NULL, &status);
        snprintf(what, sizeof what, "threw %.50s (\"%.70s\") out of %.40s", status == 0 && type ? type : typeid(e).name(),
                 e.what(), q->op < TL_OP_COUNT ? tl_launch_names[q->op] : "the launch function");
        free(type);
    } catch (...) {
        std::type_info *t = abi::__cxa_current_exception_type();
        int status = -1;
        char *type = t ? abi::__cxa_demangle(t->name(), NULL, NULL, &status) : NULL;
        snprintf(what, sizeof what, "threw %.80s out of %.40s", status == 0 && type ? type : "an exception",
                 q->op < TL_OP_COUNT ? tl_launch_names[q->op] : "the launch function");
        free(type);
    }
    send_ended(what, NULL);
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
        call_catching(q, i * q->rotate_bytes);
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
    /* The judge measures the device memory this process holds before any of the
     * lab file exists (its baseline: kit/remote.cu), then says go. */
    send_reply(TL_REPLY_LOADING, 0, 0, 0, 0);
    tl_worker_request go;
    if (read_all(TL_WORKER_REQUEST_FD, &go, sizeof go) != 0 || go.magic != TL_WORKER_MAGIC || go.quit)
        leave(0);
#ifdef TL_WORKER_LOADS_LAB
    tl_lab_ending = send_ended;   /* its exit, _exit, abort, ... from here on: kit/lab_exits.c */
#endif
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
    leave(0);
}
