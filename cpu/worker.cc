/*
 * worker.cc — CPU mode's worker: one program for every lab file, with the
 * runtime (cpu/runtime.cc) and no lab code in it. It reads the check's requests
 * on stdin (cpu/protocol.h) and runs each in a child of its own (main, below),
 * which puts the inputs in "device" memory, poisons the
 * output (TLC_POISON), calls the lab's launch function, and writes the output
 * and the runtime's report on the reply pipe. What the lab file prints goes
 * to stderr.
 *
 * The lab file is a shared library, PROGRAM.so beside this program
 * (cpu/cpu.mk), which it maps only once its sandbox is on: nothing of the
 * file (its static initialisers, constructors) runs before the sandbox. This
 * program exports the runtime (-rdynamic: the access hooks, the CUDA calls,
 * threadIdx) and the library binds to it.
 *
 * Isolation: the judge starts it as a process of its own, in its own process
 * group, with a clean environment and a deadline per request; in each request's
 * child, which nothing of the lab file has touched before, after starting the
 * runtime's threads and closing every descriptor open for writing to a file,
 * it enters the kit's seccomp sandbox (kit/sandbox.c), then maps the lab
 * file; a forbidden call is named in the reply, and a fault in a kernel (a
 * wild address) ends it with a report of where.
 */
#include "protocol.h"
#include "runtime.h"
#include "sandbox.h"
#include "lab_launches.h"
#include "lab_exits.h"

#include <cxxabi.h>
#include <exception>
#include <typeinfo>
#include <sys/syscall.h>

#include <cuda_runtime.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <ucontext.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The launch functions the lab file defines (the others stay NULL). */
static tl_lab_launches lab;

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

/* The worker's own end: _exit is kit/lab_exits.c's once the lab file is mapped,
 * which would report it as the file's. */
static void leave(int code) __attribute__((noreturn));
static void leave(int code)
{
    for (;;)
        syscall(SYS_exit_group, code);
}

/* The lab file ended the process (exit, abort: kit/lab_exits.c) or threw out
 * of its launch function: reply with how, then end, as a crash would. */
static void on_ending(const char *what, const void *caller)
{
    if (__atomic_exchange_n(&replied, 1, __ATOMIC_SEQ_CST))
        for (;;)
            pause();
    char text[204], report[256];
    snprintf(text, sizeof text, "%.200s", what);
    for (char *p = text; *p; p++)
        if (*p == '\t' || *p == '\n')
            *p = ' ';
    /* Where: the caller's return address as an offset into the lab file's code, which
     * the check turns into FILE:LINE (cpu/judge.c symbolize); 0 when none. */
    int n = snprintf(report, sizeof report, "ended\t%s\t%x\n", text, caller ? tlc_pc_offset((uintptr_t)caller) : 0u);
    tlc_reply r = {{'T', 'L', 'C', 'R'}, cudaErrorUnknown, 0, 0, (uint32_t)n};
    write_all(reply_fd, &r, sizeof r);
    write_all(reply_fd, report, (size_t)n);
    leave(0);
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
    leave(0);
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
    leave(0);
}

/* The lab file's library: this program's path + ".so" (cpu/cpu.mk). */
static char lab_path[4096];

static int lab_open(char *why, size_t len)
{
    return tl_sandbox_library(lab_path, sizeof lab_path, why, len);
}

/* Where the library lies: the runtime names code by offsets into it. */
static int find_range(struct dl_phdr_info *info, size_t, void *data)
{
    uintptr_t *range = (uintptr_t *)data;   /* in: the load address; out: [lo, hi) */
    if (info->dlpi_addr != range[0])
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD && info->dlpi_addr + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz > range[1])
            range[1] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
    return 1;
}

