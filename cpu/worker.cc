/*
 * worker.cc — CPU mode's worker: the one program a lab file is linked into
 * (with cpu/runtime.cc). It reads one request on stdin (cpu/protocol.h),
 * puts the inputs in "device" memory, poisons the output (TLC_POISON), calls
 * the lab's launch function, and writes the output and the runtime's report
 * on the reply pipe. What the lab file prints goes to stderr.
 *
 * Isolation: the judge starts it as a process of its own, in its own process
 * group, with a clean environment and a deadline; here it enters the kit's
 * seccomp sandbox (kit/sandbox.c) before the lab file's code runs, and a
 * fault in a kernel (a wild address) ends it with a report of where.
 */
#include "protocol.h"
#include "runtime.h"
#include "sandbox.h"
#include "tilelab.h"   /* TL_SPARSE_BT_FLOATS: where lab 7's patterns start */

#include <cuda_runtime.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

/* The lab file defines some of these; the others stay NULL. */
extern "C" {
void launch_transpose(const float *, float *, int, int) __attribute__((weak));
void launch_matmul(const float *, const float *, float *, int, int, int) __attribute__((weak));
void launch_reverse_blocks(const float *, float *, int) __attribute__((weak));
void launch_block_sums(const float *, float *, int) __attribute__((weak));
void launch_pair_sums(const float *, float *, int) __attribute__((weak));
void launch_transpose_inplace(float *, int) __attribute__((weak));
void launch_matmul_dbuf(const float *, const float *, float *, int, int, int) __attribute__((weak));
void launch_matmul_sparse(const float *, const float *, const unsigned char *, float *, int, int, int) __attribute__((weak));
}

static int reply_fd = -1;
/* Set by the first signal handler to reply: two blocks may fault at once,
 * and only one reply may go out; the other waits for the end. */
static int replied;

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = (const char *)p;
    while (n) {
        ssize_t k = write(fd, c, n);
        if (k <= 0)
            return -1;
        c += k, n -= (size_t)k;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = (char *)p;
    while (n) {
        ssize_t k = read(fd, c, n);
        if (k <= 0)
            return -1;
        c += k, n -= (size_t)k;
    }
    return 0;
}

/* A kernel touched an address no allocation holds (the GPU's illegal
 * address): reply with where, then end. Async-signal-safe calls only. */
static void on_fault(int sig, siginfo_t *info, void *uc_)
{
    if (__atomic_exchange_n(&replied, 1, __ATOMIC_SEQ_CST))
        for (;;)
            pause();
    ucontext_t *uc = (ucontext_t *)uc_;
    char report[160];
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    int n = snprintf(report, sizeof report, "fault\t%s\t%x\t%lx\t%s\n", sig == SIGSEGV ? "SIGSEGV" : "SIGBUS",
                     tlc_pc_offset(pc + 1), (unsigned long)(uintptr_t)info->si_addr,
                     tlc_is_stack((uintptr_t)info->si_addr) ? "stack" : tlc_in_kernel() ? "kernel" : "host");
    tlc_reply r = {{'T', 'L', 'C', 'R'}, cudaErrorIllegalAddress, 0, 0, (uint32_t)n};
    write_all(reply_fd, &r, sizeof r);
    write_all(reply_fd, report, (size_t)n);
    _exit(0);
}

/* A call the sandbox stopped: reply with its number, then end. The call did not happen. */
static void on_sigsys(int sig, siginfo_t *info, void *uc)
{
    (void)sig, (void)uc;
    if (__atomic_exchange_n(&replied, 1, __ATOMIC_SEQ_CST))
        for (;;)
            pause();
    char report[64];
    int n = snprintf(report, sizeof report, "forbidden\t%d\n", info->si_syscall);
    tlc_reply r = {{'T', 'L', 'C', 'R'}, cudaErrorUnknown, 0, 0, (uint32_t)n};
    write_all(reply_fd, &r, sizeof r);
    write_all(reply_fd, report, (size_t)n);
    _exit(0);
}

