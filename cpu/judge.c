/*
 * judge.c — CPU mode's check (build/labN --cpu): runs a lab file's kernels
 * on the CPU, one worker process per case (cpu/worker.cc, the lab file
 * linked in), checks every result itself against its own reference, and
 * reports what a GPU run cannot say deterministically: shared-memory races,
 * barriers not every thread reaches, out-of-bounds accesses (each with the
 * lab file's lines) and the memory counters ncu would read.
 *
 *   cpu-check --worker PATH --kind transpose|matmul|supersteps|sparse [--lab ID]
 *             [--source FILE] [--shape RxC|MxKxN|N]... [--mnk MxKxN]... [--n N]
 *             [--unit NAME] [--nan-inf] [--counters RxC|MxKxN|N] [--no-counters]
 *             [--sparsity dense|zero|blocks|values|along-k] [--density D]
 *             [--seed S] [--timeout S] [--json FILE] [--ncu-csv FILE]
 *             [--sanitizer-logs DIR] [--branches MxKxN | --no-branches]
 *             [--contrast WORKER] [--ptx FILE]
 *
 * --shape: a case of its own, as many as given (up to MAX_SHAPES): RxC for
 * a transpose, MxKxN for a matmul (--mnk is the same), and with --unit for
 * lab 5 its n (reverse, sums, pairs), side N (inplace) or MxKxN (dbuf).
 * --unit: one of lab 5's kernels (reverse, sums, pairs, inplace, dbuf), or
 * of lab 7's (dense: launch_matmul; sparse: launch_matmul_sparse, B drawn
 * with --sparsity's zeros and encoded by the kit's encoder, sparse_encode.h);
 * lab 7's --shape is for the --unit before it, as on a GPU (--unit dense
 * --shape S --unit sparse --shape T: one launch each).
 * Every finding names the case it came from (" [case 67x45x33]").
 * Lab 7's branches case (--unit sparse with --json, or --branches): the sparse
 * kernel once more, at --branches' shape (128x256x256) with B's K-blocks
 * zero with probability 3/4 (part 2's timed density), each lane's path traced
 * (cpu/runtime.cc, Branches), and the same for the kit's wide-tile kernel
 * (--contrast; the CPU kit's contrast/sparse_wide/worker beside this
 * program): per warp and per stretch between barriers, did the lanes run the
 * same basic blocks. Told, and written to --json's "branches"; not a case:
 * it changes no verdict.
 * --ptx: the PTX nvcc compiled the lab file to (default WORKER.ptx, which
 * cpu/cpu.mk puts beside the worker): the counters' requests follow each
 * line's access width in it (apply_ptx_widths); without it, one request per
 * access as g++ compiles the file, and the counters say so.
 * For ./grade --cpu: --ncu-csv writes the counters as ncu --csv does,
 * --sanitizer-logs the findings as compute-sanitizer's tools would.
 *
 * Exit 0: every case right and no finding; 1: something wrong (each said);
 * 2: the worker could not run at all.
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include "cpu_judge.h"
#include "ptx.h"
#include "json.h"
#include "matrix.h"
#include "protocol.h"
#include "shapes.h"
#include "sandbox.h"
#include "sparse_encode.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { CHUNK = 256, MAX_FINDINGS = 64, MAX_SITES = 64, STDERR_KEEP = 4096, MAX_SHAPES = 24 };

static char worker_abs[4096], work_dir[4096];
static volatile pid_t running_worker;   /* the worker of the request under way, 0 between them */
/* What holds the lab file's code, for addr2line: the worker's library
 * (WORKER.so, which it maps inside its sandbox, cpu/worker.cc), else the worker. */
static char code_path[4096 + 4];
static const char *worker_path, *kind = "transpose", *lab = "this lab", *source;
/* Per case, in seconds of CPU time of the busiest of the worker's threads (the worker
 * counts it, cpu/worker.cc), so that a busy machine never makes a kernel late. A kernel that
 * never ends costs this once or twice: after two cases time out, the rest are not run. A
 * kernel that waits without running (a sleep) is stopped by the wall clock at WALL_BACKSTOP
 * times it, far above any load an honest kernel meets. */
static double timeout_s = 20;
enum { WALL_BACKSTOP = 10 };
static int timeouts;
static uint64_t seed = 1;
/* --nan-inf: one NaN in A and one +Inf in B of a matmul (the hidden test m09), which must reach C as IEEE says. */
static int nan_inf;
/* Lab 7 (--kind sparse): the zeros of B in a sparse case (--sparsity, --density);
 * the case's B, zeros in, for the reference. */
static tl_sparsity sparsity = TL_SPARSE_ALONG_K;
static double density = 0.5;
static float *sparse_b;

/* ---- running one case in a worker --------------------------------------- */
typedef struct {
    int ran;              /* a reply came back */
    int status, missing;  /* the reply's cudaError_t, no such launch function */
    float *out;
    char *report;
    char err[STDERR_KEEP];  /* the worker's stderr, its start */
    int exit_code, signal, timed_out;
    double cpu_s;   /* timed out: the CPU seconds its busiest thread had used; 0: the wall clock's backstop */
} reply;

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        c += k, n -= (size_t)k;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/*
 * The worker: started once (fork, exec) and kept for the requests that follow, each of which
 * it runs in a child of its own, a fresh copy of itself taken before any of the lab file exists
 * (cpu/worker.cc): what one request's child did cannot reach another's run. This keeps every
 * verdict sound: the worker only passes on, in frames, what each child wrote and how it ended;
 * the output is checked here, against this check's own reference, as before. After any run that
 * did not end cleanly (a timeout, a crash, a refusal, an error status, a missing launch, no
 * reply) the worker is stopped, its whole group, and the next request starts a fresh one; so is
 * it when the next request is for another worker (branches_run).
 */
static pid_t worker_pid;             /* the worker now started, 0 when none */
static int worker_to = -1, worker_from = -1, worker_err = -1;
static char worker_started[sizeof worker_abs];   /* its program */