/* Maps the lab file, inside the sandbox: its code runs from here on. */
static int lab_load(char *why, size_t len)
{
    void *so = dlopen(lab_path, RTLD_NOW | RTLD_LOCAL);
    if (!so) {
        snprintf(why, len, "cannot load the lab file's library: %s", dlerror());
        return -1;
    }
    struct link_map *map = NULL;
    if (dlinfo(so, RTLD_DI_LINKMAP, &map) != 0 || !map) {
        snprintf(why, len, "cannot find the lab file's library in memory: %s", dlerror());
        return -1;
    }
    uintptr_t range[2] = {(uintptr_t)map->l_addr, 0};
    dl_iterate_phdr(find_range, range);
    tlc_set_code(range[0], range[1] > range[0] ? range[1] : UINTPTR_MAX);
    lab = tl_lab_launches_of(so);
    return 0;
}

/* One request, in a process of its own (forked by main, below, before anything of the lab
 * file exists): its reply on stdout, what the lab file prints on stderr, then it ends. */
static int run(const tlc_request &q, float *in)
{
    /* The reply keeps the real stdout; the lab file's printf goes to stderr. */
    reply_fd = dup(1);
    dup2(2, 1);
    setvbuf(stdout, NULL, _IOLBF, 0);   /* what a kernel printed is out before a crash */
    float *out = (float *)malloc(((size_t)q.n_out + 1) * sizeof(float));
    if (!out) {
        fprintf(stderr, "CPU worker: the request's inputs did not arrive\n");
        return 2;
    }
    const char *threads = getenv("TILELAB_CPU_THREADS");
    tlc_configure(q.counting, threads ? (unsigned)atoi(threads) : 0, (uint32_t)q.order);
    tlc_start();

    float *d_in = NULL, *d_out = NULL, *d_bt = NULL;
    tl_cpu_layout layout = q.op >= 0 && q.op < TL_OP_COUNT ? tl_cpu_layouts[q.op] : TL_CPU_ONE_IN;
    int inplace = layout == TL_CPU_INPLACE;
    /* TL_CPU_TWO_ALLOCS (lab 7): A, and Bt with its patterns, each in an
     * allocation of its own, as the GPU's tests have them (Bt's rows start on
     * 32 bytes; reading past A is out of bounds). */
    size_t n_first = layout == TL_CPU_TWO_ALLOCS && (size_t)q.a * q.c < q.n_in ? (size_t)q.a * q.c : q.n_in;
    if (cudaMalloc((void **)&d_in, (n_first + !n_first) * sizeof(float)) ||
        (n_first < q.n_in && cudaMalloc((void **)&d_bt, (q.n_in - n_first) * sizeof(float))) ||
        (!inplace && cudaMalloc((void **)&d_out, ((size_t)q.n_out + !q.n_out) * sizeof(float)))) {
        fprintf(stderr, "CPU worker: no memory for %u + %u floats\n", q.n_in, q.n_out);
        return 2;
    }
    cudaMemcpy(d_in, in, n_first * sizeof(float), cudaMemcpyHostToDevice);
    if (d_bt)
        cudaMemcpy(d_bt, in + n_first, (q.n_in - n_first) * sizeof(float), cudaMemcpyHostToDevice);
    tlc_mark_allocations();
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

    char why[512];
    if (lab_open(why, sizeof why) != 0) {
        fprintf(stderr, "CPU worker: %s\n", why);
        return 2;
    }
    tl_sandbox_close_files(reply_fd);
    if (!getenv("TILELAB_CPU_NO_SANDBOX") && tl_sandbox_enter(0, why, sizeof why) != 0) {
        fprintf(stderr, "CPU worker: could not enter the sandbox: %s\n", why);
        return 2;
    }
    tl_lab_ending = on_ending;   /* its exit, _exit, abort, ... from here on: kit/lab_exits.c */
    /* Nothing of the lab file has run before this line. */
    if (lab_load(why, sizeof why) != 0) {
        fprintf(stderr, "CPU worker: %s\n", why);
        return 2;
    }

    /* The launch's pointers as its layout says; its `call` makes the arguments. */
    float *p[3] = {d_in, NULL, NULL};
    int np = 1;
    if (layout == TL_CPU_TWO_IN)
        p[np++] = d_in + (size_t)q.a * q.c;
    else if (layout == TL_CPU_TWO_ALLOCS)
        p[np++] = d_bt;
    if (!inplace)
        p[np] = d_out;
    const int args[3] = {q.a, q.b, q.c};
    int missing = q.op < 0 || q.op >= TL_OP_WARM || !tl_lab_launch_defined(&lab, (unsigned)q.op) ||
                  (layout == TL_CPU_TWO_ALLOCS && !d_bt);
    if (!missing) {
        char what[200] = "";
        try {
            tl_lab_launch_call(&lab, (unsigned)q.op, p[0], p[1], p[2], args);
        } catch (const std::exception &e) {
            int st = -1;
            char *type = abi::__cxa_demangle(typeid(e).name(), NULL, NULL, &st);
            snprintf(what, sizeof what, "threw %.50s (\"%.70s\") out of %.40s", st == 0 && type ? type : typeid(e).name(),
                     e.what(), tl_launch_names[q.op]);
            free(type);
        } catch (...) {
            std::type_info *t = abi::__cxa_current_exception_type();
            int st = -1;
            char *type = t ? abi::__cxa_demangle(t->name(), NULL, NULL, &st) : NULL;
            snprintf(what, sizeof what, "threw %.80s out of %.40s", st == 0 && type ? type : "an exception",
                     tl_launch_names[q.op]);
            free(type);
        }
        if (what[0])
            on_ending(what, NULL);
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
    leave(0);   /* the pool's threads are still parked */
}

static int frame(int fd, char type, const void *p, uint32_t len)
{
    tlc_frame f = {{'T', 'L', 'C', type}, len};
    return write_all(fd, &f, sizeof f) || (len && write_all(fd, p, len)) ? -1 : 0;
}

/*
 * The CPU time of a request's busiest thread, in seconds: what its deadline counts. The
 * kernel's blocks run on the runtime's pool of threads, so the busiest one's CPU time is the
 * wall time the kernel took on a quiet machine, and on a busy one it stays what the kernel
 * needed, however long other programs held the cores. Read from /proc (per thread; the child's
 * code cannot reach this process or its view); without /proc, the whole child's CPU clock, which
 * is never less. -1 when neither can be read (the child has gone).
 */
static double busiest_thread_cpu_s(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    if (!tasks) {
        clockid_t clock;
        struct timespec t;
        if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &t) != 0)
            return -1;
        return t.tv_sec + t.tv_nsec * 1e-9;
    }
    static long ticks;
    if (!ticks)
        ticks = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
    double busiest = -1;
    for (struct dirent *d; (d = readdir(tasks));) {
        if (d->d_name[0] == '.')
            continue;
        char stat_path[128], text[1024];
        snprintf(stat_path, sizeof stat_path, "/proc/%d/task/%.20s/stat", (int)pid, d->d_name);
        int fd = open(stat_path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, text, sizeof text - 1);
        close(fd);
        if (n <= 0)
            continue;
        text[n] = '\0';
        /* After the name's closing parenthesis: state (field 3) ... utime (14), stime (15). */
        const char *p = strrchr(text, ')');
        unsigned long long utime = 0, stime = 0;
        if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) == 2 &&
            (double)(utime + stime) / ticks > busiest)
            busiest = (double)(utime + stime) / ticks;
    }
    closedir(tasks);
    return busiest;
}

