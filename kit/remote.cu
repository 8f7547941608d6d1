/* remote.cu — starting, calling and ending workers (see remote.h). */
#include "remote.h"
#include "sandbox.h"
#include "case.h"
#include "bench.h"

#include <cuda.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct tl_worker {
    char path[PATH_MAX];
    char name[64];
    pid_t pid;                 /* 0: not running */
    int request_fd, reply_fd;
    uint32_t seq;
    int tool_status;           /* a non-zero exit status of the last process (a wrapped sanitizer's) */
    char folder[64];           /* its empty working folder */
    unsigned nbuffers;
    CUdeviceptr base[TL_WORKER_MAX_BUFFERS];
    size_t size[TL_WORKER_MAX_BUFFERS];
    cudaIpcMemHandle_t handle[TL_WORKER_MAX_BUFFERS];
    double baseline_group;     /* device bytes its process group held before the lab file was mapped; -1: unknown */
    double baseline_device;    /* the GPU's used bytes then */
};

/* Output beyond this ends the worker (SIGXFSZ): a flood of prints must not
 * fill the disk. Big enough for a sanitizer's log, which its front end,
 * in the same group, writes under the same limit. */
static const rlim_t OUTPUT_LIMIT = 64 << 20;

enum { MAX_WORKERS = 8 };
static tl_worker *all_workers[MAX_WORKERS];
static int worker_count;

/* ---- every worker's group dies with the judge ---- */

static void kill_group(tl_worker *w)
{
    if (w->pid > 0)
        kill(-w->pid, SIGKILL);
}

static void kill_all(void)
{
    for (int i = 0; i < worker_count; i++)
        kill_group(all_workers[i]);
}