static void stop_worker(int *status)
{
    if (!worker_pid)
        return;
    kill(-worker_pid, SIGKILL);   /* the worker's whole group, whatever it started */
    int st = 0;
    while (waitpid(worker_pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (status)
        *status = st;
    close(worker_to);
    close(worker_from);
    close(worker_err);
    worker_to = worker_from = worker_err = -1;
    worker_pid = running_worker = 0;
}

static void end_worker(void) { stop_worker(NULL); }

static void start_worker(void)
{
    int to[2], from[2], errp[2];
    if (pipe(to) || pipe(from) || pipe(errp)) {
        perror("cpu-check: pipe");
        exit(2);
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        perror("cpu-check: fork");
        exit(2);
    }
    if (pid == 0) {
        setpgid(0, 0);
        /* The worker dies with this check, however it ends (a grade stopped
         * at a batch's time limit): a kernel that never ends must not spin on. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)   /* it ended before the line above */
            _exit(127);
        if (chdir(work_dir) != 0)   /* an empty folder: nothing of the kit's at hand */
            _exit(127);
        dup2(to[0], 0);
        dup2(from[1], 1);
        dup2(errp[1], 2);
        for (int fd = 3; fd < 64; fd++)
            close(fd);
        /* A clean environment: only what CPU mode itself reads. */
        char threads[64] = "TILELAB_CPU_THREADS=0", nosb[64] = "TILELAB_CPU_NO_SANDBOX", deadline[64];
        const char *t = getenv("TILELAB_CPU_THREADS");
        if (t)
            snprintf(threads, sizeof threads, "TILELAB_CPU_THREADS=%s", t);
        snprintf(deadline, sizeof deadline, "TILELAB_CPU_DEADLINE_S=%g", timeout_s);
        char *env[4] = {threads, deadline, NULL, NULL};
        if (getenv("TILELAB_CPU_NO_SANDBOX"))
            env[2] = nosb;
        execle(worker_abs, worker_abs, (char *)NULL, env);
        fprintf(stderr, "cannot start %s: %s\n", worker_path, strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    worker_pid = running_worker = pid;
    close(to[0]);
    close(from[1]);
    close(errp[1]);
    worker_to = to[1], worker_from = from[0], worker_err = errp[0];
    fcntl(worker_to, F_SETFD, FD_CLOEXEC), fcntl(worker_from, F_SETFD, FD_CLOEXEC), fcntl(worker_err, F_SETFD, FD_CLOEXEC);   /* not addr2line's */
    snprintf(worker_started, sizeof worker_started, "%s", worker_abs);
    signal(SIGPIPE, SIG_IGN);
    static int at_exit;
    if (!at_exit++)
        atexit(end_worker);   /* before remove_work_dir: the worker's folder is its working directory */
}

static reply run_worker(int op, int a, int b, int c, int counting, uint32_t order, const float *in, uint32_t n_in, uint32_t n_out)
{
    reply r;
    memset(&r, 0, sizeof r);
    if (worker_pid && strcmp(worker_started, worker_abs))
        stop_worker(NULL);
    if (!worker_pid)
        start_worker();
    tlc_request q = {{'T', 'L', 'C', '1'}, op, a, b, c, counting, (int32_t)order, n_in, n_out};
    if (write_all(worker_to, &q, sizeof q) == 0)
        write_all(worker_to, in, (size_t)n_in * sizeof(float));

    /* The frames of this request (cpu/protocol.h): its child's stdout into buf, its stderr into
     * r.err (with the worker's own), until how it ended; the worker ending first ends it too. */
    size_t cap = sizeof(tlc_reply) + (size_t)n_out * 4 + 65536, len = 0, elen = 0;
    char *buf = malloc(cap);
    char *fbuf = malloc(65536 + sizeof(tlc_frame));
    size_t flen = 0;   /* frame bytes read, not yet taken */
    double deadline = now_s() + timeout_s * WALL_BACKSTOP;
    int open_from = 1, open_err = 1, ended = 0, clean = 1, st = 0;
    while (!ended && clean && (open_from || open_err)) {
        struct pollfd p[2] = {{open_from ? worker_from : -1, POLLIN, 0}, {open_err ? worker_err : -1, POLLIN, 0}};
        int ms = (int)((deadline - now_s()) * 1000);
        if (ms <= 0 || poll(p, 2, ms) == 0) {
            r.timed_out = 1;
            break;
        }
        if (open_from && p[0].revents) {
            ssize_t k = read(worker_from, fbuf + flen, 65536 + sizeof(tlc_frame) - flen);
            if (k <= 0) {
                open_from = 0;
                continue;
            }
            flen += (size_t)k;
            /* Whole frames, and a payload's part as it comes: only the frame header must be whole. */
            while (flen >= sizeof(tlc_frame) && !ended) {
                tlc_frame f;
                memcpy(&f, fbuf, sizeof f);
                if (memcmp(f.magic, "TLC", 3) || (f.magic[3] != 'O' && f.magic[3] != 'E' && f.magic[3] != 'X' && f.magic[3] != 'T') ||
                    ((f.magic[3] == 'X' || f.magic[3] == 'T') && f.len != sizeof(int32_t)) || f.len > 65536) {
                    clean = 0;   /* not the worker's: it is stopped */
                    break;
                }
                if (flen < sizeof f + f.len)
                    break;
                const char *payload = fbuf + sizeof f;
                if (f.magic[3] == 'X') {
                    int32_t s;
                    memcpy(&s, payload, sizeof s);
                    st = s, ended = 1;
                } else if (f.magic[3] == 'T') {   /* the worker stopped it at its CPU deadline */
                    int32_t ms;
                    memcpy(&ms, payload, sizeof ms);
                    r.timed_out = 1, r.cpu_s = ms / 1000.0;
                } else if (f.magic[3] == 'O') {
                    if (len + f.len > cap) {
                        if (cap > sizeof(tlc_reply) + (size_t)n_out * 4 + (64u << 20)) {   /* more than a reply holds */
                            clean = 0;
                            break;
                        }
                        while (len + f.len > cap)
                            cap *= 2;
                        buf = realloc(buf, cap);
                    }
                    memcpy(buf + len, payload, f.len);
                    len += f.len;
                } else if (elen + 1 < sizeof r.err) {
                    size_t keep = f.len < sizeof r.err - 1 - elen ? f.len : sizeof r.err - 1 - elen;
                    memcpy(r.err + elen, payload, keep);
                    elen += keep;
                }
                memmove(fbuf, fbuf + sizeof f + f.len, flen - sizeof f - f.len);
                flen -= sizeof f + f.len;
            }
        }
        if (open_err && p[1].revents) {   /* the worker's own stderr (it could not start, say) */
            char tmp[4096];
            ssize_t k = read(worker_err, tmp, sizeof tmp);
            if (k <= 0)
                open_err = 0;
            else if (elen + 1 < sizeof r.err) {
                size_t keep = (size_t)k < sizeof r.err - 1 - elen ? (size_t)k : sizeof r.err - 1 - elen;
                memcpy(r.err + elen, tmp, keep);
                elen += keep;
            }
        }
    }
    free(fbuf);
    if (flen)   /* more than this request's frames */
        clean = 0;
    if (!ended) {   /* timed out, the worker ended, or wrote what is not a frame: how it ended */
        clean = 0;
        stop_worker(&st);
    }
    r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    tlc_reply h;
    if (len >= sizeof h) {
        memcpy(&h, buf, sizeof h);
        size_t want = sizeof h + (size_t)h.n_out * 4 + h.report_len;
        if (!memcmp(h.magic, "TLCR", 4) && (h.n_out == n_out || h.n_out == 0) && len >= want) {
            r.ran = 1;
            r.status = h.status;
            r.missing = h.missing;
            r.out = calloc((size_t)n_out + 1, sizeof(float));
            if (h.n_out)
                memcpy(r.out, buf + sizeof h, (size_t)n_out * 4);
            else
                memset(r.out, 0xff, (size_t)n_out * 4);
            r.report = calloc(h.report_len + 1, 1);
            memcpy(r.report, buf + sizeof h + (size_t)h.n_out * 4, h.report_len);
        }
    }
    free(buf);
    /* Kept for the next request only after a clean run: a reply, no error, ended with status 0. */
    if (!clean || r.timed_out || !r.ran || r.status || r.missing || !WIFEXITED(st) || WEXITSTATUS(st))
        stop_worker(NULL);
    return r;
}

/* ---- code addresses to lines (addr2line on the worker) -------------------- */
typedef struct { unsigned pc; char where[512]; int line; } site;
static site sites[1024];
static int nsites;

/* addr2line -e PATH ADDRESS..., started without a shell; its stdout to read, else NULL. */
static FILE *start_addr2line(const char *path, char **addresses, int count, pid_t *pid)
{
    int p[2];
    if (pipe(p))
        return NULL;
    const char **argv = calloc((size_t)count + 4, sizeof *argv);
    if (!argv || (*pid = fork()) < 0) {
        close(p[0]), close(p[1]), free(argv);
        return NULL;
    }
    if (*pid == 0) {
        argv[0] = "addr2line", argv[1] = "-e", argv[2] = path;
        for (int i = 0; i < count; i++)
            argv[3 + i] = addresses[i];
        dup2(p[1], 1);
        close(p[0]), close(p[1]);
        execvp("addr2line", (char *const *)argv);
        _exit(127);
    }
    free(argv);
    close(p[1]);
    FILE *f = fdopen(p[0], "r");
    if (!f)
        close(p[0]);
    return f;
}

static void symbolize(const char *report)
{
    char cmd[8192];   /* the command as a shell would have it: its length bounds the addresses asked */
    static char addresses[sizeof sites / sizeof *sites][16];
    char *asked[sizeof sites / sizeof *sites];
    int nasked = 0;
    int n = snprintf(cmd, sizeof cmd, "addr2line -e '%s'", code_path);
    int first = nsites;
    for (const char *l = report; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        char kindw[16];
        unsigned pcs[2] = {0, 0};
        char f1[32], f2[32];
        if (sscanf(l, "%15[^\t]\t%31[^\t]\t%31[^\t]", kindw, f1, f2) != 3)
            continue;
        if (!strcmp(kindw, "race") || !strcmp(kindw, "barrier")) {
            sscanf(l, "%*[^\t]\t%*[^\t]\t%x\t%x", &pcs[0], &pcs[1]);
        } else if (!strcmp(kindw, "oob") || !strcmp(kindw, "misaligned")) {
            sscanf(l, "%*[^\t]\t%*[^\t]\t%*[^\t]\t%x", &pcs[0]);
        } else if (!strcmp(kindw, "host") || !strcmp(kindw, "fault") || !strcmp(kindw, "ended")) {
            sscanf(l, "%*[^\t]\t%*[^\t]\t%x", &pcs[0]);
        } else if (!strcmp(kindw, "counter") || !strcmp(kindw, "access")) {
            sscanf(l, "%*[^\t]\t%x", &pcs[0]);
        }
        for (int k = 0; k < 2; k++) {
            if (!pcs[k])
                continue;
            int seen = 0;
            for (int i = 0; i < nsites && !seen; i++)
                seen = sites[i].pc == pcs[k];
            if (seen || nsites >= (int)(sizeof sites / sizeof *sites) || n > (int)sizeof cmd - 32)
                continue;
            sites[nsites].pc = pcs[k];
            snprintf(sites[nsites].where, sizeof sites[nsites].where, "?");
            n += snprintf(cmd + n, sizeof cmd - n, " 0x%x", pcs[k] - 1);
            snprintf(addresses[nasked], sizeof addresses[nasked], "0x%x", pcs[k] - 1);
            asked[nasked] = addresses[nasked], nasked++;
            nsites++;
        }
    }
    if (first == nsites)
        return;
    pid_t pid = 0;
    FILE *p = start_addr2line(code_path, asked, nasked, &pid);
    if (!p)
        return;
    char line[512];
    for (int i = first; i < nsites && fgets(line, sizeof line, p); i++) {
        line[strcspn(line, "\n")] = 0;
        char *disc = strstr(line, " (discriminator");
        if (disc)
            *disc = 0;
        char cwd[1024];
        const char *shown = line;
        size_t cl = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
        if (cl && !strncmp(line, cwd, cl) && line[cl] == '/')
            shown = line + cl + 1;   /* relative to the kit, as the lab file was named */
        snprintf(sites[i].where, sizeof sites[i].where, "%s", shown);
        char *colon = strrchr(line, ':');
        sites[i].line = colon ? atoi(colon + 1) : 0;
    }
    fclose(p);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

static const site *site_of(unsigned pc)
{
    for (int i = 0; i < nsites; i++)
        if (sites[i].pc == pc)
            return &sites[i];
    static site unknown = {0, "?", 0};
    return &unknown;
}

/* The SUPERSTEP(name) { ... } of the lab file around `line`, or NULL. */
static const char *superstep_at(int line)
{
    static char name[64];
    FILE *f = source ? fopen(source, "r") : NULL;
    if (!f || line <= 0)
        return f ? (fclose(f), NULL) : NULL;
    char buf[1024];
    int ln = 0, depth = 0, inside = 0, open_seen = 0;
    const char *found = NULL;
    while (fgets(buf, sizeof buf, f) && !found) {
        ln++;
        char *s = strstr(buf, "SUPERSTEP(");
        if (s && !strstr(buf, "#define")) {
            sscanf(s, "SUPERSTEP(%63[A-Za-z0-9_]", name);
            inside = 1, depth = 0, open_seen = 0;
        }
        if (inside) {
            for (char *c = s ? s : buf; *c; c++) {
                if (*c == '{')
                    depth++, open_seen = 1;
                if (*c == '}')
                    depth--;
            }
            if (ln == line)
                found = name;
            if (open_seen && depth <= 0)
                inside = 0;
        }
    }
    fclose(f);
    return found;
}

/* ---- findings, gathered over every case --------------------------------- */
/* A finding names the case it was first seen in, and how many other cases
 * showed it again: a shape the student never asked for (lab 4's counters
 * case) must not leave them looking for it in the one they did. */
typedef struct { char kind[16], text[600]; int line, line2; char superstep[64], case_name[64]; int last_case, more_cases; } finding;
static finding findings[MAX_FINDINGS];
static int nfindings;
static const char *case_now = "";   /* the case running now (run_case), and its number */
static int case_number;

static void add_finding(const char *k, int line, int line2, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add_finding(const char *k, int line, int line2, const char *fmt, ...)
{
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (int i = 0; i < nfindings; i++) {
        finding *f = &findings[i];
        if (strcmp(f->kind, k) || f->line != line || f->line2 != line2)
            continue;
        if (f->last_case != case_number)   /* seen again, in a further case (each runs twice) */
            f->more_cases++, f->last_case = case_number;
        return;
    }
    if (nfindings == MAX_FINDINGS)
        return;
    finding *f = &findings[nfindings++];
    snprintf(f->kind, sizeof f->kind, "%s", k);
    snprintf(f->text, sizeof f->text, "%s", text);
    f->line = line, f->line2 = line2;
    snprintf(f->case_name, sizeof f->case_name, "%s", case_now);
    f->last_case = case_number;
    f->more_cases = 0;
    const char *ss = superstep_at(line);
    snprintf(f->superstep, sizeof f->superstep, "%s", ss ? ss : "");
}

/* Reads one case's report into findings; counters go into `counters`. An
 * instruction's counts, and (sampled) what the report page draws of it: its
 * requests above their ideal, its requests by cost ("cost:count,..."), and
 * one warp's request lane by lane (cpu/runtime.cc, tlc_write_report). */
typedef struct {
    unsigned pc;
    char space[8], op[4];
    unsigned long long requests, units, ideal, threads;   /* threads: thread-level accesses, as g++ compiled them */
    int sampled;
    unsigned size, warp, sample_units, sample_ideal;
    unsigned long long block, excess;
    char by_cost[800], lanes[800], array[96];
    double per_access;   /* requests per access CPU mode counted: nvcc's width at the line (apply_ptx_widths) */
} counter;
static counter counters[MAX_SITES];
static int ncounters;
/* The same per kernel (launch site), when the case launched more than one:
 * grader/counters.c judges each kernel on its own. */
typedef struct { unsigned site, pc; unsigned long long requests, units, ideal, threads; } kernel_counter;
enum { MAX_KERNEL_SITES = 16 };
static kernel_counter kcounters[MAX_SITES * 4];
static int nkcounters;
static char ksites[MAX_KERNEL_SITES][256];
static int nksites;

/* What the last report said beside findings: a refused call, host accesses. */
static char forbidden[200];
static char ended[220];
static unsigned long allocated_count, allocated_bytes;   /* device allocations of the lab file's own */   /* the lab file's exit, abort or exception (kit/lab_exits.c): how */
static int host_lines;

/* "once", "4 times" */
static const char *times(const char *count)
{
    static char buf[40];
    snprintf(buf, sizeof buf, "%s", !strcmp(count, "1") ? "once" : count);
    if (strcmp(count, "1"))
        strncat(buf, " times", sizeof buf - strlen(buf) - 1);
    return buf;
}

static int read_report(const char *report, int keep_counters)
{
    int seen = 0;
    forbidden[0] = 0;
    host_lines = 0;
    ended[0] = 0;
    allocated_count = allocated_bytes = 0;
    symbolize(report);
    for (const char *l = report; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        char line[4096];
        size_t n = strcspn(l, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), l);
        char *f[16];
        int nf = 0;
        for (char *s = line; nf < 16;) {
            f[nf++] = s;
            char *t = strchr(s, '\t');
            if (!t)
                break;
            *t = 0;
            s = t + 1;
        }
        if (!strcmp(f[0], "race") && nf >= 8) {
            const site *a = site_of((unsigned)strtoul(f[2], NULL, 16)), *b = site_of((unsigned)strtoul(f[3], NULL, 16));
            if (b->line < a->line) {   /* one finding per pair of lines, in line order */
                const site *t = a;
                a = b, b = t;
            }
            seen++, add_finding("race", a->line, b->line,
                        "race on shared memory: %s of %s at %s and at %s, by different threads with no barrier between (%s; seen %s)",
                        !strcmp(f[1], "write-write") ? "two writes" : "a read and a write", f[5], a->where,
                        b->where, f[7], times(f[4]));
        } else if (!strcmp(f[0], "barrier") && nf >= 8) {
            const site *a = site_of((unsigned)strtoul(f[2], NULL, 16)), *b = site_of((unsigned)strtoul(f[3], NULL, 16));
            if (!strcmp(f[1], "divergent") && !strcmp(a->where, b->where))
                ;   /* one barrier the compiler copied: the same line twice */
            else if (!strcmp(f[1], "divergent"))
                seen++, add_finding("barrier", a->line, b->line,
                            "barrier divergence: threads of one block wait at different barriers, %s and %s (%s; in %s block(s))",
                            a->where, b->where, f[7], f[4]);
            else
                seen++, add_finding("barrier", a->line, 0,
                            "barrier at %s reached by %s of %s threads of the block: the others exited without it (%s; in %s block(s))",
                            a->where, f[5], f[6], f[7], f[4]);
        } else if (!strcmp(f[0], "oob") && nf >= 7) {
            const site *a = site_of((unsigned)strtoul(f[3], NULL, 16));
            seen++, add_finding("bounds", a->line, 0, "out of bounds: %s-byte %s %s at %s, %s (%s); the launch stops there, as cudaErrorIllegalAddress",
                        f[4], f[1], f[2], a->where, f[5], nf > 6 ? f[6] : "");
        } else if (!strcmp(f[0], "misaligned") && nf >= 7) {
            /* The words of the GPU's error and of the kit's hint for it (kit/check.cu). */
            const site *a = site_of((unsigned)strtoul(f[3], NULL, 16));
            seen++, add_finding("bounds", a->line, 0, "misaligned: %s-byte %s %s at %s, %s (%s); the launch stops there, "
                        "as cudaErrorMisalignedAddress: a vector load or store used an address that is not aligned to its size",
                        f[4], f[1], f[2], a->where, f[5], nf > 6 ? f[6] : "");
        } else if (!strcmp(f[0], "fault") && nf >= 5) {
            const site *a = site_of((unsigned)strtoul(f[2], NULL, 16));
            if (!strcmp(f[4], "stack"))
                seen++, add_finding("bounds", 0, 0, "a CUDA thread's stack overflowed (deep recursion, or large local arrays): "
                                    "CPU mode gives each 128 KiB; on a GPU this is a stack overflow error too");
            else
                seen++, add_finding("bounds", a->line, 0, "%s: %s code at %s touched an address no allocation holds (0x%s) (on a GPU: an illegal address)",
                        f[1], f[4], a->where, f[3]);
        } else if (!strcmp(f[0], "allocated") && nf >= 3) {
            allocated_count = strtoul(f[1], NULL, 10);
            allocated_bytes = strtoul(f[2], NULL, 10);
        } else if (!strcmp(f[0], "ended") && nf >= 2) {
            const site *at = nf >= 3 ? site_of((unsigned)strtoul(f[2], NULL, 16)) : NULL;
            snprintf(ended, sizeof ended, "%.150s%s%.60s", f[1], at && at->line ? " at " : "", at && at->line ? at->where : "");
            for (char *p = ended; *p; p++)
                if (*p < 0x20 || *p == 0x7f)
                    *p = 0x3f;
        } else if (!strcmp(f[0], "forbidden") && nf >= 2) {
            char call[200];
            tl_sandbox_describe(atoi(f[1]), call, sizeof call);
            snprintf(forbidden, sizeof forbidden, "%s", call);
            seen++, add_finding("sandbox", 0, 0, "the lab file %s: the sandbox stopped it", call);
        } else if (!strcmp(f[0], "host") && nf >= 3) {
            host_lines++;
            const site *a = site_of((unsigned)strtoul(f[2], NULL, 16));
            seen++, add_finding("host", a->line, 0, "host code at %s %s device memory: on a GPU this crashes; copy with a kernel",
                        a->where, !strcmp(f[1], "write") ? "writes" : "reads");
        } else if (!strcmp(f[0], "counter") && nf >= 7 && keep_counters && ncounters < MAX_SITES) {
            counter *c = &counters[ncounters++];
            c->pc = (unsigned)strtoul(f[1], NULL, 16);
            snprintf(c->space, sizeof c->space, "%s", f[2]);
            snprintf(c->op, sizeof c->op, "%s", f[3]);
            c->requests = strtoull(f[4], NULL, 10);
            c->units = strtoull(f[5], NULL, 10);
            c->ideal = strtoull(f[6], NULL, 10);
            c->threads = nf >= 8 ? strtoull(f[7], NULL, 10) : 0;
            c->sampled = 0;
            c->per_access = 1;
        } else if (!strcmp(f[0], "ksite") && nf >= 3 && keep_counters) {
            unsigned i = (unsigned)atoi(f[1]);
            if (i < MAX_KERNEL_SITES) {
                snprintf(ksites[i], sizeof ksites[i], "%s", f[2]);
                if ((int)i >= nksites)
                    nksites = (int)i + 1;
            }
        } else if (!strcmp(f[0], "kcounter") && nf >= 6 && keep_counters &&
                   nkcounters < (int)(sizeof kcounters / sizeof *kcounters)) {
            kernel_counter *k = &kcounters[nkcounters++];
            k->site = (unsigned)atoi(f[1]);
            k->pc = (unsigned)strtoul(f[2], NULL, 16);
            k->requests = strtoull(f[3], NULL, 10);
            k->units = strtoull(f[4], NULL, 10);
            k->ideal = strtoull(f[5], NULL, 10);
            k->threads = nf >= 7 ? strtoull(f[6], NULL, 10) : 0;
        } else if (!strcmp(f[0], "access") && nf >= 13 && keep_counters) {
            unsigned pc = (unsigned)strtoul(f[1], NULL, 16);
            for (int i = 0; i < ncounters; i++) {
                counter *c = &counters[i];
                if (c->pc != pc)
                    continue;
                c->sampled = 1;
                c->size = (unsigned)atoi(f[4]);
                c->block = strtoull(f[5], NULL, 10);
                c->warp = (unsigned)atoi(f[6]);
                c->sample_units = (unsigned)atoi(f[7]);
                c->sample_ideal = (unsigned)atoi(f[8]);
                c->excess = strtoull(f[9], NULL, 10);
                snprintf(c->by_cost, sizeof c->by_cost, "%s", f[10]);
                snprintf(c->lanes, sizeof c->lanes, "%s", f[11]);
                snprintf(c->array, sizeof c->array, "%s", strcmp(f[12], "-") ? f[12] : "");
            }
        }
    }
    return seen;
}

/* ---- lab 7's branches case ------------------------------------------------------ */
enum { BR_WARPS = 32, BR_STEPS = 256 };
typedef struct {
    const char *kernel, *source;   /* "yours" or "contrast", and its file */
    int recorded;
    char why[300];                 /* not recorded: why */
    unsigned long long warp_steps, divergent_steps;   /* every block's */
    int warps, steps;              /* block 0's, drawn */
    signed char divergent[BR_WARPS][BR_STEPS];   /* -1: the warp ran nothing there */
    unsigned blocks[BR_WARPS][BR_STEPS];
} branch_record;
static branch_record branch_runs[2];
static const char *status_name(int s);
static tl_mm_shape branch_shape = {128, 256, 256};   /* M, K, N: 128x256x256 */
static const double BRANCH_DENSITY = 0.25;

static void read_branches(branch_record *r, const char *report)
{
    memset(r->divergent, -1, sizeof r->divergent);
    for (const char *l = report; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        unsigned warp;
        int at = 0;
        if (sscanf(l, "branches\t%llu\t%llu", &r->warp_steps, &r->divergent_steps) == 2)
            r->recorded = 1;
        else if (sscanf(l, "branchwarp\t%u\t%n", &warp, &at) == 1 && at && warp < BR_WARPS) {
            unsigned step, div, blocks;
            int used;
            for (const char *p = l + at; sscanf(p, "%u:%u:%u%n", &step, &div, &blocks, &used) == 3; p += used + (p[used] == ',')) {
                if (step >= BR_STEPS)
                    break;
                r->divergent[warp][step] = (signed char)(div != 0);
                r->blocks[warp][step] = blocks;
                r->warps = r->warps > (int)warp + 1 ? r->warps : (int)warp + 1;
                r->steps = r->steps > (int)step + 1 ? r->steps : (int)step + 1;
                if (p[used] != ',')
                    break;
            }
        }
    }
}

/* One kernel's run of the branches case, in `worker`. */
static void branches_run(branch_record *r, const char *worker)
{
    tl_mm_shape s = branch_shape;
    char saved[sizeof worker_abs];
    memcpy(saved, worker_abs, sizeof saved);
    if (!realpath(worker, worker_abs)) {
        snprintf(r->why, sizeof r->why, "no worker %s (make cpu-kit builds it)", worker);
        memcpy(worker_abs, saved, sizeof saved);
        return;
    }
    uint32_t n_in = (uint32_t)s.m * s.k + (uint32_t)tl_sparse_encoded_floats(s.k, s.n), n_out = (uint32_t)s.m * s.n;
    float *in = malloc(((size_t)n_in + 1) * sizeof(float)), *B = malloc(((size_t)s.k * s.n + 1) * sizeof(float));
    uint64_t case_seed = seed ^ 0xB4A9C4E5ull;
    tl_fill_seeded(in, (size_t)s.m * s.k, case_seed);
    tl_fill_seeded(B, (size_t)s.k * s.n, case_seed ^ 0x5EEDB);
    tl_sparse_make_b(B, s.k, s.n, TL_SPARSE_BLOCKS, BRANCH_DENSITY, case_seed ^ 0x5BA55E);
    tl_sparse_encode(B, s.k, s.n, in + (size_t)s.m * s.k);
    reply w = run_worker(TL_OP_SPARSE, s.m, s.n, s.k, TLC_TRACE_BRANCHES, 0, in, n_in, n_out);
    memcpy(worker_abs, saved, sizeof saved);
    if (w.timed_out)
        snprintf(r->why, sizeof r->why, "still running after %.0f s of %s time", w.cpu_s ? timeout_s : timeout_s * WALL_BACKSTOP,
                 w.cpu_s ? "CPU" : "wall-clock");
    else if (!w.ran)
        snprintf(r->why, sizeof r->why, "the worker ended before replying (%.200s)", w.err);
    else if (w.missing)
        snprintf(r->why, sizeof r->why, "no launch_matmul_sparse");
    else if (w.status)
        snprintf(r->why, sizeof r->why, "%s (%d) from the launch", status_name(w.status), w.status);
    else
        read_branches(r, w.report);
    if (w.ran && !w.status && !r->recorded)
        snprintf(r->why, sizeof r->why, "no branches traced: the file was built without -fsanitize-coverage=trace-pc");
    free(in);
    free(B);
    free(w.out);
    free(w.report);
}

static void print_branches(void)
{
    printf("\nBranches at %dx%dx%d, B's K-blocks zero with probability %g, per warp and stretch between barriers:\n",
           branch_shape.m, branch_shape.k, branch_shape.n, 1 - BRANCH_DENSITY);
    for (int i = 0; i < 2; i++) {
        const branch_record *r = &branch_runs[i];
        if (!r->kernel)
            continue;
        if (r->recorded)
            printf("  %-30s lanes diverged in %llu of %llu\n", i ? "the wide-tile kernel (contrast)" : "your kernel",
                   r->divergent_steps, r->warp_steps);
        else
            printf("  %-30s not traced: %s\n", i ? "the wide-tile kernel (contrast)" : "your kernel", r->why);
    }
}

/* "branches": each kernel's record, block 0's warps step by step
 * ("divergent": true, false, or null where the warp ran nothing; "blocks":
 * the most basic blocks a lane ran there). */
static void write_branches(tl_json_writer *jw)
{
    char shape[64];
    snprintf(shape, sizeof shape, "%dx%dx%d", branch_shape.m, branch_shape.k, branch_shape.n);
    tl_jw_object_begin(jw, "branches");
    tl_jw_string(jw, "shape", shape);
    tl_jw_number(jw, "block_density", BRANCH_DENSITY);
    tl_jw_array_begin(jw, "kernels");
    for (int i = 0; i < 2; i++) {
        const branch_record *r = &branch_runs[i];
        if (!r->kernel)
            continue;
        tl_jw_object_begin(jw, NULL);
        tl_jw_string(jw, "kernel", r->kernel);
        tl_jw_string(jw, "source", r->source);
        tl_jw_bool(jw, "recorded", r->recorded);
        if (!r->recorded)
            tl_jw_string(jw, "why", r->why);
        tl_jw_int(jw, "warp_steps", (long long)r->warp_steps);
        tl_jw_int(jw, "divergent_steps", (long long)r->divergent_steps);
        tl_jw_int(jw, "block", 0);
        tl_jw_array_begin(jw, "warps");
        for (int w = 0; w < r->warps; w++) {
            tl_jw_object_begin(jw, NULL);
            tl_jw_int(jw, "warp", w);
            tl_jw_array_begin(jw, "divergent");
            for (int k = 0; k < r->steps; k++)
                if (r->divergent[w][k] < 0)
                    tl_jw_string(jw, NULL, NULL);
                else
                    tl_jw_bool(jw, NULL, r->divergent[w][k]);
            tl_jw_array_end(jw);
            tl_jw_array_begin(jw, "blocks");
            for (int k = 0; k < r->steps; k++)
                tl_jw_int(jw, NULL, r->divergent[w][k] < 0 ? 0 : r->blocks[w][k]);
            tl_jw_array_end(jw);
            tl_jw_object_end(jw);
        }
        tl_jw_array_end(jw);
        tl_jw_object_end(jw);
    }
    tl_jw_array_end(jw);
    tl_jw_object_end(jw);
}

/* ---- cases ------------------------------------------------------------------ */
/* output: what the lab file printed (printf in a kernel), its start, from the run in thread order. */
typedef struct { char name[64], verdict[16], message[512], output[STDERR_KEEP]; int findings; } case_result;
static case_result results[64];
static int nresults;

static double *ref_matmul(const float *A, const float *B, int M, int N, int K, double *bound)
{
    double *C = calloc((size_t)M * N + 1, sizeof(double));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0, m = 0;
            for (int k = 0; k < K; k++) {
                s += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j];
                m += fabs((double)A[(size_t)i * K + k] * B[(size_t)k * N + j]);
            }
            C[(size_t)i * N + j] = s;
            bound[(size_t)i * N + j] = 2.0 * (K + 2) * FLT_EPSILON * m + FLT_MIN;
        }
    return C;
}

/* Where a NaN in the output came from: the output's fill (compared bitwise:
 * no arithmetic gives TLC_POISON), CPU mode's shared-memory fill, or the
 * kernel's own arithmetic. */
static const char *nan_origin(float got, int poisoned)
{
    uint32_t bits;
    memcpy(&bits, &got, sizeof bits);
    if (bits == TLC_POISON && poisoned)
        return " (the NaN the output was filled with: nothing was written there)";
    if ((bits & 0x7fffffffu) == TLC_UNWRITTEN_SHARED)
        return " (the NaN CPU mode fills shared memory with: read before any thread wrote it)";
    if (isnan(got))
        return " (wrong value: NaN, written by your code; not the output's fill)";
    return "";
}

static int is_poison(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits == TLC_POISON;
}

/* 1 when every element is within its bound; else the first one outside and how many, in msg.
 * An element still holding the poison is wrong even where a NaN is expected. */
static int compare(const double *want, const double *bound, const float *got, size_t n, int cols, int poisoned,
                   char *msg, size_t len)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - want[i]), limit = bound[i];
        if (!isfinite(want[i]))   /* NaN stays NaN, an infinity the same infinity */
            d = isnan(want[i]) ? (isnan(got[i]) && !(poisoned && is_poison(got[i])) ? 0 : 1)
                               : (got[i] == want[i] ? 0 : 1), limit = 0;
        if (!(d <= limit)) {
            if (!bad)
                first = i;
            bad++;
        }
    }
    if (bad)
        snprintf(msg, len, "first mismatch at (row %zu, col %zu): expected %.6g, got %.6g%s; %zu of %zu elements wrong",
                 first / (size_t)cols, first % (size_t)cols, want[first], (double)got[first],
                 nan_origin(got[first], poisoned), bad, n);
    return bad == 0;
}