/*
 * The requests of one CPU check, one after another (cpu/protocol.h): this process only reads
 * them and forks, and never maps the lab file, runs its code or starts the runtime. Each
 * request runs in a child of its own (run, above), a fresh copy of this process taken before
 * any of the lab file's code exists: its stdin and this process's pipe to the check are closed
 * there before the sandbox goes on, so it writes only into pipes of its own, which this process
 * reads to the end and passes on in frames (its stdout, its stderr, then how it ended), and it
 * cannot reach another request or this process (the sandbox forbids fork, kill and ptrace). The
 * check starts a new worker after any run that did not end cleanly (cpu/judge.c run_worker).
 */
int main(void)
{
    /* Seconds of CPU time in one thread before a request's child is stopped (0: never here;
     * the check's wall clock, far later, still stops it). */
    const char *deadline_text = getenv("TILELAB_CPU_DEADLINE_S");
    double deadline_s = deadline_text ? atof(deadline_text) : 0;
    unsetenv("TILELAB_CPU_DEADLINE_S");   /* the kit's, not the lab file's */
    int to_check = dup(1);
    dup2(2, 1);
    for (;;) {
        tlc_request q;
        ssize_t got = read(0, &q, sizeof q);
        if (got == 0)
            return 0;   /* the check has no more requests */
        if (got != (ssize_t)sizeof q && (got < 0 || read_all(0, (char *)&q + got, sizeof q - (size_t)got)))
            got = -1;
        if (got < 0 || memcmp(q.magic, "TLC1", 4)) {
            fprintf(stderr, "CPU worker: no request on stdin (it is started by the CPU check)\n");
            return 2;
        }
        float *in = (float *)malloc(((size_t)q.n_in + 1) * sizeof(float));
        if (!in || read_all(0, in, (size_t)q.n_in * sizeof(float))) {
            fprintf(stderr, "CPU worker: the request's inputs did not arrive\n");
            return 2;
        }
        int out[2], err[2];
        if (pipe(out) || pipe(err)) {
            fprintf(stderr, "CPU worker: no pipe: %s\n", strerror(errno));
            return 2;
        }
        pid_t parent = getpid(), pid = fork();
        if (pid < 0) {
            fprintf(stderr, "CPU worker: cannot fork: %s\n", strerror(errno));
            return 2;
        }
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);   /* it ends with this process, however that ends */
            if (getppid() != parent)
                _exit(127);
            close(0);
            close(to_check);
            close(out[0]);
            close(err[0]);
            dup2(out[1], 1);
            dup2(err[1], 2);
            close(out[1]);
            close(err[1]);
            return run(q, in);
        }
        free(in);
        close(out[1]);
        close(err[1]);
        int open_out = 1, open_err = 1;
        double used_s = 0;
        int stopped = 0;   /* killed here at its CPU deadline */
        while (open_out || open_err) {
            struct pollfd p[2] = {{open_out ? out[0] : -1, POLLIN, 0}, {open_err ? err[0] : -1, POLLIN, 0}};
            /* A thread's CPU time grows no faster than the wall clock: until the deadline's
             * remainder has passed on it, none can have reached the deadline. */
            int wait_ms = -1;
            if (deadline_s > 0 && !stopped) {
                used_s = busiest_thread_cpu_s(pid);
                if (used_s >= deadline_s) {
                    kill(pid, SIGKILL);   /* its pipes close: the loop ends */
                    stopped = 1;
                } else {
                    wait_ms = (int)((deadline_s - (used_s > 0 ? used_s : 0)) * 1000) + 20;
                }
            }
            if (poll(p, 2, wait_ms) < 0) {
                if (errno == EINTR)
                    continue;
                return 2;
            }
            static char buf[65536];
            for (int k = 0; k < 2; k++) {
                if (!p[k].revents)
                    continue;
                ssize_t n = read(k ? err[0] : out[0], buf, sizeof buf);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0)
                    *(k ? &open_err : &open_out) = 0;
                else if (frame(to_check, k ? 'E' : 'O', buf, (uint32_t)n))
                    return 2;   /* the check is gone */
            }
        }
        close(out[0]);
        close(err[0]);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        int32_t ended = status, used_ms = (int32_t)(used_s * 1000);
        if (stopped && frame(to_check, 'T', &used_ms, sizeof used_ms))
            return 2;
        if (frame(to_check, 'X', &ended, sizeof ended))
            return 2;
    }
}