int main(void)
{
    /* The reply keeps the real stdout; the lab file's printf goes to stderr. */
    reply_fd = dup(1);
    dup2(2, 1);
    setvbuf(stdout, NULL, _IOLBF, 0);   /* what a kernel printed is out before a crash */
    tlc_request q;
    if (read_all(0, &q, sizeof q) || memcmp(q.magic, "TLC1", 4)) {
        fprintf(stderr, "CPU worker: no request on stdin (it is started by the CPU check)\n");
        return 2;
    }
    float *in = (float *)malloc(((size_t)q.n_in + 1) * sizeof(float));
    float *out = (float *)malloc(((size_t)q.n_out + 1) * sizeof(float));
    if (!in || !out || read_all(0, in, (size_t)q.n_in * sizeof(float))) {
        fprintf(stderr, "CPU worker: the request's inputs did not arrive\n");
        return 2;
    }
    const char *threads = getenv("TILELAB_CPU_THREADS");
    tlc_configure(q.counting, threads ? (unsigned)atoi(threads) : 0, (uint32_t)q.order);
    tlc_start();

    float *d_in = NULL, *d_out = NULL, *d_bt = NULL;
    int inplace = q.op == TLC_TRANSPOSE_INPLACE;
    /* Lab 7: A, and Bt with its patterns, each in an allocation of its own, as
     * the GPU's tests have them (Bt's rows start on 32 bytes; reading past A is
     * out of bounds). */
    size_t n_first = q.op == TLC_MATMUL_SPARSE && (size_t)q.a * q.c < q.n_in ? (size_t)q.a * q.c : q.n_in;
    if (cudaMalloc((void **)&d_in, (n_first + !n_first) * sizeof(float)) ||
        (n_first < q.n_in && cudaMalloc((void **)&d_bt, (q.n_in - n_first) * sizeof(float))) ||
        (!inplace && cudaMalloc((void **)&d_out, ((size_t)q.n_out + !q.n_out) * sizeof(float)))) {
        fprintf(stderr, "CPU worker: no memory for %u + %u floats\n", q.n_in, q.n_out);
        return 2;
    }
    cudaMemcpy(d_in, in, n_first * sizeof(float), cudaMemcpyHostToDevice);
    if (d_bt)
        cudaMemcpy(d_bt, in + n_first, (q.n_in - n_first) * sizeof(float), cudaMemcpyHostToDevice);
    if (inplace)
        d_out = d_in;
    else   /* a signalling NaN: a kernel that writes nothing fails, and says so */
        for (size_t i = 0; i < q.n_out; i++)
            ((uint32_t *)d_out)[i] = TLC_POISON;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    static char altstack[64 * 1024];
    stack_t ss = {altstack, 0, sizeof altstack};
    sigaltstack(&ss, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sa.sa_sigaction = on_sigsys;
    sigaction(SIGSYS, &sa, NULL);

    char why[256];
    if (!getenv("TILELAB_CPU_NO_SANDBOX") && tl_sandbox_enter(0, why, sizeof why) != 0) {
        fprintf(stderr, "CPU worker: could not enter the sandbox: %s\n", why);
        return 2;
    }

    int missing = 0;
    const float *A = d_in;
    switch (q.op) {
    case TLC_TRANSPOSE:
        if (!(missing = !launch_transpose))
            launch_transpose(d_in, d_out, q.a, q.b);
        break;
    case TLC_MATMUL:
        if (!(missing = !launch_matmul))
            launch_matmul(A, A + (size_t)q.a * q.c, d_out, q.a, q.b, q.c);
        break;
    case TLC_MATMUL_DBUF:
        if (!(missing = !launch_matmul_dbuf))
            launch_matmul_dbuf(A, A + (size_t)q.a * q.c, d_out, q.a, q.b, q.c);
        break;
    /* The kit's encoding (sparse_case.h): the patterns right after Bt, in the same
     * buffer, found as the GPU's worker finds them (grader/worker.cu). */
    case TLC_MATMUL_SPARSE:
        if (!(missing = !launch_matmul_sparse || !d_bt))
            launch_matmul_sparse(A, d_bt, (const unsigned char *)(d_bt + TL_SPARSE_BT_FLOATS(q.c, q.b)), d_out, q.a,
                                 q.b, q.c);
        break;
    case TLC_REVERSE_BLOCKS:
        if (!(missing = !launch_reverse_blocks))
            launch_reverse_blocks(d_in, d_out, q.a);
        break;
    case TLC_BLOCK_SUMS:
        if (!(missing = !launch_block_sums))
            launch_block_sums(d_in, d_out, q.a);
        break;
    case TLC_PAIR_SUMS:
        if (!(missing = !launch_pair_sums))
            launch_pair_sums(d_in, d_out, q.a);
        break;
    case TLC_TRANSPOSE_INPLACE:
        if (!(missing = !launch_transpose_inplace))
            launch_transpose_inplace(d_in, q.a);
        break;
    default:
        missing = 1;
    }
    cudaError_t err = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    fflush(stdout);
    if (!err)
        err = sync;
    memcpy(out, d_out, (size_t)q.n_out * sizeof(float));

    char *report = NULL;
    size_t report_len = 0;
    FILE *f = open_memstream(&report, &report_len);
    tlc_write_report(f);
    fclose(f);
    tlc_reply r = {{'T', 'L', 'C', 'R'}, err, missing, q.n_out, (uint32_t)report_len};
    if (write_all(reply_fd, &r, sizeof r) || write_all(reply_fd, out, (size_t)q.n_out * sizeof(float)) ||
        write_all(reply_fd, report, report_len))
        return 2;
    fflush(stderr);
    _exit(0);   /* the pool's threads are still parked */
}