static const char *status_name(int s)
{
    switch (s) {
    case 0: return "cudaSuccess";
    case 1: return "cudaErrorInvalidValue";
    case 9: return "cudaErrorInvalidConfiguration";
    case 700: return "cudaErrorIllegalAddress";
    case 716: return "cudaErrorMisalignedAddress";
    case 720: return "cudaErrorCooperativeLaunchTooLarge";
    default: return "a CUDA error";
    }
}

/* The kinds that keep their CPU-mode check in their own folder (cpu_judge.h). */
static tlc_kind *own_kinds;

void tlc_register_kind(tlc_kind *k)
{
    k->next = own_kinds;
    own_kinds = k;
}

static const tlc_kind *own_kind_named(const char *kind)
{
    for (const tlc_kind *k = own_kinds; k; k = k->next)
        if (!strcmp(k->kind, kind))
            return k;
    return NULL;
}

static const tlc_kind *own_kind_of(int op)
{
    for (const tlc_kind *k = own_kinds; k; k = k->next)
        if (k->op == op)
            return k;
    return NULL;
}

static int run_once(case_result *r, int op, int a, int b, int c, int counting, uint32_t order, const float *in,
                    uint32_t n_in, uint32_t n_out, int cols);

/* One case: inputs seeded, the worker run, its output checked here. */
static int run_case(const char *name, int op, int a, int b, int c, int counting)
{
    case_now = name, case_number++;
    uint32_t n_in, n_out;
    int cols = 1;   /* the output's row length, for the first mismatch's place */
    switch (op) {
    case TL_OP_TRANSPOSE: n_in = n_out = (uint32_t)a * b; cols = a; break;
    case TL_OP_MATMUL: case TL_OP_DBUF: n_in = (uint32_t)a * c + (uint32_t)c * b; n_out = (uint32_t)a * b; cols = b; break;
    case TL_OP_SPARSE: n_in = (uint32_t)a * c + (uint32_t)tl_sparse_encoded_floats(c, b); n_out = (uint32_t)a * b; cols = b; break;
    case TL_OP_SUMS: n_in = a; n_out = (a + CHUNK - 1) / CHUNK; cols = n_out; break;
    case TL_OP_INPLACE: n_in = n_out = (uint32_t)a * a; cols = a; break;
    default:
        if (own_kind_of(op)) {   /* one launch on n floats (cpu_judge.h) */
            n_in = a, n_out = own_kind_of(op)->n_out(a), cols = (int)n_out;
            break;
        }
        n_in = n_out = a;
        cols = a;
        break;
    }
    float *in = malloc(((size_t)n_in + 1) * sizeof(float));
    /* op + 1: the inputs drawn before the ops were launches.h's (numbered from 1). */
    uint64_t case_seed = seed ^ ((uint64_t)(op + 1) << 40) ^ ((uint64_t)a << 20) ^ (uint64_t)b;
    if (op == TL_OP_SPARSE) {   /* A, then B drawn and encoded as the GPU's tests do (sparse_case.cu) */
        free(sparse_b);
        sparse_b = malloc(((size_t)c * b + 1) * sizeof(float));
        tl_fill_seeded(in, (size_t)a * c, case_seed);
        tl_fill_seeded(sparse_b, (size_t)c * b, case_seed ^ 0x5EEDB);
        tl_sparse_make_b(sparse_b, c, b, sparsity, density, case_seed ^ 0x5BA55E);
        tl_sparse_encode(sparse_b, c, b, in + (size_t)a * c);
    } else {
        tl_fill_seeded(in, n_in, case_seed);
    }
    if (nan_inf && (op == TL_OP_MATMUL || op == TL_OP_DBUF)) {
        uint64_t r = tl_splitmix64(seed);
        in[r % ((uint64_t)a * c)] = NAN;
        in[(uint64_t)a * c + (r >> 32) % ((uint64_t)c * b)] = INFINITY;
    }
    case_result *r = &results[nresults < 63 ? nresults++ : 63];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->findings = 0;
    if (timeouts >= 2) {
        snprintf(r->verdict, sizeof r->verdict, "not run");
        snprintf(r->message, sizeof r->message, "two cases timed out already");
        free(in);
        return 0;
    }
    int ok = run_once(r, op, a, b, c, counting, 0, in, n_in, n_out, cols);
    /* Again with the threads between barriers in a shuffled order: a race
     * the thread order happens to hide changes the result there. */
    case_result again = *r;
    uint32_t order = (uint32_t)tl_splitmix64(seed) | 1;
    if (ok && !counting && !run_once(&again, op, a, b, c, 0, order, in, n_in, n_out, cols)) {
        ok = 0;
        snprintf(r->verdict, sizeof r->verdict, "%s", again.verdict);
        snprintf(r->message, sizeof r->message, "right with threads in thread order, not in a shuffled order "
                 "(a race?): %.380s", again.message);
    }
    free(in);
    return ok;
}