static void on_signal(int sig)
{
    kill_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void stop_all(void);

static void judge_init(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    /* A worker runs as our user: without this it could read our memory
     * (the seed, the expected output) through /proc. */
    prctl(PR_SET_DUMPABLE, 0);
    atexit(stop_all);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    signal(SIGPIPE, SIG_IGN);   /* a dead worker's pipe: an outcome, not our death */
}

tl_worker *tl_worker_new(const char *path, const char *name)
{
    judge_init();
    tl_worker *w = (tl_worker *)calloc(1, sizeof *w);
    if (!w || worker_count == MAX_WORKERS) {
        free(w);
        return NULL;
    }
    /* Absolute: the worker starts in a folder of its own. */
    char resolved[PATH_MAX];
    snprintf(w->path, sizeof w->path, "%s", realpath(path, resolved) ? resolved : path);
    snprintf(w->name, sizeof w->name, "%s", name);
    w->request_fd = w->reply_fd = -1;
    all_workers[worker_count++] = w;
    return w;
}

const char *tl_env_text(const char *name, const char *otherwise)
{
    const char *v = getenv(name);
    return v && *v ? v : otherwise;
}

tl_worker *tl_student_worker(void)
{
    static tl_worker *student;
    const char *path = getenv("TILELAB_WORKER");
    if (!student && path && *path)
        student = tl_worker_new(path, "your code");
    return student;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

void tl_worker_stop(tl_worker *w)
{
    if (!w)
        return;
    if (w->pid > 0) {
        kill_group(w);
        int status;
        while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
            ;
        w->pid = 0;
    }
    /* Also after quit_gracefully reaped it: its pipes and its folder. */
    if (w->request_fd >= 0)
        close(w->request_fd);
    if (w->reply_fd >= 0)
        close(w->reply_fd);
    w->request_fd = w->reply_fd = -1;
    if (w->folder[0])
        nftw(w->folder, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
    w->folder[0] = '\0';
}

/* At exit: every worker stopped and its folder removed. */
static void stop_all(void)
{
    for (int i = 0; i < worker_count; i++)
        tl_worker_stop(all_workers[i]);
}

/* ---- which allocation a pointer lies in ---- */

typedef CUresult (*address_range_fn)(CUdeviceptr *base, size_t *size, CUdeviceptr ptr);

static int allocation_of(const void *p, CUdeviceptr *base, size_t *size)
{
    static address_range_fn range;
    if (!range) {
        cudaDriverEntryPointQueryResult found;
        if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", (void **)&range, 12000, cudaEnableDefault,
                                             &found) != cudaSuccess || found != cudaDriverEntryPointSuccess)
            return -1;
    }
    return range(base, size, (CUdeviceptr)p) == CUDA_SUCCESS ? 0 : -1;
}

/* ---- device memory a worker holds, measured from here --------------------
 * The worker's process is the lab file's, so what it holds is read from
 * outside it: NVML's per-process used memory (the driver's own count: every
 * allocator, __device__ arrays, a module the file registered itself, device
 * malloc's heap), summed over the worker's process group (a sanitizer's
 * front end and its target), else the GPU's used memory as a whole. NVML is
 * the driver's library, loaded here when first needed; its few types are
 * declared here (the toolkit does not always ship nvml.h). */
typedef struct {
    unsigned int pid;
    unsigned long long used;             /* bytes; ~0: not available */
    unsigned int gpu_instance, compute_instance;
} nvml_process;                          /* nvmlProcessInfo_v2_t */
typedef int (*nvml_init_fn)(void);
typedef int (*nvml_handle_fn)(const char *bus_id, void **device);
typedef int (*nvml_processes_fn)(void *device, unsigned int *count, nvml_process *infos);

static nvml_processes_fn nvml_processes;
static void *nvml_device;

static int nvml_ready(void)
{
    static int state;   /* 0: not tried, 1: ready, -1: none */
    if (state)
        return state > 0;
    state = -1;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    nvml_init_fn init = (nvml_init_fn)dlsym(lib, "nvmlInit_v2");
    nvml_handle_fn handle = (nvml_handle_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml_processes = (nvml_processes_fn)dlsym(lib, "nvmlDeviceGetComputeRunningProcesses_v2");
    int dev = 0;
    char bus[32];
    if (!init || !handle || !nvml_processes || init() != 0 || cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetPCIBusId(bus, sizeof bus, dev) != cudaSuccess || handle(bus, &nvml_device) != 0)
        return 0;
    state = 1;
    return 1;
}

/* Whether process `pid` is in process group `group` (/proc/PID/stat: after the
 * name's closing parenthesis, state, ppid, pgrp). */
static int in_group(unsigned pid, pid_t group)
{
    if ((pid_t)pid == group)
        return 1;
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%u/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *close = strrchr(text, ')');
    char state;
    int ppid, pgrp;
    return close && sscanf(close + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == group;
}

/* Bytes of device memory the processes of w's group hold; -1 when NVML cannot
 * say (no NVML, or it names processes this PID namespace does not see). */
static double group_device_bytes(tl_worker *w)
{
    if (w->pid <= 0 || !nvml_ready())
        return -1;
    nvml_process procs[256];
    unsigned int n = sizeof procs / sizeof procs[0];
    if (nvml_processes(nvml_device, &n, procs) != 0)
        return -1;
    double sum = 0;
    int found = 0;
    for (unsigned i = 0; i < n && i < sizeof procs / sizeof procs[0]; i++)
        if (procs[i].used != ~0ull && in_group(procs[i].pid, w->pid))
            sum += (double)procs[i].used, found = 1;
    return found ? sum : -1;
}

/* The GPU's used memory as a whole: every process's, the judge's too. */
static double device_used_bytes(void)
{
    size_t free_bytes = 0, total = 0;
    return cudaMemGetInfo(&free_bytes, &total) == cudaSuccess ? (double)(total - free_bytes) : -1;
}

double tl_worker_device_extra(tl_worker *w, const char **how)
{
    *how = "not measured";
    /* Under a sanitizer or a profiler the tool's own device memory grows with the
     * run: only the hidden tests' plain workers are measured. */
    const char *wrap = getenv("TILELAB_WORKER_WRAP");
    if (!w || w->pid <= 0 || (wrap && *wrap))
        return -1;
    double group = group_device_bytes(w);
    if (group >= 0 && w->baseline_group >= 0) {
        *how = "NVML's count of the worker's processes";
        return group - w->baseline_group;
    }
    double device = device_used_bytes();
    if (device >= 0 && w->baseline_device >= 0) {
        *how = "the GPU's used memory (NVML could not name the worker's processes)";
        return device - w->baseline_device;
    }
    return -1;
}

/* ---- starting ---- */

static void set_message(tl_run_outcome *o, tl_run_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_message(tl_run_outcome *o, tl_run_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    o->status = s;
    vsnprintf(o->message, sizeof o->message, fmt, ap);
    va_end(ap);
}

/* The worker's environment: enough for CUDA and a tool wrapped around it,
 * nothing of ours (no seed, no kit paths, no LD_PRELOAD). */
static void build_env(char **env, char *storage, size_t len, const char *folder)
{
    static const char *const passed[] = {"PATH", "CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "CUDA_HOME"};
    size_t used = 0;
    int n = 0;
#define PUT(...)                                                                  \
    do {                                                                          \
        int k = snprintf(storage + used, len - used, __VA_ARGS__);                \
        if (k < 0 || (size_t)k >= len - used) break;                              \
        env[n++] = storage + used;                                                \
        used += (size_t)k + 1;                                                    \
    } while (0)
    for (size_t i = 0; i < sizeof passed / sizeof passed[0]; i++) {
        const char *v = getenv(passed[i]);
        if (v)
            PUT("%s=%s", passed[i], v);
    }
    PUT("HOME=%s", folder);
    PUT("TMPDIR=%s", folder);
    /* Every module loaded before the sandbox closes: no lazy loading, no
     * file opened later. cuBLAS must not use tensor cores: FP32 vs FP32. */
    PUT("CUDA_MODULE_LOADING=EAGER");
    PUT("NVIDIA_TF32_OVERRIDE=0");
#undef PUT
    env[n] = NULL;
}

static int wait_reply(tl_worker *w, tl_worker_reply *r, double seconds, int *timed_out)
{
    double began = tl_seconds_now(), deadline = began + seconds;
    char *p = (char *)r;
    size_t got = 0;
    *timed_out = 0;
    while (got < sizeof *r) {
        double left = deadline - tl_seconds_now();
        if (left <= 0) {
            *timed_out = 1;
            return -1;
        }
        /* Spin the first 50 ms (a kernel's reply must not wait for a
         * sleeping judge to wake), then sleep in poll(). */
        struct pollfd pf = {w->reply_fd, POLLIN, 0};
        int k = poll(&pf, 1, tl_seconds_now() - began < 0.05 ? 0 : (int)(left * 1000) + 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k == 0)
            continue;
        ssize_t n = read(w->reply_fd, p + got, sizeof *r - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;   /* closed: the process ended */
        got += (size_t)n;
    }
    return 0;
}

/* After the channel closed: how the process ended, in a student's words. */
static void describe_end(tl_worker *w, tl_run_outcome *o)
{
    int status = 0;
    kill_group(w);
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    w->pid = 0;
    if (WIFEXITED(status))
        set_message(o, TL_RUN_ENDED, "%s ended the process before the test finished (exit status %d): a launch "
                    "function must return to its caller. Next: remove exit(), _exit() or abort() from your file",
                    w->name, WEXITSTATUS(status));
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS)
        set_message(o, TL_RUN_FORBIDDEN, "%s made a system call that is not allowed in a graded run, and the "
                    "process was stopped. Next: a launch function only launches kernels", w->name);
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ)
        set_message(o, TL_RUN_ENDED, "%s printed more than %lu MiB and the process was stopped. Next: remove "
                    "the prints from your kernel and launch function", w->name, (unsigned long)(OUTPUT_LIMIT >> 20));
    else if (WIFSIGNALED(status))
        set_message(o, TL_RUN_ENDED, "%s ended the process before the test finished: killed by signal %d (%s). "
                    "Next: a crash on the host side of your file; run build/labN under a debugger",
                    w->name, WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        set_message(o, TL_RUN_ENDED, "%s ended the process before the test finished", w->name);
}

/* A worker's `what` (the lab file's exit or exception, kit/lab_exits.c): its
 * process is the file's, so the text is taken as printable ASCII, cut. */
static void reply_text(const tl_worker_reply *r, char *out, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof r->what && r->what[i] && n + 1 < len; i++)
        out[n++] = r->what[i] >= ' ' && r->what[i] < 127 ? r->what[i] : '?';
    out[n] = '\0';
}

/* FILE:LINE of `offset` in the lab file's library (the worker's program's path +
 * ".so", grader/worker.cu), from its line tables (mk/submission.mk compiles the
 * file with -g1), read by addr2line in a process of its own, given 5 s; 0 when
 * that says nothing. */
static int lab_line(const tl_worker *w, uint64_t offset, char *out, size_t len)
{
    char library[PATH_MAX + 4], address[32];
    if (!offset || snprintf(library, sizeof library, "%s.so", w->path) >= (int)sizeof library)
        return 0;
    snprintf(address, sizeof address, "0x%llx", (unsigned long long)(offset - 1));   /* inside the call */
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return 0;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]), close(fds[1]);
        return 0;
    }
    if (pid == 0) {
        dup2(fds[1], 1);
        int null_fd = open("/dev/null", O_WRONLY);
        if (null_fd >= 0)
            dup2(null_fd, 2);
        execlp("addr2line", "addr2line", "-e", library, address, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t got = 0;
    double deadline = tl_seconds_now() + 5;
    while (got + 1 < len) {
        double left = deadline - tl_seconds_now();
        struct pollfd pf = {fds[0], POLLIN, 0};
        if (left <= 0 || poll(&pf, 1, (int)(left * 1000) + 1) <= 0)
            break;
        ssize_t n = read(fds[0], out + got, len - 1 - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fds[0]);
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    out[got] = '\0';
    out[strcspn(out, "\n")] = '\0';
    char *colon = strrchr(out, ':');
    if (!out[0] || out[0] == '?' || !colon || atoi(colon + 1) <= 0)
        return 0;
    char *space = strchr(colon, ' ');   /* " (discriminator N)" */
    if (space)
        *space = '\0';
    for (char *p = out; *p; p++)
        if (*p < ' ' || *p == 127)
            *p = '?';
    return 1;
}

static double setup_seconds(void)
{
    /* Creating a context under a sanitizer or a profiler takes many seconds. */
    double t = 3 * tl_kernel_timeout_s();
    return t < 60 ? 60 : t;
}

static int start(tl_worker *w, unsigned flags, tl_run_outcome *o)
{
    int req[2], rep[2];
    if (access(w->path, X_OK) != 0) {
        set_message(o, TL_RUN_CANNOT_START, "the grader's worker %s is missing (%s): not your file's fault; "
                    "rebuild with make", w->path, strerror(errno));
        return -1;
    }
    snprintf(w->folder, sizeof w->folder, "/tmp/tilelab-worker-XXXXXX");
    if (!mkdtemp(w->folder) || pipe2(req, O_CLOEXEC) != 0 || pipe2(rep, O_CLOEXEC) != 0) {
        set_message(o, TL_RUN_CANNOT_START, "cannot set up a worker: %s (not your file's fault)", strerror(errno));
        w->folder[0] = '\0';
        return -1;
    }
    const char *log = getenv("TILELAB_WORKER_LOG");
    int out_fd = log && *log ? open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : dup(2);

    /* argv: the wrapper's words (if any), then the worker. */
    char wrap[2048] = "";
    const char *wrap_env = getenv("TILELAB_WORKER_WRAP");
    if (wrap_env)
        snprintf(wrap, sizeof wrap, "%s", wrap_env);
    char *argv[64];
    int argc = 0;
    /* One word per line: paths with spaces survive. */
    for (char *tok = strtok(wrap, "\n"); tok && argc < 62; tok = strtok(NULL, "\n"))
        argv[argc++] = tok;
    argv[argc++] = w->path;
    argv[argc] = NULL;
    char *env[16], env_storage[8192];
    build_env(env, env_storage, sizeof env_storage, w->folder);

    pid_t pid = fork();
    if (pid < 0) {
        set_message(o, TL_RUN_CANNOT_START, "cannot start a worker: %s (not your file's fault)", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* Its own session and group: Ctrl-C reaches the judge, which ends it,
         * and one kill(-pid) ends everything it started. */
        setsid();
        signal(SIGPIPE, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        dup2(req[0], TL_WORKER_REQUEST_FD);
        dup2(rep[1], TL_WORKER_REPLY_FD);
        if (out_fd >= 0) {
            dup2(out_fd, 1);
            dup2(out_fd, 2);
        }
        for (int fd = TL_WORKER_REPLY_FD + 1; fd < 1024; fd++)
            close(fd);
        int null_fd = open("/dev/null", O_RDONLY);
        if (null_fd >= 0 && null_fd != 0) {
            dup2(null_fd, 0);
            close(null_fd);
        }
        struct rlimit fsize = {OUTPUT_LIMIT, OUTPUT_LIMIT}, core = {0, 0};
        setrlimit(RLIMIT_FSIZE, &fsize);
        setrlimit(RLIMIT_CORE, &core);
        if (chdir(w->folder) != 0)
            _exit(126);
        execve(argv[0][0] == '/' ? argv[0] : argv[0], argv, env);
        execvpe(argv[0], argv, env);   /* a wrapper named by PATH */
        _exit(127);
    }
    close(req[0]);
    close(rep[1]);
    if (out_fd >= 0)
        close(out_fd);
    w->pid = pid;
    w->request_fd = req[1];
    w->reply_fd = rep[0];
    w->seq = 0;

    tl_worker_setup s;
    memset(&s, 0, sizeof s);
    s.magic = TL_WORKER_MAGIC;
    s.flags = flags;
    s.nbuffers = w->nbuffers;
    memcpy(s.handle, w->handle, sizeof s.handle);
    tl_worker_reply r;
    int timed_out = 0;
    int sent = write(w->request_fd, &s, sizeof s) == (ssize_t)sizeof s;
    int answered = sent && wait_reply(w, &r, setup_seconds(), &timed_out) == 0;
    w->baseline_group = w->baseline_device = -1;
    if (answered && r.magic == TL_WORKER_MAGIC && r.status == TL_REPLY_LOADING) {
        /* Sandbox on, the lab file not mapped yet: what the worker holds now is the kit's. */
        tl_worker_request go;
        memset(&go, 0, sizeof go);
        go.magic = TL_WORKER_MAGIC;
        cudaDeviceSynchronize();
        w->baseline_group = group_device_bytes(w);
        w->baseline_device = device_used_bytes();
        answered = write(w->request_fd, &go, sizeof go) == (ssize_t)sizeof go &&
                   wait_reply(w, &r, setup_seconds(), &timed_out) == 0;
    }
    if (!answered) {
        if (timed_out) {
            set_message(o, TL_RUN_TIMEOUT, "%s did not start within %g s", w->name, setup_seconds());
            tl_worker_stop(w);
        } else {
            /* The lab worker maps the lab file during its set-up, inside the
             * sandbox: a stop by the sandbox there is the file's (its
             * constructors, or code nvcc's registration calls); any other
             * end is the kit's or the GPU's problem. */
            int status = 0;
            kill_group(w);
            while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
                ;
            w->pid = 0;
            if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
                set_message(o, TL_RUN_FORBIDDEN, "%s made a system call that is not allowed in a graded run while "
                            "it was being loaded, and the process was stopped. Next: a lab file runs code only in "
                            "its launch function", w->name);
                tl_worker_stop(w);
                return -1;
            }
            set_message(o, TL_RUN_CANNOT_START, "the grader's worker %s did not start (%s %d%s): not your file's "
                        "fault; its output is in the worker log", w->path,
                        WIFEXITED(status) ? "exit status" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                        WIFEXITED(status) && WEXITSTATUS(status) == 127 ? ", it could not be executed" : "");
            tl_worker_stop(w);
        }
        return -1;
    }
    if (r.magic == TL_WORKER_MAGIC && r.status == TL_REPLY_FORBIDDEN) {
        /* The sandbox stopped a call while the lab file was being mapped. */
        char call[160];
        tl_sandbox_describe(r.syscall, call, sizeof call);
        set_message(o, TL_RUN_FORBIDDEN, "%s %s while it was being loaded (its constructors, or code nvcc's "
                    "registration calls): not allowed in a graded run, and the process was stopped. Next: a lab "
                    "file runs code only in its launch function", w->name, call);
        tl_worker_stop(w);
        return -1;
    }
    if (r.magic == TL_WORKER_MAGIC && r.status == TL_REPLY_ENDED) {
        /* A constructor of the file's (or code nvcc's registration calls) ended the process. */
        char what[200];
        reply_text(&r, what, sizeof what);
        set_message(o, TL_RUN_ENDED, "%s %s while it was being loaded, and the process ended before the test "
                    "began. Next: a lab file runs code only in its launch function", w->name, what);
        tl_worker_stop(w);
        return -1;
    }
    if (r.magic != TL_WORKER_MAGIC || r.status != TL_REPLY_READY) {
        set_message(o, TL_RUN_CANNOT_START, "the worker could not set up CUDA%s%s (not your file's fault: see the "
                    "worker's log)", r.cuda_error ? ": " : "",
                    r.cuda_error ? cudaGetErrorName((cudaError_t)r.cuda_error) : "");
        tl_worker_stop(w);
        return -1;
    }
    return 0;
}

static unsigned start_flags(void)
{
    const char *files = getenv("TILELAB_WORKER_ALLOW_FILES");
    return files && *files == '1' ? TL_WORKER_ALLOW_FILES : 0;
}

/* ---- calling ---- */

/* The buffer list the call needs; the worker restarts when it has another. */
static int map_pointers(tl_worker *w, void *const ptrs[TL_WORKER_MAX_PTRS], tl_worker_ptr out[TL_WORKER_MAX_PTRS],
                        tl_run_outcome *o)
{
    CUdeviceptr base[TL_WORKER_MAX_PTRS];
    size_t size[TL_WORKER_MAX_PTRS];
    int same = 1;
    for (int i = 0; i < TL_WORKER_MAX_PTRS; i++) {
        out[i].buffer = -1;
        out[i].offset = 0;
        if (!ptrs[i])
            continue;
        if (allocation_of(ptrs[i], &base[i], &size[i]) != 0) {
            set_message(o, TL_RUN_CANNOT_START, "the grader passed a pointer that is not device memory "
                        "(not your file's fault)");
            return -1;
        }
        int found = -1;
        for (unsigned b = 0; b < w->nbuffers; b++)
            if (w->base[b] == base[i] && w->size[b] == size[i])
                found = (int)b;
        if (found < 0) {
            same = 0;
        } else {
            /* The same address may be a new allocation: its handle tells. */
            cudaIpcMemHandle_t h;
            if (cudaIpcGetMemHandle(&h, (void *)base[i]) != cudaSuccess ||
                memcmp(&h, &w->handle[found], sizeof h) != 0)
                same = 0;
        }
    }
    if (!same || w->pid <= 0) {
        tl_worker_stop(w);
        w->nbuffers = 0;
        for (int i = 0; i < TL_WORKER_MAX_PTRS; i++) {
            if (!ptrs[i])
                continue;
            int found = -1;
            for (unsigned b = 0; b < w->nbuffers; b++)
                if (w->base[b] == base[i])
                    found = (int)b;
            if (found >= 0)
                continue;
            unsigned b = w->nbuffers++;
            w->base[b] = base[i];
            w->size[b] = size[i];
            if (cudaIpcGetMemHandle(&w->handle[b], (void *)base[i]) != cudaSuccess) {
                set_message(o, TL_RUN_CANNOT_START, "cannot share a buffer with the worker (cudaIpcGetMemHandle; "
                            "not your file's fault)");
                return -1;
            }
        }
        if (start(w, start_flags(), o) != 0)
            return -1;
    }
    for (int i = 0; i < TL_WORKER_MAX_PTRS; i++) {
        if (!ptrs[i])
            continue;
        for (unsigned b = 0; b < w->nbuffers; b++)
            if (w->base[b] == base[i]) {
                out[i].buffer = (int32_t)b;
                out[i].offset = (uint64_t)((CUdeviceptr)ptrs[i] - base[i]);
            }
    }
    return 0;
}

/* Ask the worker to leave and give it up to `seconds`: a sanitizer or a
 * profiler wrapped around it writes its summary, and its exit status (86:
 * errors found), as the worker ends. Then its group is killed. */
static void quit_gracefully(tl_worker *w, double seconds)
{
    if (w->pid <= 0)
        return;
    tl_worker_request q;
    memset(&q, 0, sizeof q);
    q.magic = TL_WORKER_MAGIC;
    q.quit = 1;
    if (write(w->request_fd, &q, sizeof q) == (ssize_t)sizeof q) {
        double deadline = tl_seconds_now() + seconds;
        int status;
        while (tl_seconds_now() < deadline) {
            pid_t k = waitpid(w->pid, &status, WNOHANG);
            if (k == w->pid) {
                if (WIFEXITED(status) && WEXITSTATUS(status))
                    w->tool_status = WEXITSTATUS(status);
                kill_group(w);
                w->pid = 0;
                break;
            }
            usleep(10000);
        }
    }
    tl_worker_stop(w);
}

void tl_worker_warm(tl_worker *w)
{
    if (!w || w->pid <= 0)
        return;
    void *const none[TL_WORKER_MAX_PTRS] = {NULL, NULL, NULL};
    const int args[TL_WORKER_MAX_ARGS] = {0, 0, 0};
    tl_run_outcome o;
    tl_worker_run(w, TL_OP_WARM, none, args, 1, 0, 0, &o);   /* it waits for the judge's own work first */
}

int tl_workers_finish(int status)
{
    int tool_status = 0;
    for (int i = 0; i < worker_count; i++) {
        tl_worker *w = all_workers[i];
        quit_gracefully(w, setup_seconds());
        if (w->tool_status)
            tool_status = w->tool_status;
    }
    const char *wrap = getenv("TILELAB_WORKER_WRAP");
    return wrap && *wrap && tool_status ? tool_status : status;
}

tl_run_status tl_worker_run(tl_worker *w, tl_worker_op op, void *const ptrs[TL_WORKER_MAX_PTRS],
                            const int args[TL_WORKER_MAX_ARGS], unsigned repeat, size_t rotate_bytes,
                            int poison_shared, tl_run_outcome *o)
{
    memset(o, 0, sizeof *o);
    if (!w) {
        set_message(o, TL_RUN_CANNOT_START, "no worker to run the lab file (TILELAB_WORKER is not set: run "
                    "through ./grade or build/labN; not your file's fault)");
        return o->status;
    }
    /* Buffers: the rotation's last launch must stay inside them too. */
    tl_worker_ptr mapped[TL_WORKER_MAX_PTRS];
    cudaDeviceSynchronize();   /* our own writes to the buffers are done */
    if (map_pointers(w, ptrs, mapped, o) != 0)
        return o->status;

    tl_worker_request q;
    memset(&q, 0, sizeof q);
    q.magic = TL_WORKER_MAGIC;
    q.seq = ++w->seq;
    q.op = op;
    q.repeat = repeat ? repeat : 1;
    q.rotate_bytes = rotate_bytes;
    q.poison_shared = poison_shared;
    memcpy(q.ptr, mapped, sizeof q.ptr);
    for (int i = 0; i < TL_WORKER_MAX_ARGS; i++)
        q.arg[i] = args[i];

    tl_worker_reply r;
    int timed_out = 0;
    double began = tl_seconds_now();
    double limit = tl_kernel_timeout_s() * (q.repeat > 1 ? 2 : 1);
    int sent = write(w->request_fd, &q, sizeof q) == (ssize_t)sizeof q;
    int answered = sent && wait_reply(w, &r, limit, &timed_out) == 0;
    o->seconds = tl_seconds_now() - began;
    if (!answered) {
        if (timed_out) {
            set_message(o, TL_RUN_TIMEOUT, "timed out: the kernel was still running after %g s", limit);
            tl_worker_stop(w);
        } else {
            describe_end(w, o);
            tl_worker_stop(w);
        }
        return o->status;
    }
    if (r.magic != TL_WORKER_MAGIC || r.seq != q.seq) {
        set_message(o, TL_RUN_BROKEN_CHANNEL, "%s wrote into the grader's channel (a reply the worker did not "
                    "send): not allowed in a graded run. Next: a launch function only launches kernels", w->name);
        tl_worker_stop(w);
        return o->status;
    }
    o->device_allocs = r.device_allocs;
    switch (r.status) {
    case TL_REPLY_DONE:
        if (r.cuda_error != cudaSuccess) {
            o->status = TL_RUN_CUDA_ERROR;
            o->cuda_error = r.cuda_error;
            o->at_launch = r.at_launch;
            /* Its context is gone: the next call starts afresh. A wrapped
             * sanitizer that stopped the kernel says why as it leaves. */
            quit_gracefully(w, 30);
        }
        break;
    case TL_REPLY_UNDEFINED:
        set_message(o, TL_RUN_UNDEFINED, "%s does not define %s. Next: keep the function and its signature as "
                    "the lab file gives them", w->name, op < TL_OP_COUNT ? tl_launch_names[op] : "the launch function");
        break;
    case TL_REPLY_ENDED: {
        /* exit, abort or an exception in the file's code: this test, as a crash (kit/lab_exits.c). */
        char what[200], line[256];
        reply_text(&r, what, sizeof what);
        if (lab_line(w, r.lab_offset, line, sizeof line)) {
            char alone[64];
            size_t n = 0;
            for (size_t i = 0; i < sizeof r.what_alone && r.what_alone[i] && n + 1 < sizeof alone; i++)
                alone[n++] = r.what_alone[i] >= ' ' && r.what_alone[i] < 127 ? r.what_alone[i] : '?';
            alone[n] = '\0';
            snprintf(what, sizeof what, "%.60s at %.130s", alone, line);
        }
        set_message(o, TL_RUN_ENDED, "%s %s: the test stopped there, as at a crash. Next: return from the launch "
                    "function instead of ending the program", w->name, what);
        tl_worker_stop(w);
        break;
    }
    case TL_REPLY_FORBIDDEN: {
        char call[160];
        tl_sandbox_describe(r.syscall, call, sizeof call);
        set_message(o, TL_RUN_FORBIDDEN, "%s %s: not allowed in a graded run, and the process was stopped. "
                    "Next: a launch function only launches kernels", w->name, call);
        tl_worker_stop(w);
        break;
    }
    default:
        set_message(o, TL_RUN_BROKEN_CHANNEL, "%s sent the grader a reply it never asks for: not allowed in a "
                    "graded run", w->name);
        tl_worker_stop(w);
    }
    return o->status;
}