static int run_once(case_result *r, int op, int a, int b, int c, int counting, uint32_t order, const float *in,
                    uint32_t n_in, uint32_t n_out, int cols)
{
    snprintf(r->verdict, sizeof r->verdict, "ok");
    r->message[0] = 0;
    reply w = run_worker(op, a, b, c, counting, order, in, n_in, n_out);
    if (!order)
        snprintf(r->output, sizeof r->output, "%s", w.exit_code == 3 ? "" : w.err);
    if (w.report)
        r->findings += read_report(w.report, counting);
    int ok = 0;
    char first_err[300];
    snprintf(first_err, sizeof first_err, "%.*s", (int)strcspn(w.err, "\n"), w.err);
    if (w.timed_out) {
        timeouts++;
        snprintf(r->verdict, sizeof r->verdict, "timed out");
        if (w.cpu_s)
            snprintf(r->message, sizeof r->message, "still running after %.0f s of CPU time: a loop that never ends?", timeout_s);
        else   /* the wall clock's backstop: it ran little, and waited */
            snprintf(r->message, sizeof r->message, "still running after %.0f s: waiting on something that never comes?",
                     timeout_s * WALL_BACKSTOP);
    } else if (!w.ran && w.exit_code == 3) {
        snprintf(r->verdict, sizeof r->verdict, "unsupported");
        snprintf(r->message, sizeof r->message, "%s", first_err);
        add_finding("unsupported", 0, 0, "%s", first_err);
        r->findings++;
    } else if (!w.ran) {
        snprintf(r->verdict, sizeof r->verdict, "crashed");
        if (w.signal == SIGSYS)   /* stopped before it could say which call (its reply names it, below) */
            snprintf(r->message, sizeof r->message, "the lab file made a system call the sandbox forbids; the sandbox stopped it");
        else if (w.signal)
            snprintf(r->message, sizeof r->message, "the worker died of signal %d (%s)", w.signal, strsignal(w.signal));
        else
            snprintf(r->message, sizeof r->message, "the worker ended (status %d) before replying%s%s", w.exit_code,
                     first_err[0] ? ": " : "", first_err);
    } else if (ended[0]) {
        snprintf(r->verdict, sizeof r->verdict, "ended");
        snprintf(r->message, sizeof r->message, "your code %s: the test stopped there, as at a crash; return from "
                 "the launch function instead of ending the program", ended);
    } else if (w.missing) {
        snprintf(r->verdict, sizeof r->verdict, "missing");
        snprintf(r->message, sizeof r->message, "the lab file defines no launch function for this case");
    } else if (forbidden[0]) {
        snprintf(r->verdict, sizeof r->verdict, "refused");
        snprintf(r->message, sizeof r->message, "the lab file %s; the sandbox stopped it", forbidden);
    } else if (host_lines) {
        snprintf(r->verdict, sizeof r->verdict, "refused");
        snprintf(r->message, sizeof r->message, "host code read or wrote device memory (on a GPU: a crash); "
                 "the work must happen in a kernel");
    } else if (op == TL_OP_INPLACE && allocated_count) {
        snprintf(r->verdict, sizeof r->verdict, "wrong");
        snprintf(r->message, sizeof r->message, "your code allocated device memory while it ran (%lu allocations, "
                 "%lu bytes): in place means no second buffer; swap each tile pair through shared memory, in the "
                 "matrix you are given (handout: Part 2)", allocated_count, allocated_bytes);
    } else if (w.status) {
        snprintf(r->verdict, sizeof r->verdict, "error");
        snprintf(r->message, sizeof r->message, "%s (%d) from the launch", status_name(w.status), w.status);
    } else {
        double *want = calloc((size_t)n_out + 1, sizeof(double)), *bound = calloc((size_t)n_out + 1, sizeof(double));
        if (op == TL_OP_TRANSPOSE || op == TL_OP_INPLACE) {
            int R = op == TL_OP_TRANSPOSE ? a : (int)a, C = op == TL_OP_TRANSPOSE ? b : a;
            for (int i = 0; i < R; i++)
                for (int j = 0; j < C; j++)
                    want[(size_t)j * R + i] = in[(size_t)i * C + j];
        } else if (op == TL_OP_MATMUL || op == TL_OP_DBUF) {
            free(want);
            want = ref_matmul(in, in + (size_t)a * c, a, b, c, bound);
        } else if (op == TL_OP_SPARSE) {
            free(want);
            want = ref_matmul(in, sparse_b, a, b, c, bound);
        } else if (op == TL_OP_REVERSE) {
            for (int i = 0; i < a; i++) {
                int chunk = i / CHUNK * CHUNK, len = a - chunk < CHUNK ? a - chunk : CHUNK;
                want[i] = in[chunk + len - 1 - (i - chunk)];
            }
        } else if (op == TL_OP_PAIRS) {
            for (int i = 0; i < a; i++)
                want[i] = (float)(in[i] + (i + 1 < a ? in[i + 1] : 0.0f));
        } else if (op == TL_OP_SUMS) {
            for (uint32_t k = 0; k < n_out; k++) {
                double s = 0, m = 0;
                for (int i = k * CHUNK; i < a && i < (int)(k + 1) * CHUNK; i++)
                    s += in[i], m += fabs(in[i]);
                want[k] = s;
                bound[k] = 2.0 * CHUNK * FLT_EPSILON * m + FLT_MIN;
            }
        } else if (own_kind_of(op)) {
            own_kind_of(op)->reference(in, a, want, bound);
        }
        ok = compare(want, bound, w.out, n_out, cols, op != TL_OP_INPLACE, r->message, sizeof r->message);
        if (!ok)
            snprintf(r->verdict, sizeof r->verdict, "wrong");
        free(want);
        free(bound);
    }
    free(w.out);
    free(w.report);
    if (!ok)   /* a fresh worker after any run that failed (a refusal, a wrong output): run_worker */
        stop_worker(NULL);
    return ok;
}

/* ---- each line's access width, as nvcc compiles it --------------------------
 * CPU mode counts one request per access as g++ compiles the file; nvcc may
 * move the same bytes in fewer, wider instructions (lab 4's four As[ty][k]
 * reads become one 128-bit shared load: cpu/agreement-h100.md, note (b)).
 * The model: for each line of the lab file, the PTX nvcc compiled the file
 * to (WORKER.ptx beside the worker, or --ptx) gives per space and direction
 * its load or store instructions and the bytes they move per thread, with
 * ptxas's merging of aligned neighbours modelled (grader/ptx.h,
 * ptx_line_accesses). An access of s bytes there then counts
 * s x instructions / bytes requests: the line's accesses in nvcc's average
 * width. It is a ratio because the counts are static: an unrolled copy or a
 * second path of the line changes instructions and bytes alike. A line nvcc
 * compiles one to one keeps 1, so does a line the PTX does not have (a
 * header's, another file's) or has in no such access. Requests are scaled
 * per instruction and rounded in the totals; sectors and wavefronts stay the
 * accesses' own (what a warp touches does not change with the width; the
 * bank conflicts ncu adds to 128-bit loads are the hardware's). */
static char ptx_path[4096 + 8];
static const char *ptx_option;
static char widths_note[600];   /* what the counters' requests follow, said beside them */
static int widths_from_ptx;     /* 1: the PTX was read */

static void apply_ptx_widths(void)
{
    const char *path = ptx_option ? ptx_option : ptx_path;
    ptx_module m;
    char err[600] = "";
    ptx_line_access *lines = NULL;
    int n = -1;
    if (!path[0] || access(path, R_OK) != 0) {
        snprintf(widths_note, sizeof widths_note, "no PTX of the file (nvcc could not make %.300s): requests count one per access as g++ compiles it; nvcc may merge some",
                 path[0] ? path : "it");
        return;
    }
    if (ptx_read_file(path, &m, err, sizeof err) != 0) {
        snprintf(widths_note, sizeof widths_note, "the PTX could not be read (%.400s): requests count one per access as g++ compiles it", err);
        return;
    }
    /* Each access is matched in the PTX by the file its site names: CPU mode and
     * nvcc compiled the same path (the build's, a link for a name make cannot
     * take), so the counts never depend on the name the student gave the file
     * (--source, only shown). */
    char loaded[512] = "";
    int changed = 0, matched = 0;
    for (int i = 0; i < ncounters; i++) {
        counter *c = &counters[i];
        const site *s = site_of(c->pc);
        char where[512];
        snprintf(where, sizeof where, "%s", s->where);
        char *colon = strrchr(where, ':');
        if (colon)
            *colon = 0;
        if (!c->sampled || !c->size)
            continue;
        if (!matched || strcmp(where, loaded)) {
            free(lines);
            lines = NULL;
            snprintf(loaded, sizeof loaded, "%s", where);
            n = ptx_line_accesses(&m, where, &lines, err, sizeof err);
            matched = 1;
        }
        if (n < 0)
            continue;   /* a header's access, or a file the PTX does not name: one request per access */
        widths_from_ptx = 1;
        /* The PTX's accesses of the same array at the line where it knows
         * the array ("As", as the access names it: "As[32][32]"), else all
         * of the line's in this space and direction. */
        int sh = !strcmp(c->space, "shared"), st = !strcmp(c->op, "st");
        char array[96];
        snprintf(array, sizeof array, "%.*s", (int)strcspn(c->array, "["), c->array);
        long insns = 0, bytes = 0, same_insns = 0, same_bytes = 0;
        for (int k = 0; k < n; k++)
            if (lines[k].line == s->line && lines[k].shared == sh && lines[k].store == st) {
                insns += lines[k].insns, bytes += lines[k].bytes;
                if (array[0] && !strcmp(lines[k].array, array))
                    same_insns += lines[k].insns, same_bytes += lines[k].bytes;
            }
        if (same_bytes)
            insns = same_insns, bytes = same_bytes;
        if (bytes > 0) {
            c->per_access = (double)c->size * insns / (double)bytes;
            changed |= insns * (long)c->size != bytes;
        }
    }
    free(lines);
    ptx_free(&m);
    if (!widths_from_ptx && err[0]) {
        snprintf(widths_note, sizeof widths_note, "%.400s: requests count one per access as g++ compiles it", err);
        return;
    }
    snprintf(widths_note, sizeof widths_note, changed ?
             "requests follow the widths nvcc compiles each line's accesses to: its PTX, and ptxas's merging of aligned neighbours as modelled" : "");
}

/* An instruction's requests as nvcc would issue them, unrounded. */
static double requests_of(const counter *c)
{
    return (double)c->requests * c->per_access;
}

static unsigned long long rounded(double x)
{
    return (unsigned long long)llround(x);
}

/* ---- the counters, as ncu's l1tex metrics would read them ------------------ */
static int by_line(const void *x, const void *y)
{
    const counter *a = x, *b = y;
    int la = site_of(a->pc)->line, lb = site_of(b->pc)->line;
    return la != lb ? la - lb : a->pc < b->pc ? -1 : a->pc > b->pc;
}

/* What the report page draws of one instruction (grader/report_page.c):
 * requests_above_ideal, requests_by_cost {"sectors or wavefronts": requests},
 * and "warp": one warp's request, the first the lowest block made there, its
 * lanes as byte offsets (null: no access), global ones from a 128-byte
 * boundary (a lane's 32-byte sector is offset / 32), shared ones from the
 * start of "array" (its bank is offset / 4 % 32). */
static void write_sample(tl_json_writer *jw, const counter *c)
{
    /* In nvcc's widths, as the instruction's requests are (apply_ptx_widths):
     * a request that merges accesses costs what they cost together (the
     * wavefronts or sectors stay the accesses' own), so requests by cost
     * add up to the instruction's requests and to its wavefronts or sectors. */
    tl_jw_int(jw, "requests_above_ideal", (long long)rounded((double)c->excess * c->per_access));
    tl_jw_object_begin(jw, "requests_by_cost");
    enum { COSTS = 65 };
    unsigned long long by_cost[COSTS] = {0};
    for (const char *p = c->by_cost; *p;) {
        unsigned cost = 0;
        unsigned long long n = 0;
        if (sscanf(p, "%u:%llu", &cost, &n) != 2)
            break;
        unsigned scaled = c->per_access == 1 ? cost : cost ? (unsigned)fmax(1, llround(cost / c->per_access)) : 0;
        by_cost[scaled < COSTS ? scaled : COSTS - 1] += rounded((double)n * c->per_access);
        p += strcspn(p, ",");
        p += *p == ',';
    }
    for (int k = 0; k < COSTS; k++)
        if (by_cost[k]) {
            char key[16];
            snprintf(key, sizeof key, "%d", k);
            tl_jw_int(jw, key, (long long)by_cost[k]);
        }
    tl_jw_object_end(jw);
    tl_jw_object_begin(jw, "warp");
    tl_jw_int(jw, "block", (long long)c->block);
    tl_jw_int(jw, "warp", c->warp);
    tl_jw_int(jw, "bytes", c->size);
    tl_jw_int(jw, strcmp(c->space, "shared") ? "sectors" : "wavefronts", c->sample_units);
    tl_jw_int(jw, "ideal", c->sample_ideal);
    if (c->array[0])
        tl_jw_string(jw, "array", c->array);
    tl_jw_array_begin(jw, "lanes");
    const char *p = c->lanes;
    for (int lane = 0; lane < 32 && *p; lane++) {
        if (*p == '-')
            tl_jw_string(jw, NULL, NULL);
        else
            tl_jw_int(jw, NULL, strtoll(p, NULL, 10));
        p += strcspn(p, ",");
        p += *p == ',';
    }
    tl_jw_array_end(jw);
    tl_jw_object_end(jw);
}

/* Every instruction's counts summed: [shared][st][requests, units, ideal],
 * requests in nvcc's widths, rounded once. */
static void counter_totals(unsigned long long t[2][2][3])
{
    double req[2][2] = {{0}};
    memset(t, 0, sizeof(unsigned long long[2][2][3]));
    for (int i = 0; i < ncounters; i++) {
        counter *c = &counters[i];
        int sh = !strcmp(c->space, "shared"), st = !strcmp(c->op, "st");
        req[sh][st] += requests_of(c), t[sh][st][1] += c->units, t[sh][st][2] += c->ideal;
    }
    for (int sh = 0; sh < 2; sh++)
        for (int st = 0; st < 2; st++)
            t[sh][st][0] = rounded(req[sh][st]);
}

static void thread_accesses(int site, unsigned long long out[2]);

static void print_counters(const char *shape, tl_json_writer *jw)
{
    unsigned long long t[2][2][3];
    counter_totals(t);
    if (!ncounters)
        return;
    qsort(counters, ncounters, sizeof *counters, by_line);
    printf("\nMemory counters at %s, per warp-level request (ncu's l1tex counters, computed):\n", shape);
    if (widths_note[0])
        printf("  (%s)\n", widths_note);
    for (int i = 0; i < ncounters; i++) {
        counter *c = &counters[i];
        const site *s = site_of(c->pc);
        int sh = !strcmp(c->space, "shared");
        double r = requests_of(c);
        double per = r > 0 ? (double)c->units / r : 0, ideal = r > 0 ? (double)c->ideal / r : 0;
        if (sh)
            printf("  %-40s shared %-5s %9llu requests  %6.2f bank conflicts/request (ideal %.2f)\n", s->where,
                   strcmp(c->op, "st") ? "load" : "store", rounded(r), per - ideal, 0.0);
        else
            printf("  %-40s global %-5s %9llu requests  %6.2f sectors/request (ideal %.2f)\n", s->where,
                   strcmp(c->op, "st") ? "load" : "store", rounded(r), per, ideal);
    }
    if (jw) {
        tl_jw_object_begin(jw, "counters");
        tl_jw_string(jw, "shape", shape);
        tl_jw_int(jw, "global_ld_requests", (long long)t[0][0][0]);
        tl_jw_int(jw, "global_ld_sectors", (long long)t[0][0][1]);
        tl_jw_int(jw, "global_st_requests", (long long)t[0][1][0]);
        tl_jw_int(jw, "global_st_sectors", (long long)t[0][1][1]);
        unsigned long long threads[2];
        thread_accesses(-1, threads);
        tl_jw_int(jw, "global_ld_thread_accesses", (long long)threads[0]);
        tl_jw_int(jw, "global_st_thread_accesses", (long long)threads[1]);
        tl_jw_int(jw, "shared_ld_requests", (long long)t[1][0][0]);
        tl_jw_int(jw, "shared_ld_wavefronts", (long long)t[1][0][1]);
        tl_jw_int(jw, "shared_ld_bank_conflicts", (long long)(t[1][0][1] - t[1][0][2]));
        tl_jw_int(jw, "shared_st_requests", (long long)t[1][1][0]);
        tl_jw_int(jw, "shared_st_wavefronts", (long long)t[1][1][1]);
        tl_jw_int(jw, "shared_st_bank_conflicts", (long long)(t[1][1][1] - t[1][1][2]));
        /* "ptx": requests in nvcc's widths where its PTX was read; "source": one per access */
        tl_jw_string(jw, "request_widths", widths_from_ptx ? "ptx" : "source");
        if (widths_note[0])
            tl_jw_string(jw, "request_widths_note", widths_note);
        tl_jw_array_begin(jw, "sites");
        for (int i = 0; i < ncounters; i++) {
            counter *c = &counters[i];
            tl_jw_object_begin(jw, NULL);
            tl_jw_int(jw, "line", site_of(c->pc)->line);
            tl_jw_string(jw, "space", c->space);
            tl_jw_string(jw, "op", c->op);
            tl_jw_int(jw, "requests", (long long)rounded(requests_of(c)));
            if (c->per_access != 1)   /* as g++ compiled the line: one per access */
                tl_jw_int(jw, "accesses", (long long)c->requests);
            tl_jw_int(jw, strcmp(c->space, "shared") ? "sectors" : "wavefronts", (long long)c->units);
            tl_jw_int(jw, "ideal", (long long)c->ideal);
            if (c->sampled)
                write_sample(jw, c);
            tl_jw_object_end(jw);
        }
        tl_jw_array_end(jw);
        tl_jw_object_end(jw);
    }
}

/* ---- what ./grade --cpu reads, in the formats a GPU grade writes ------------ */
/* One kernel's totals (site < 0: every kernel's), [shared][st][requests, units, ideal],
 * requests in nvcc's widths (each instruction's per_access). */
static void kernel_totals(int site, unsigned long long t[2][2][3])
{
    if (site < 0) {
        counter_totals(t);
        return;
    }
    double req[2][2] = {{0}};
    memset(t, 0, sizeof(unsigned long long[2][2][3]));
    for (int i = 0; i < nkcounters; i++) {
        const kernel_counter *k = &kcounters[i];
        const counter *c = NULL;
        for (int j = 0; j < ncounters && !c; j++)
            if (counters[j].pc == k->pc)
                c = &counters[j];
        if ((int)k->site != site || !c)
            continue;
        int sh = !strcmp(c->space, "shared"), st = !strcmp(c->op, "st");
        req[sh][st] += (double)k->requests * c->per_access, t[sh][st][1] += k->units, t[sh][st][2] += k->ideal;
    }
    for (int sh = 0; sh < 2; sh++)
        for (int st = 0; st < 2; st++)
            t[sh][st][0] = rounded(req[sh][st]);
}

/* Global thread-level accesses [ld, st] of one kernel (site < 0: every kernel),
 * in nvcc's widths as requests are: the lanes that made each request, which
 * ncu counts as smsp__sass_thread_inst_executed_op_global_ld/st (lab 6 judges
 * the bytes per access by them: a warp's idle lanes are not counted). */
static void thread_accesses(int site, unsigned long long out[2])
{
    double a[2] = {0, 0};
    for (int i = 0; i < (site < 0 ? ncounters : nkcounters); i++) {
        const counter *c = NULL;
        unsigned long long lanes;
        if (site < 0) {
            c = &counters[i], lanes = c->threads;
        } else {
            const kernel_counter *k = &kcounters[i];
            for (int j = 0; j < ncounters && !c; j++)
                if (counters[j].pc == k->pc)
                    c = &counters[j];
            if ((int)k->site != site)
                c = NULL;
            lanes = k->threads;
        }
        if (c && strcmp(c->space, "shared"))
            a[!strcmp(c->op, "st")] += (double)lanes * c->per_access;
    }
    out[0] = rounded(a[0]), out[1] = rounded(a[1]);
}

/* --ncu-csv FILE: the counters as ncu --csv writes them (grader/counters.c
 * reads both): one row set per kernel (by launch site), or, with one kernel,
 * every launch of the case together. */
static int write_ncu_csv(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n");
    int per_kernel = nksites > 1 && nkcounters > 0;
    for (int site = per_kernel ? 0 : -1; site < (per_kernel ? nksites : 0); site++) {
        unsigned long long t[2][2][3];   /* [shared][st][requests, units, ideal] */
        kernel_totals(site, t);
        unsigned long long threads[2];
        thread_accesses(site, threads);
        const struct { const char *metric; unsigned long long value; } rows[] = {
            {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", t[1][0][1] - t[1][0][2]},
            {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", t[1][1][1] - t[1][1][2]},
            {"smsp__sass_inst_executed_op_shared_ld.sum", t[1][0][0]},
            {"smsp__sass_inst_executed_op_shared_st.sum", t[1][1][0]},
            {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", t[0][0][1]},
            {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", t[0][0][0]},
            {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", t[0][1][1]},
            {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", t[0][1][0]},
            {"smsp__sass_thread_inst_executed_op_global_ld.sum", threads[0]},
            {"smsp__sass_thread_inst_executed_op_global_st.sum", threads[1]},
        };
        char name[300];
        if (site < 0)
            snprintf(name, sizeof name, "(CPU mode: every kernel of the launch)");
        else {   /* a path may hold a quote: CSV doubles it */
            char quoted[256];
            size_t o = 0;
            const char *base = strrchr(ksites[site], '/');
            for (const char *p = base ? base + 1 : ksites[site]; *p && o + 3 < sizeof quoted; p++) {
                if (*p == '"')
                    quoted[o++] = '"';
                quoted[o++] = *p;
            }
            quoted[o] = 0;
            snprintf(name, sizeof name, "the kernel launched at %s", quoted);
        }
        for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
            fprintf(f, "\"%d\",\"%s\",\"%s\",\"\",\"%llu\"\n", site < 0 ? 0 : site, name, rows[i].metric,
                    rows[i].value);
    }
    return fclose(f);
}

/* Where a finding was seen: " [case 67x45x33]", " [case 67x45x33 and 1 more]". */
static const char *finding_case(const finding *f)
{
    static char buf[128];
    if (!f->case_name[0])
        return "";
    if (f->more_cases)
        snprintf(buf, sizeof buf, " [case %s and %d more]", f->case_name, f->more_cases);
    else
        snprintf(buf, sizeof buf, " [case %s]", f->case_name);
    return buf;
}

/* --sanitizer-logs DIR: each finding as the compute-sanitizer tool that
 * would report it (race: racecheck; barrier: synccheck; bounds: memcheck),
 * in DIR/TOOL[-UNIT].log with its exit status in .status (86: findings, as
 * grade's --error-exitcode; 124: a case timed out; 0: clean), which
 * grader/report.c reads as it reads the sanitizers' own. */
static int write_sanitizer_logs(const char *dir, const char *unit)
{
    static const char *const tools[][3] = {{"memcheck", "bounds", "Invalid access"},
                                           {"racecheck", "race", "Race reported"},
                                           {"synccheck", "barrier", "Barrier error"}};
    int timed_out = 0;
    for (int i = 0; i < nresults; i++)   /* the counters case is no sanitizer's: its own verdict says it */
        timed_out |= !strcmp(results[i].verdict, "timed out") && !strstr(results[i].name, "(counters)");
    for (size_t k = 0; k < sizeof tools / sizeof *tools; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s%s%s.log", dir, tools[k][0], unit ? "-" : "", unit ? unit : "");
        FILE *f = fopen(path, "w");
        if (!f)
            return -1;
        int found = 0;
        for (int i = 0; i < nfindings; i++) {
            if (strcmp(findings[i].kind, tools[k][1]) && !(k == 0 && !strcmp(findings[i].kind, "host")))
                continue;
            fprintf(f, "========= %s (CPU mode, no GPU): %s%s\n", tools[k][2], findings[i].text, finding_case(&findings[i]));
            if (findings[i].superstep[0])
                fprintf(f, "=========     in SUPERSTEP(%s)\n", findings[i].superstep);
            fprintf(f, "========= \n");   /* the end of one finding (report.c quotes the first) */
            found++;
        }
        fprintf(f, "========= ERROR SUMMARY: %d error%s (CPU mode)\n", found, found == 1 ? "" : "s");
        if (fclose(f))
            return -1;
        snprintf(path, sizeof path, "%s/%s%s%s.status", dir, tools[k][0], unit ? "-" : "", unit ? unit : "");
        f = fopen(path, "w");
        if (!f)
            return -1;
        fprintf(f, "%d\n", found ? 86 : timed_out ? 124 : 0);
        if (fclose(f))
            return -1;
    }
    return 0;
}

/* Shapes are capped to what runs in seconds on a laptop's CPU; above, one line says so. */
static const double CAP_ELEMENTS = 4096.0 * 4096, CAP_MULTIPLY = 512.0 * 512 * 512;
static void capped(double asked, double cap, const char *what, const char *shape)
{
    if (asked <= cap)
        return;
    fprintf(stderr, "cpu-check: %s is too large for CPU mode, which runs up to %s (to finish in seconds); "
            "pick a smaller one, or run on a GPU\n", shape, what);
    exit(2);
}

/* The workers' folder, empty unless a worker wrote in it (the sandbox refuses that). */
static void remove_work_dir(void)
{
    if (work_dir[0])
        rmdir(work_dir);
}

/* Stopped (Ctrl-C, a grade's time limit): the worker's group and the folder go too. */
static void on_stop(int sig)
{
    if (running_worker > 0)
        kill(-running_worker, SIGKILL);
    remove_work_dir();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* What build/labN --cpu says about its options: the option named, and the
 * command as the student typed it. */
static void option_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void option_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (strcmp(lab, "this lab"))
        fprintf(stderr, "build/%s --cpu: ", lab);
    else
        fprintf(stderr, "cpu-check: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* A whole number of at least 1, or 0. */
static int positive(const char *v)
{
    char *end;
    long n = strtol(v, &end, 10);
    return *v && !*end && n >= 1 && n <= 0x7fffffff ? (int)n : 0;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: cpu-check --worker PATH --kind transpose|matmul|supersteps|sparse [--lab ID] [--source FILE]\n"
                "       [--shape RxC|MxKxN|N]... [--unit NAME] [--counters SHAPE | --no-counters]\n"
                "       [--sparsity dense|zero|blocks|values|along-k] [--density D] [--seed S]\n"
                "       [--timeout S] [--json FILE] [--branches MxKxN | --no-branches] [--contrast WORKER]\n"
                "       [--ptx FILE]\n");
}

/* ---- main: the options, the shapes, the cases, the report ----------------- */

/* The command line, parsed. */
typedef struct {
    const char *json_path, *counters_shape, *unit, *ncu_csv, *sanitizer_logs;
    /* --shape and --mnk, in order, each a case of its own: RxC for a
     * transpose, MxKxN for a matmul, and for one of lab 5's kernels its n,
     * side or MxKxN (as build/labN takes them on a GPU). */
    const char *shapes[MAX_SHAPES], *shape_option[MAX_SHAPES];
    /* Lab 7: a shape is for the --unit before it (--unit dense --shape S
     * --unit sparse --shape T), else for the last --unit, else for both. */
    const char *shape_unit[MAX_SHAPES];
    int nshapes, n_only, no_counters, no_branches;
    const char *branches_option, *contrast;
    tl_shape shape_rc[MAX_SHAPES];      /* the shapes parsed (check_shapes) */
    tl_mm_shape shape_mm[MAX_SHAPES];
    int shape_n[MAX_SHAPES];            /* lab 5: a length n or a side N */
} options;

/* -1: go on; else the exit status (0 after --help). */
static int parse_options(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(a, name) && v && ++i)
        if (OPT("--worker")) worker_path = v;
        else if (OPT("--kind")) kind = v;
        else if (OPT("--lab")) lab = v;
        else if (OPT("--source")) source = v;
        else if (OPT("--ptx")) ptx_option = v;
        else if (OPT("--shape") || OPT("--mnk")) {
            if (o->nshapes == MAX_SHAPES) {
                option_error("at most %d shapes (--shape, --mnk) in one run; run it again for the others", MAX_SHAPES);
                return 2;
            }
            o->shape_option[o->nshapes] = a;
            o->shape_unit[o->nshapes] = o->unit;
            o->shapes[o->nshapes++] = v;
        }
        else if (OPT("--unit")) o->unit = v;
        else if (!strcmp(a, "--nan-inf")) nan_inf = 1;
        else if (OPT("--ncu-csv")) o->ncu_csv = v;
        else if (OPT("--sanitizer-logs")) o->sanitizer_logs = v;
        else if (OPT("--n")) {
            if ((o->n_only = positive(v)) <= 0) {
                option_error("--n takes a length of at least 1, not '%s'", v);
                return 2;
            }
        }
        else if (OPT("--counters")) o->counters_shape = v;
        else if (!strcmp(a, "--no-counters")) o->no_counters = 1;
        else if (OPT("--branches")) o->branches_option = v;
        else if (!strcmp(a, "--no-branches")) o->no_branches = 1;
        else if (OPT("--contrast")) o->contrast = v;
        else if (OPT("--seed")) seed = strtoull(v, NULL, 10);
        else if (OPT("--sparsity")) {
            static const char *const names[] = {"dense", "zero", "blocks", "values", "along-k"};
            int k = 0;
            while (k < 5 && strcmp(v, names[k]))
                k++;
            if (k == 5) {
                fprintf(stderr, "cpu-check: --sparsity is dense, zero, blocks, values or along-k\n");
                return 2;
            }
            sparsity = (tl_sparsity)k;
        }
        else if (OPT("--density")) density = atof(v);
        else if (OPT("--timeout")) timeout_s = atof(v);
        else if (OPT("--json")) o->json_path = v;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else {
            option_error("unknown option '%s'%s", a, v || a[0] != '-' ? "" : ", or it needs a value after it");
            usage(stderr);
            return 2;
        }
#undef OPT
    }
    if (!worker_path) {
        usage(stderr);
        return 2;
    }
    return -1;
}

/* The worker found, and the folder its runs start in made (removed at exit). 0, else 2. */
static int prepare_worker(void)
{
    if (!realpath(worker_path, worker_abs)) {
        fprintf(stderr, "cpu-check: no worker %s: %s\n", worker_path, strerror(errno));
        return 2;
    }
    snprintf(code_path, sizeof code_path, "%s.so", worker_abs);
    snprintf(ptx_path, sizeof ptx_path, "%s.ptx", worker_abs);   /* the file's PTX, beside it (cpu/cpu.mk) */
    if (access(code_path, R_OK) != 0)
        snprintf(code_path, sizeof code_path, "%s", worker_abs);
    /* Under TMPDIR where one is set (./grade sets one of its own, removed when it ends). */
    const char *tmp = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
    snprintf(work_dir, sizeof work_dir, "%.4000s/tilelab-cpu-XXXXXX", tmp);
    if (!mkdtemp(work_dir)) {
        fprintf(stderr, "cpu-check: cannot make a folder in %s: %s\n", tmp, strerror(errno));
        return 2;
    }
    atexit(remove_work_dir);
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    signal(SIGHUP, on_stop);
    return 0;
}

/* The shapes, checked before anything runs: each in its kind's form, and not too large. 0, else 2. */
static int check_shapes(options *o)
{
    int transpose = !strcmp(kind, "transpose"), supersteps = !strcmp(kind, "supersteps");
    int dbuf = supersteps && o->unit && !strcmp(o->unit, "dbuf");
    int matmul = !strcmp(kind, "matmul") || !strcmp(kind, "sparse") || dbuf;
    for (int i = 0; i < o->nshapes; i++) {
        const char *s = o->shapes[i];
        /* Lab 5: each shape is for the --unit before it (else the last --unit), as on a GPU. */
        const char *unit = o->shape_unit[i] ? o->shape_unit[i] : o->unit;
        if (supersteps && !unit) {
            option_error("--shape needs a --unit before it (reverse, sums, pairs, inplace or dbuf): which kernel the shape is for");
            return 2;
        }
        int mm = supersteps ? !strcmp(unit, "dbuf") : matmul;
        if (transpose && tl_parse_shape(s, &o->shape_rc[i]) == 0)
            capped((double)o->shape_rc[i].rows * o->shape_rc[i].cols, CAP_ELEMENTS, "4096x4096 elements", s);
        else if (mm && tl_parse_mm_shape(s, &o->shape_mm[i]) == 0)
            capped((double)o->shape_mm[i].m * o->shape_mm[i].n * o->shape_mm[i].k, CAP_MULTIPLY,
                   "512x512x512 multiply-adds", s);
        else if (supersteps && !mm && (o->shape_n[i] = positive(s)) > 0)
            capped(o->shape_n[i], CAP_ELEMENTS, "n=16777216", "that n");
        else if (own_kind_named(kind) && (o->n_only = positive(s)) > 0)
            ;
        else {
            option_error("%s '%s': %s", o->shape_option[i], s,
                         transpose ? "a transpose's shape is RxC, e.g. 257x131"
                         : mm ? "a matmul's shape is MxKxN, e.g. 17x33x65"
                         : !strcmp(unit, "inplace") ? "the in-place transpose takes its side N, e.g. 61"
                                                       : "this kernel takes its length n, e.g. 1000");
            return 2;
        }
    }
    if (o->branches_option && tl_parse_mm_shape(o->branches_option, &branch_shape)) {
        option_error("--branches '%s': MxKxN, e.g. 128x256x256", o->branches_option);
        return 2;
    }
    if (o->branches_option)
        capped((double)branch_shape.m * branch_shape.n * branch_shape.k, CAP_MULTIPLY, "512x512x512 multiply-adds",
               o->branches_option);
    tl_shape s;
    tl_mm_shape m;
    if (o->counters_shape && ((transpose && tl_parse_shape(o->counters_shape, &s)) ||
                              (matmul && tl_parse_mm_shape(o->counters_shape, &m)))) {
        option_error("--counters '%s': %s", o->counters_shape, transpose ? "RxC, e.g. 1024x1024" : "MxKxN, e.g. 256x256x256");
        return 2;
    }
    if (o->counters_shape && transpose)
        capped((double)s.rows * s.cols, CAP_ELEMENTS, "4096x4096 elements", o->counters_shape);
    if (o->counters_shape && matmul)
        capped((double)m.m * m.n * m.k, CAP_MULTIPLY, "512x512x512 multiply-adds", o->counters_shape);
    if (o->n_only)
        capped(o->n_only, CAP_ELEMENTS, "n=16777216", "that n");
    return 0;
}

/* The cases run so far, and how many were right. */
static int cases_passed, cases_run;

/* One case: run, counted and printed (with what the file printed). */
static void run_and_print(int op, int a, int b, int c, int counting, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void run_and_print(int op, int a, int b, int c, int counting, const char *fmt, ...)
{
    char name[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    cases_passed += run_case(name, op, a, b, c, counting);
    cases_run++;
    const case_result *r = &results[nresults - 1];
    printf("%-22s %-11s%s%s\n", r->name, r->verdict, r->message[0] ? "  " : "", r->message);
    if (r->output[0])
        printf("    your code printed:\n%s%s", r->output, r->output[strlen(r->output) - 1] == '\n' ? "" : "\n");
}

/* Each kind's cases: the shapes asked for, else the visible tests' own, then the counted shape
 * (its name into cshape). 0, else 2. */
static int transpose_cases(const options *o, char *cshape, size_t len)
{
    tl_shape c = {1024, 1024};
    if (o->nshapes) {
        for (int i = 0; i < o->nshapes; i++)
            run_and_print(TL_OP_TRANSPOSE, o->shape_rc[i].rows, o->shape_rc[i].cols, 0, 0, "%dx%d",
                          o->shape_rc[i].rows, o->shape_rc[i].cols);
    } else {
        static const tl_shape visible[] = {{1, 1}, {2, 3}, {31, 33}, {1, 1024}, {1024, 1}, {61, 67}, {257, 131}, {1000, 1500}};
        for (size_t i = 0; i < sizeof visible / sizeof *visible; i++)
            run_and_print(TL_OP_TRANSPOSE, visible[i].rows, visible[i].cols, 0, 0, "%dx%d", visible[i].rows, visible[i].cols);
    }
    if (o->counters_shape && tl_parse_shape(o->counters_shape, &c)) { usage(stderr); return 2; }
    if (!o->no_counters) {
        snprintf(cshape, len, "%dx%d", c.rows, c.cols);
        run_and_print(TL_OP_TRANSPOSE, c.rows, c.cols, 0, 1, "%s (counters)", cshape);
    }
    return 0;
}

static int matmul_cases(const options *o, char *cshape, size_t len)
{
    tl_mm_shape c = {256, 256, 256};
    if (o->nshapes) {
        for (int i = 0; i < o->nshapes; i++) {
            tl_mm_shape s = o->shape_mm[i];
            run_and_print(TL_OP_MATMUL, s.m, s.n, s.k, 0, "%dx%dx%d", s.m, s.k, s.n);
        }
    } else {
        static const tl_mm_shape visible[] = {{1, 1, 1}, {31, 35, 33}, {64, 64, 64}, {61, 130, 67}};
        for (size_t i = 0; i < sizeof visible / sizeof *visible; i++)
            run_and_print(TL_OP_MATMUL, visible[i].m, visible[i].n, visible[i].k, 0, "%dx%dx%d", visible[i].m,
                          visible[i].k, visible[i].n);
    }
    if (o->counters_shape && tl_parse_mm_shape(o->counters_shape, &c)) { usage(stderr); return 2; }
    if (!o->no_counters) {
        snprintf(cshape, len, "%dx%dx%d", c.m, c.k, c.n);
        run_and_print(TL_OP_MATMUL, c.m, c.n, c.k, 1, "%s (counters)", cshape);
    }
    return 0;
}

/* Lab 5: one kernel (the rubric's unit names it), else every kernel on the visible shapes. */
static int supersteps_cases(const options *o)
{
    int n = o->n_only ? o->n_only : 1000;
    /* Each --shape with the --unit before it (labs 4, 6 and 7 take several too); a --unit
     * without shapes after it runs at --n (or the default). */
    for (int i = 0; i <= o->nshapes; i++) {
        const char *unit = i < o->nshapes ? (o->shape_unit[i] ? o->shape_unit[i] : o->unit) : o->unit;
        if (i == o->nshapes && (!unit || o->nshapes))
            break;
        int m = i < o->nshapes && o->shape_n[i] ? o->shape_n[i] : n;
        tl_mm_shape s = i < o->nshapes && !strcmp(unit, "dbuf") ? o->shape_mm[i] : (tl_mm_shape){64, 64, 64};
        if (!strcmp(unit, "reverse")) run_and_print(TL_OP_REVERSE, m, 0, 0, 0, "reverse_blocks n=%d", m);
        else if (!strcmp(unit, "sums")) run_and_print(TL_OP_SUMS, m, 0, 0, 0, "block_sums n=%d", m);
        else if (!strcmp(unit, "pairs")) run_and_print(TL_OP_PAIRS, m, 0, 0, 0, "pair_sums n=%d", m);
        else if (!strcmp(unit, "inplace")) run_and_print(TL_OP_INPLACE, m, 0, 0, 0, "transpose_inplace %dx%d", m, m);
        else if (!strcmp(unit, "dbuf")) run_and_print(TL_OP_DBUF, s.m, s.n, s.k, 0, "matmul_dbuf %dx%dx%d", s.m, s.k, s.n);
        else { fprintf(stderr, "cpu-check: unknown unit '%s' (reverse, sums, pairs, inplace or dbuf)\n", unit); return 2; }
    }
    if (o->nshapes || o->unit)
        return 0;
    run_and_print(TL_OP_REVERSE, n, 0, 0, 0, "reverse_blocks n=%d", n);
    run_and_print(TL_OP_SUMS, n, 0, 0, 0, "block_sums n=%d", n);
    run_and_print(TL_OP_PAIRS, n, 0, 0, 0, "pair_sums n=%d", n);
    if (!o->n_only)
        run_and_print(TL_OP_PAIRS, 20000, 0, 0, 0, "pair_sums n=%d", 20000);
    run_and_print(TL_OP_INPLACE, 1, 0, 0, 0, "transpose_inplace %dx%d", 1, 1);
    run_and_print(TL_OP_INPLACE, 61, 0, 0, 0, "transpose_inplace %dx%d", 61, 61);
    run_and_print(TL_OP_INPLACE, 96, 0, 0, 0, "transpose_inplace %dx%d", 96, 96);
    run_and_print(TL_OP_DBUF, 31, 35, 33, 0, "matmul_dbuf %dx%dx%d", 31, 33, 35);
    run_and_print(TL_OP_DBUF, 64, 64, 64, 0, "matmul_dbuf %dx%dx%d", 64, 64, 64);
    return 0;
}

static int known_sparse_unit(const char *u)
{
    if (u && strcmp(u, "dense") && strcmp(u, "sparse")) {
        fprintf(stderr, "cpu-check: unknown unit '%s' (dense or sparse)\n", u);
        return 0;
    }
    return 1;
}

/* Lab 7: two kernels, the rubric's units dense and sparse; then the branches case, the
 * student's kernel beside the wide-tile contrast. */
static int sparse_cases(const options *o, char *cshape, size_t len)
{
    static const char *const zeros[] = {"no zeros", "all zero", "zero K-blocks", "zero values", "changing along K"};
    const char *unit = o->unit;
    if (!known_sparse_unit(unit))
        return 2;
    int dense = !unit || !strcmp(unit, "dense"), sparse = !unit || !strcmp(unit, "sparse");
    if (o->nshapes) {
        char dens[32] = "";
        if (sparsity == TL_SPARSE_BLOCKS || sparsity == TL_SPARSE_ELEMENTS)
            snprintf(dens, sizeof dens, ", density %g", density);
        for (int i = 0; i < o->nshapes; i++) {
            const char *u = o->shape_unit[i] ? o->shape_unit[i] : unit;
            if (!known_sparse_unit(u))
                return 2;
            dense = !u || !strcmp(u, "dense"), sparse = !u || !strcmp(u, "sparse");
            tl_mm_shape s = o->shape_mm[i];
            if (dense)
                run_and_print(TL_OP_MATMUL, s.m, s.n, s.k, 0, "dense %dx%dx%d", s.m, s.k, s.n);
            if (sparse)
                run_and_print(TL_OP_SPARSE, s.m, s.n, s.k, 0, "sparse %dx%dx%d (B %s%s)", s.m, s.k, s.n,
                              zeros[sparsity], dens);
        }
    } else {
        static const tl_mm_shape visible[] = {{1, 1, 1}, {31, 35, 33}, {64, 64, 64}, {61, 130, 67}};
        if (dense)
            for (size_t i = 0; i < sizeof visible / sizeof *visible; i++)
                run_and_print(TL_OP_MATMUL, visible[i].m, visible[i].n, visible[i].k, 0, "dense %dx%dx%d", visible[i].m,
                              visible[i].k, visible[i].n);
        /* Every kind of zeros once, on shapes with partial tiles and a K tail. */
        static const struct { tl_mm_shape s; tl_sparsity z; double d; } cases[] = {
            {{1, 1, 1}, TL_SPARSE_DENSE, 1}, {{31, 35, 33}, TL_SPARSE_ALONG_K, 0},
            {{64, 64, 64}, TL_SPARSE_BLOCKS, 0.5}, {{61, 130, 67}, TL_SPARSE_ELEMENTS, 0.5},
            {{130, 203, 129}, TL_SPARSE_ZERO, 0}};
        if (sparse)
            for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
                sparsity = cases[i].z, density = cases[i].d;
                run_and_print(TL_OP_SPARSE, cases[i].s.m, cases[i].s.n, cases[i].s.k, 0, "sparse %dx%dx%d (B %s)",
                              cases[i].s.m, cases[i].s.k, cases[i].s.n, zeros[cases[i].z]);
            }
    }
    /* The memory counters of each part's kernel (the --unit's, else both), as
     * lab 4's: bank conflicts, sectors and widths per line; the sparse kernel
     * with half its K-blocks zero, so the lines it skips show as such. */
    tl_mm_shape c = {256, 256, 256};
    if (o->counters_shape && tl_parse_mm_shape(o->counters_shape, &c)) { usage(stderr); return 2; }
    if (!o->no_counters) {
        snprintf(cshape, len, "%dx%dx%d", c.m, c.k, c.n);
        if (!unit || !strcmp(unit, "dense"))
            run_and_print(TL_OP_MATMUL, c.m, c.n, c.k, 1, "dense %s (counters)", cshape);
        if (!unit || !strcmp(unit, "sparse")) {
            tl_sparsity asked = sparsity;
            double asked_density = density;
            sparsity = TL_SPARSE_BLOCKS, density = 0.5;
            run_and_print(TL_OP_SPARSE, c.m, c.n, c.k, 1, "sparse %s (counters)", cshape);
            sparsity = asked, density = asked_density;
        }
    }
    if (sparse && !o->no_branches && (o->json_path || o->branches_option)) {
        static char beside[4096 + 64];
        const char *contrast = o->contrast;
        if (!contrast) {   /* the CPU kit's, beside this program */
            char self[4096];
            ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
            self[n > 0 ? n : 0] = 0;
            char *slash = strrchr(self, '/');
            if (slash)
                *slash = 0;
            snprintf(beside, sizeof beside, "%s/contrast/sparse_wide/worker", self);
            contrast = beside;
        }
        branch_runs[0].kernel = "yours", branch_runs[0].source = source ? source : worker_path;
        branches_run(&branch_runs[0], worker_path);
        branch_runs[1].kernel = "contrast", branch_runs[1].source = "kinds/sparse/sparse_wide_launch.cu";
        branches_run(&branch_runs[1], contrast);
    }
    return 0;
}

/* cpu-check.json: the cases and the findings (the counters and branches are added after). */
static void write_cases_json(tl_json_writer *jw)
{
    tl_jw_object_begin(jw, NULL);
    tl_jw_string(jw, "mode", "cpu");
    tl_jw_string(jw, "lab", lab);
    tl_jw_int(jw, "passed", cases_passed);
    tl_jw_int(jw, "cases", cases_run);
    tl_jw_array_begin(jw, "results");
    for (int i = 0; i < nresults; i++) {
        tl_jw_object_begin(jw, NULL);
        tl_jw_string(jw, "name", results[i].name);
        tl_jw_string(jw, "verdict", results[i].verdict);
        tl_jw_string(jw, "message", results[i].message);
        tl_jw_int(jw, "findings", results[i].findings);
        tl_jw_object_end(jw);
    }
    tl_jw_array_end(jw);
    tl_jw_array_begin(jw, "findings");
    for (int i = 0; i < nfindings; i++) {
        tl_jw_object_begin(jw, NULL);
        tl_jw_string(jw, "kind", findings[i].kind);
        tl_jw_int(jw, "line", findings[i].line);
        tl_jw_int(jw, "line2", findings[i].line2);
        tl_jw_string(jw, "superstep", findings[i].superstep[0] ? findings[i].superstep : NULL);
        tl_jw_string(jw, "text", findings[i].text);
        tl_jw_string(jw, "case", findings[i].case_name);
        tl_jw_int(jw, "more_cases", findings[i].more_cases);
        tl_jw_object_end(jw);
    }
    tl_jw_array_end(jw);
}

/* What the cases found, on stdout and into the files asked for (--json, --ncu-csv,
 * --sanitizer-logs). 0, else 2. */
static int report_cases(const options *o, const char *cshape)
{
    printf("\n%d of %d cases right.\n", cases_passed, cases_run);
    FILE *jf = o->json_path ? fopen(o->json_path, "w") : NULL;
    if (o->json_path && !jf) {
        fprintf(stderr, "cpu-check: cannot write %s: %s\n", o->json_path, strerror(errno));
        return 2;
    }
    tl_json_writer jw;
    if (jf) {
        tl_jw_init(&jw, jf);
        write_cases_json(&jw);
    }
    if (nfindings) {
        printf("\nChecks found:\n");
        for (int i = 0; i < nfindings; i++)
            printf("  %s%s%s%s%s\n", findings[i].text, findings[i].superstep[0] ? " [SUPERSTEP " : "",
                   findings[i].superstep, findings[i].superstep[0] ? "]" : "", finding_case(&findings[i]));
    } else {
        printf("\nChecks: no shared-memory race, no barrier problem, no out-of-bounds access.\n");
    }
    if (cshape[0])
        apply_ptx_widths();
    if (cshape[0])
        print_counters(cshape, jf ? &jw : NULL);
    if (branch_runs[0].kernel) {
        print_branches();
        if (jf)
            write_branches(&jw);
    }
    if (o->ncu_csv && cshape[0] && write_ncu_csv(o->ncu_csv) != 0) {
        fprintf(stderr, "cpu-check: cannot write %s: %s\n", o->ncu_csv, strerror(errno));
        return 2;
    }
    if (o->sanitizer_logs && write_sanitizer_logs(o->sanitizer_logs, o->unit) != 0) {
        fprintf(stderr, "cpu-check: cannot write the sanitizer logs in %s: %s\n", o->sanitizer_logs, strerror(errno));
        return 2;
    }
    if (jf) {
        tl_jw_object_end(&jw);
        fputc('\n', jf);
        fclose(jf);
    }
    return 0;
}

int main(int argc, char **argv)
{
    static options o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return status;
    if (prepare_worker() || check_shapes(&o))
        return 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("tilelab CPU check: %s (%s)\n", lab, source ? source : worker_path);
    printf("Kernels run on the CPU, one fiber per CUDA thread: results, races, barriers, bounds and\n"
           "the memory counters a GPU would count are checked; nothing is timed.\n\n");
    printf("%-22s %-11s\n", "case", "verdict");
    char cshape[64] = "";
    const tlc_kind *own = own_kind_named(kind);
    if (!strcmp(kind, "transpose"))
        status = transpose_cases(&o, cshape, sizeof cshape);
    else if (!strcmp(kind, "matmul"))
        status = matmul_cases(&o, cshape, sizeof cshape);
    else if (!strcmp(kind, "supersteps"))
        status = supersteps_cases(&o);
    else if (!strcmp(kind, "sparse"))
        status = sparse_cases(&o, cshape, sizeof cshape);
    else if (own) {
        int n = o.n_only ? o.n_only : own->n_default;
        run_and_print(own->op, n, 0, 0, 0, "%s n=%d", own->label, n);
        status = 0;
    } else {
        fprintf(stderr, "cpu-check: unknown kind '%s' (transpose, matmul, supersteps or sparse)\n", kind);
        return 2;
    }
    if (status || report_cases(&o, cshape))
        return 2;
    printf("\nNo timing in CPU mode: speed needs a GPU. Run ./grade there for your score.\n");
    return cases_passed == cases_run && !nfindings ? 0 : 1;
}
