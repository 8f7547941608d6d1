/*
 * bench_sweep.cu — `make bench`: every lab kernel over a sweep of sizes, one
 * CSV for `make plots`.
 *
 * What runs: the lab files tools/bench/bench_objects linked in (each lab's
 * reference solution and the student's current file, see the table in
 * tools/bench/bench_sweep.h) and a library kernel per op (cuBLAS Sgeam for the
 * transpose). Each kernel, at each size:
 *   1. is verified against the CPU reference (kit/matrix.h) before it is
 *      timed: output poisoned with NaN, one launch under the kernel deadline;
 *   2. is timed cold (L2 flushed), interleaved with the device's copy of the
 *      same bytes (tl_bench_against_copy, plan TL_BENCH_SWEEP);
 *   3. is verified again on what the last timed launch wrote.
 * A kernel that fails at a size gets a row with verified 0 and no numbers.
 *
 * A student's kernel cannot stop the sweep. Each student file is first run
 * on a few awkward small shapes in a process of its own (with guard regions,
 * as the grader's tests do): one that writes out of bounds, crashes or hangs
 * there is left out, and skeletons, which write nothing, stop there too. The
 * sweep itself runs in a child of this process: if a kernel still faults or
 * hangs (the GPU context dies with it), the child reports which, and a new
 * child goes on from that size without that kernel.
 *
 * The CSV (fixed columns; empty field = not applicable or not measured):
 *   '#' lines: the device (gpu, arch, sms, l2_bytes, clocks, bus width,
 *   driver and runtime CUDA versions, date_utc), then
 *   op,series,who,rows,cols,depth,bytes,fits_l2,median_ms,gbps,gflops,copy_gbps,fraction_of_copy,verified
 * op: transpose, or matmul (rows=M cols=N depth=K, gflops filled, the
 * bandwidth columns empty; bytes = A, B and C once each); series: copy, naive, tiled, padded, ..., cublas; who: device (the
 * copy), reference, student, library. A transpose size has two device rows:
 * copy, the faster of cudaMemcpy and the kit's float4 copy kernel (the
 * ceiling every fraction_of_copy divides by), and copy_float4, the kernel
 * alone (its fraction_of_copy: its share of that ceiling). bytes = bytes moved (read + write, at
 * least once each); fits_l2 = 1 when they fit in L2. The copy row is the
 * median of the copies timed beside that size's kernels; every kernel row
 * has its own copy_gbps and fraction_of_copy from its own run.
 *
 *   bench_sweep [--out FILE] [--no-student]   sweep (default results/bench.csv)
 *   bench_sweep --list                        the table, no GPU needed
 * Progress on stderr: "[k/N] transpose padded reference 8192x8192: 3500 GB/s (0.85 of copy)".
 * Exit: 0 done (kernels left out are listed), 2 cannot run (no GPU, cannot write the CSV).
 */
#include "tilelab.h"
#include "check.h"
#include "bench.h"
#include "bench_sweep.h"
#include "case.h"
#include "csv.h"
#include "device.h"
#include "matrix.h"
#include "transpose_case.h"
#include "matmul_case.h"

#include <cublas_v2.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* transpose_case.cu (the student precheck) refers to the lab's own
 * launch_transpose; in this program every lab's is renamed, so this one is
 * never called. */
extern "C" void launch_transpose(const float *in, float *out, int rows, int cols)
{
    (void)in, (void)out, (void)rows, (void)cols;
    fprintf(stderr, "bench: launch_transpose called without a lab (a bug in tools/bench/bench_sweep.cu)\n");
    abort();
}

/* The grader's naive kernel (kinds/matmul/matmul_naive.cu): the matmul floor. */
extern "C" void tl_matmul_naive(const float *A, const float *B, float *C, int M, int N, int K);

/* ---- what is measured ------------------------------------------------------ */

typedef struct {
    int rows, cols, depth;
} shape;

/* A kernel in the sweep. The array of them is shared (mmap) between this
 * process and its sweep children, so what one child learns (a precheck, a
 * kernel that broke the context) the next one knows. */
typedef struct {
    const char *op, *series, *who, *source;
    tl_bench_any_fn launch;
    int prechecked;
    char skipped[1200];   /* empty: in the sweep */
} kernel;

/* One CSV row; NaN numbers are written as empty fields. */
typedef struct {
    const char *op, *series, *who;
    int rows, cols, depth;
    double bytes;
    int fits_l2;
    double median_ms, gbps, gflops, copy_gbps, fraction;
    int verified;
} row;

typedef struct {
    tl_device_info dev;
    const char *csv_path;
    FILE *csv;
    int done, total;          /* progress: measurements made, and planned */
    int ordinal;              /* the size being measured, counted over every op's sizes */
    int done_before;          /* `done` when that size began */
    const kernel *current;    /* the kernel on the GPU now, or NULL */
} sweep;

/* An op the sweep knows: its sizes, its library kernel, how to check a
 * student's kernel on small shapes (in a process of its own), and how to
 * measure every kernel at one size. */
typedef struct {
    const char *op;
    const shape *shapes;
    int shape_count;
    const char *library_series;
    int (*library_init)(tl_bench_any_fn *launch, char *why, size_t len);
    int (*precheck)(tl_bench_any_fn launch, char *why, size_t len);
    void (*measure)(sweep *s, const shape *sh, kernel *const *kernels, int count);
} sweep_op;

static kernel *kernels;       /* the lab table's entries, then one library kernel per op */
static int kernel_count;

static double nan_value(void)
{
    return nan("");
}

/* ---- output --------------------------------------------------------------- */

static void write_header(sweep *s)
{
    const tl_device_info *d = &s->dev;
    int sm_clock_khz = 0;   /* the peak SM clock: not in tl_device_info */
    cudaDeviceGetAttribute(&sm_clock_khz, cudaDevAttrClockRate, 0);
    char date[32];
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    fprintf(s->csv,
            "# tilelab bench\n# gpu: %s\n# arch: sm_%d%d\n# sms: %d\n# l2_bytes: %zu\n"
            "# sm_clock_mhz: %d\n# mem_clock_mhz: %d\n# bus_width_bits: %d\n"
            "# driver: %d.%d\n# cuda: %d.%d\n# date_utc: %s\n",
            d->name, d->cc_major, d->cc_minor, d->sm_count, d->l2_bytes, sm_clock_khz / 1000,
            d->mem_clock_khz / 1000, d->bus_width_bits, d->driver_version / 1000,
            d->driver_version % 1000 / 10, d->runtime_version / 1000, d->runtime_version % 1000 / 10, date);
    static const char *const columns[] = {"op", "series", "who", "rows", "cols", "depth", "bytes", "fits_l2",
                                          "median_ms", "gbps", "gflops", "copy_gbps", "fraction_of_copy",
                                          "verified"};
    tl_csv_row(s->csv, columns, (int)(sizeof columns / sizeof columns[0]));
    fflush(s->csv);
}

static const char *number(char *buf, size_t len, const char *format, double v)
{
    if (isnan(v))
        return NULL;   /* an empty field */
    snprintf(buf, len, format, v);
    return buf;
}

static void write_row(sweep *s, const row *r)
{
    char rows[16], cols[16], depth[16], bytes[32], fits[4], ms[32], gbps[32], gflops[32], copy[32],
        fraction[32], verified[4];
    snprintf(rows, sizeof rows, "%d", r->rows);
    snprintf(cols, sizeof cols, "%d", r->cols);
    snprintf(depth, sizeof depth, "%d", r->depth);
    snprintf(bytes, sizeof bytes, "%.0f", r->bytes);
    snprintf(fits, sizeof fits, "%d", r->fits_l2);
    snprintf(verified, sizeof verified, "%d", r->verified);
    const char *fields[] = {r->op, r->series, r->who, rows, cols, depth, bytes, fits,
                            number(ms, sizeof ms, "%.5f", r->median_ms),
                            number(gbps, sizeof gbps, "%.1f", r->gbps),
                            number(gflops, sizeof gflops, "%.1f", r->gflops),
                            number(copy, sizeof copy, "%.1f", r->copy_gbps),
                            number(fraction, sizeof fraction, "%.3f", r->fraction), verified};
    tl_csv_row(s->csv, fields, (int)(sizeof fields / sizeof fields[0]));
}

static void progress(sweep *s, const kernel *k, const shape *sh, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static void progress(sweep *s, const kernel *k, const shape *sh, const char *format, ...)
{
    char what[1400];
    va_list ap;
    va_start(ap, format);
    vsnprintf(what, sizeof what, format, ap);
    va_end(ap);
    fprintf(stderr, "[%d/%d] %s %s %s %dx%d: %s\n", s->done, s->total, k->op, k->series, k->who, sh->rows,
            sh->cols, what);
}

/* ---- when the GPU context dies ---------------------------------------------
 * A kernel that faults or never finishes takes this process's GPU context
 * with it. The sweep child then tells its parent which kernel it was and
 * where (on `stop_fd`), and leaves without the CUDA runtime's exit handler
 * (it would wait for a hung kernel forever); the parent starts a new child
 * without that kernel. */
static sweep *current_sweep;
static int stop_fd = -1;

static void stop_sweep(const char *why)
{
    sweep *s = current_sweep;
    if (s && s->csv)
        fclose(s->csv);   /* rows of finished sizes only: the current size is measured again */
    if (s && s->current) {
        fprintf(stderr, "bench: %s %s %s broke the GPU context: %s\n", s->current->op, s->current->series,
                s->current->who, why);
        char report[1600];
        int n = snprintf(report, sizeof report, "%d %d %d %s\n", s->ordinal, (int)(s->current - kernels),
                         s->done_before, why);
        if (stop_fd >= 0 && write(stop_fd, report, (size_t)n < sizeof report ? (size_t)n : sizeof report - 1) < 0)
            perror("bench: report to the parent");
    } else {
        fprintf(stderr, "bench: the sweep stopped: %s\n", why);
    }
    fflush(NULL);
    _exit(TL_EXIT_FAILED);
}

static void cuda_error_stops_sweep(const char *message)
{
    stop_sweep(message);
}

/* ---- transpose --------------------------------------------------------------- */

static const shape TRANSPOSE_SHAPES[] = {
    {256, 256, 0},   {512, 512, 0},   {1024, 1024, 0}, {2048, 2048, 0}, {4096, 4096, 0},
    {8192, 8192, 0}, {16384, 16384, 0},
    /* non-square: not a multiple of the tile, both wide and tall, one row */
    {1000, 1500, 0}, {8192, 1024, 0}, {1024, 8192, 0}, {1, 1048576, 0},
};

static cublasHandle_t cublas;
static cublasStatus_t cublas_status = CUBLAS_STATUS_SUCCESS;

/* out (cols x rows) = in^T, row-major, by cuBLAS. Seen column-major, `in` is
 * a cols x rows matrix A (lda = cols) and `out` the rows x cols matrix
 * C = A^T (ldc = rows). beta = 0: B (given as C, in place) is not read. */
static void cublas_transpose(const float *in, float *out, int rows, int cols)
{
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t st = cublasSgeam(cublas, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out,
                                    rows, out, rows);
    if (st != CUBLAS_STATUS_SUCCESS && cublas_status == CUBLAS_STATUS_SUCCESS) {
        cublas_status = st;   /* the output stays poisoned: verification says the rest */
        fprintf(stderr, "bench: cublasSgeam failed: %s\n", cublasGetStatusString(st));
    }
}

static int cublas_init(tl_bench_any_fn *launch, char *why, size_t len)
{
    cublasStatus_t st = cublasCreate(&cublas);
    if (st != CUBLAS_STATUS_SUCCESS) {
        snprintf(why, len, "cublasCreate failed: %s", cublasGetStatusString(st));
        return -1;
    }
    *launch = (tl_bench_any_fn)cublas_transpose;
    return 0;
}

/* The quick check of a student kernel, in a process of its own: the
 * grader's own checked run (guards, poisoned output, unchanged input, kernel
 * deadline) on shapes that catch a wrong grid or a missing bounds test. */
static int transpose_precheck(tl_bench_any_fn launch, char *why, size_t len)
{
    static const int shapes[][2] = {{1, 1}, {31, 33}, {61, 67}, {257, 131}, {1, 1000}, {1000, 1}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        tl_case_result r = tl_transpose_case_of((tl_transpose_fn)launch, shapes[i][0], shapes[i][1], 7);
        if (r.verdict != TL_CASE_PASS) {
            snprintf(why, len, "%s", r.message);
            return -1;
        }
    }
    return 0;
}

/* One launch, waited for under the kernel deadline (case.h). 0: ran; -1:
 * failed at launch (a bad configuration: the context survives); a kernel
 * that faults or never ends has taken the context with it: stop_sweep. */
static int launch_once(tl_work_fn work, void *ctx, const shape *sh, char *why, size_t len)
{
    work(ctx);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        snprintf(why, len, "CUDA error at launch: %s: %s. Next: %s", cudaGetErrorName(err),
                 cudaGetErrorString(err), tl_cuda_error_hint(err));
        return -1;
    }
    char name[64];
    if (sh->depth)
        snprintf(name, sizeof name, "%dx%dx%d", sh->rows, sh->depth, sh->cols);
    else
        snprintf(name, sizeof name, "%dx%d", sh->rows, sh->cols);
    tl_case_result r;
    if (tl_case_wait(cudaSuccess, name, &r) != 0)
        stop_sweep(r.message);
    return 0;
}

/* What `out` holds now against the reference; 0 when exact. */
static int transpose_verify(tl_transpose_args *a, const float *expected, float *got, char *why, size_t len)
{
    size_t n = (size_t)a->rows * a->cols;
    CHECK_CUDA(cudaMemcpy(got, a->out, n * sizeof(float), cudaMemcpyDeviceToHost));
    tl_mismatch m = tl_compare_exact(expected, got, a->cols, a->rows);
    if (m.count == 0)
        return 0;
    char detail[512];
    tl_describe_mismatch(&m, a->cols, a->rows, detail, sizeof detail);
    snprintf(why, len, "wrong result (output %dx%d): %s", a->cols, a->rows, detail);
    return -1;
}

static void transpose_measure(sweep *s, const shape *sh, kernel *const *ks, int count)
{
    int rows = sh->rows, cols = sh->cols;
    size_t n = (size_t)rows * cols;
    double bytes = 2.0 * n * sizeof(float);
    row base = {"transpose", NULL, NULL, rows, cols, 0, bytes, bytes <= (double)s->dev.l2_bytes,
                nan_value(), nan_value(), nan_value(), nan_value(), nan_value(), 0};

    /* in and out, the copy's two buffers (bytes in all) and the L2 flush
     * buffer, with room to spare; a GPU too small skips the size. */
    size_t free_bytes = 0, total_bytes = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    double need = 2.0 * bytes + 2.0 * s->dev.l2_bytes + (256 << 20);
    float *in_host = NULL, *expected = NULL, *got = NULL;
    const char *cannot = NULL;
    char why[1400];
    if (need > (double)free_bytes) {
        snprintf(why, sizeof why, "skipped: needs %.1f GiB of GPU memory, %.1f GiB free", need / (1 << 30),
                 (double)free_bytes / (1 << 30));
        cannot = why;
    } else {
        in_host = (float *)malloc(n * sizeof(float));
        expected = (float *)malloc(n * sizeof(float));
        got = (float *)malloc(n * sizeof(float));
        if (!in_host || !expected || !got)
            cannot = "skipped: out of host memory for the reference";
    }
    if (cannot) {
        for (int i = 0; i < count; i++) {
            s->done++;
            progress(s, ks[i], sh, "%s", cannot);
        }
        free(in_host);
        free(expected);
        free(got);
        return;
    }

    tl_fill_seeded(in_host, n, 1);
    tl_transpose_ref(in_host, expected, rows, cols);
    tl_transpose_args a = {NULL, NULL, rows, cols, NULL};
    CHECK_CUDA(cudaMalloc((void **)&a.in, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&a.out, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy((void *)a.in, in_host, n * sizeof(float), cudaMemcpyHostToDevice));

    row *out_rows = HOST_ZEROED((size_t)count, row, "bench rows");
    double *copies = HOST_ZEROED((size_t)count, double, "copy times");
    double *copies4 = HOST_ZEROED((size_t)count, double, "float4 copy times");
    int measured = 0;
    for (int i = 0; i < count; i++) {
        const kernel *k = ks[i];
        row r = base;
        r.series = k->series;
        r.who = k->who;
        s->done++;
        s->current = k;
        a.launch = (tl_transpose_fn)k->launch;

        /* Verified before it is timed: poisoned output, one launch. */
        CHECK_CUDA(cudaMemset(a.out, 0xFF, n * sizeof(float)));
        if (launch_once(tl_transpose_work, &a, sh, why, sizeof why) != 0 || transpose_verify(&a, expected, got, why, sizeof why) != 0) {
            s->current = NULL;
            progress(s, k, sh, "skipped: %s", why);
            out_rows[i] = r;
            continue;
        }

        CHECK_CUDA(cudaMemset(a.out, 0xFF, n * sizeof(float)));   /* poisoned again: verified after timing */
        tl_bench_result b;
        tl_bench_against_copy(tl_transpose_work, &a, bytes, &TL_BENCH_SWEEP, &b);
        CHECK_CUDA(cudaDeviceSynchronize());
        s->current = NULL;
        r.median_ms = b.work_ms.median;
        r.gbps = b.work_gbps;
        r.copy_gbps = b.copy_gbps;
        r.fraction = b.fraction_of_copy;
        r.verified = transpose_verify(&a, expected, got, why, sizeof why) == 0;
        copies4[measured] = tl_gbps(bytes, b.copy4_ms.median);
        copies[measured++] = b.copy_gbps;
        out_rows[i] = r;
        if (r.verified)
            progress(s, k, sh, "%.0f GB/s (%.2f of copy)%s", r.gbps, r.fraction, b.noisy ? ", noisy" : "");
        else
            progress(s, k, sh, "%.0f GB/s, but after timing: %s", r.gbps, why);
    }

    /* The copy: the median of the copies timed beside this size's kernels. */
    if (measured > 0) {
        row c = base;
        c.series = "copy";
        c.who = "device";
        c.copy_gbps = c.gbps = tl_stats_of(copies, measured).median;
        c.median_ms = bytes / (c.gbps * 1e6);
        c.fraction = 1.0;
        c.verified = 1;
        write_row(s, &c);
        /* The float4 copy kernel alone (the copy row is the faster of it and
         * cudaMemcpy): what a kernel can do; lab 6 is judged against both. */
        row c4 = c;
        c4.series = "copy_float4";
        c4.gbps = tl_stats_of(copies4, measured).median;
        c4.median_ms = bytes / (c4.gbps * 1e6);
        c4.fraction = c4.gbps / c.copy_gbps;
        write_row(s, &c4);
    }
    for (int i = 0; i < count; i++)
        write_row(s, &out_rows[i]);
    fflush(s->csv);

    free(out_rows);
    free(copies);
    free(copies4);
    CHECK_CUDA(cudaFree((void *)a.in));
    CHECK_CUDA(cudaFree(a.out));
    free(in_host);
    free(expected);
    free(got);
}

/* ---- matmul ------------------------------------------------------------------
 * rows = M, cols = N, depth = K; gflops filled, the bandwidth columns empty.
 * Besides the lab files and cuBLAS, the grader's naive kernel is timed at
 * every size (series naive, who reference): the floor lab 4 is graded
 * against. Squares only: the naive kernel at 8192^3 would take most of the
 * sweep's time. */

static const shape MATMUL_SHAPES[] = {
    {256, 256, 256}, {512, 512, 512}, {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096},
};

static cublasHandle_t cublas_mm;

/* Row-major C = A B as column-major C^T = B^T A^T; FP32, no tensor cores
 * (the handle's pedantic math mode, as the grader's measurement). */
static void cublas_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t st = cublasSgemm(cublas_mm, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
    if (st != CUBLAS_STATUS_SUCCESS && cublas_status == CUBLAS_STATUS_SUCCESS) {
        cublas_status = st;
        fprintf(stderr, "bench: cublasSgemm failed: %s\n", cublasGetStatusString(st));
    }
}

static int cublas_matmul_init(tl_bench_any_fn *launch, char *why, size_t len)
{
    cublasStatus_t st = cublasCreate(&cublas_mm);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasSetMathMode(cublas_mm, CUBLAS_PEDANTIC_MATH);
    if (st != CUBLAS_STATUS_SUCCESS) {
        snprintf(why, len, "cuBLAS setup failed: %s", cublasGetStatusString(st));
        return -1;
    }
    *launch = (tl_bench_any_fn)cublas_matmul;
    return 0;
}

static int matmul_precheck(tl_bench_any_fn launch, char *why, size_t len)
{
    static const tl_mm_shape shapes[] = {{1, 1, 1}, {17, 33, 65}, {67, 45, 33}, {300, 1, 200}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        tl_case_result r = tl_matmul_case_of((tl_matmul_fn)launch, shapes[i], 7, TL_MM_FINITE);
        if (r.verdict != TL_CASE_PASS) {
            snprintf(why, len, "%s", r.message);
            return -1;
        }
    }
    return 0;
}

/* One launch under the deadline, then the FP64-bounded check of C. */
static int matmul_run_and_verify(const shape *sh, tl_matmul_args *a, const float *a_host, const float *b_host,
                                 float *c_host, int launch, char *why, size_t len)
{
    tl_mm_shape mm = a->s;
    if (launch) {
        CHECK_CUDA(cudaMemset(a->C, 0xFF, (size_t)mm.m * mm.n * sizeof(float)));
        if (launch_once(tl_matmul_work, a, sh, why, len) != 0)
            return -1;
    }
    CHECK_CUDA(cudaMemcpy(c_host, a->C, (size_t)mm.m * mm.n * sizeof(float), cudaMemcpyDeviceToHost));
    return tl_matmul_verify(a_host, b_host, c_host, mm, 1, why, len) == 0 ? 0 : -1;
}

static void matmul_measure(sweep *s, const shape *sh, kernel *const *ks, int count)
{
    tl_mm_shape mm = {sh->rows, sh->depth, sh->cols};
    size_t na = (size_t)mm.m * mm.k, nb = (size_t)mm.k * mm.n, nc = (size_t)mm.m * mm.n;
    double bytes = 4.0 * (na + nb + nc);   /* each matrix once: the least any kernel moves */
    row base = {"matmul", NULL, NULL, mm.m, mm.n, mm.k, bytes, bytes <= (double)s->dev.l2_bytes,
                nan_value(), nan_value(), nan_value(), nan_value(), nan_value(), 0};
    float *a_host = (float *)malloc(na * sizeof(float)), *b_host = (float *)malloc(nb * sizeof(float));
    float *c_host = (float *)malloc(nc * sizeof(float));
    tl_fill_seeded(a_host, na, 1);
    tl_fill_seeded(b_host, nb, 2);
    tl_matmul_args a = {NULL, NULL, NULL, mm, NULL};
    CHECK_CUDA(cudaMalloc((void **)&a.A, na * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&a.B, nb * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&a.C, nc * sizeof(float)));
    CHECK_CUDA(cudaMemcpy((void *)a.A, a_host, na * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy((void *)a.B, b_host, nb * sizeof(float), cudaMemcpyHostToDevice));

    static kernel naive = {"matmul", "naive", "reference", "kinds/matmul/matmul_naive.cu",
                           (tl_bench_any_fn)tl_matmul_naive, 1, ""};
    char why[1400];
    for (int i = -1; i < count; i++) {   /* -1: the grader's naive kernel */
        const kernel *k = i < 0 ? &naive : ks[i];
        row r = base;
        r.series = k->series;
        r.who = k->who;
        if (i >= 0)
            s->done++;
        s->current = k;
        a.launch = (tl_matmul_fn)k->launch;
        if (matmul_run_and_verify(sh, &a, a_host, b_host, c_host, 1, why, sizeof why) != 0) {
            s->current = NULL;
            progress(s, k, sh, "skipped: %s", why);
            write_row(s, &r);
            continue;
        }
        const tl_bench_work work = {tl_matmul_work, &a, 0, NULL, NULL, NULL};
        tl_stats st;
        int noisy = tl_bench_interleaved(&work, 1, &TL_BENCH_SWEEP, &st);
        CHECK_CUDA(cudaDeviceSynchronize());
        s->current = NULL;
        r.median_ms = st.median;
        r.gflops = tl_matmul_flops(mm) / (st.median * 1e6);
        r.verified = matmul_run_and_verify(sh, &a, a_host, b_host, c_host, 0, why, sizeof why) == 0;
        write_row(s, &r);
        if (r.verified)
            progress(s, k, sh, "%.0f GFLOP/s (depth %d)%s", r.gflops, mm.k, noisy ? ", noisy" : "");
        else
            progress(s, k, sh, "%.0f GFLOP/s, but after timing: %s", r.gflops, why);
    }
    fflush(s->csv);
    CHECK_CUDA(cudaFree((void *)a.A));
    CHECK_CUDA(cudaFree((void *)a.B));
    CHECK_CUDA(cudaFree(a.C));
    free(a_host);
    free(b_host);
    free(c_host);
}

/* ---- the ops ---------------------------------------------------------------
 * One line per op. Matmul (labs 4-5) adds its own: shapes with depth
 * (rows=M, cols=N, depth=K), cuBLAS SGEMM FP32 as its library kernel, a
 * precheck, and a measure function that fills gflops and leaves gbps empty;
 * its labs get a series in mk/bench.mk (BENCH_SERIES). */
static const sweep_op OPS[] = {
    {"transpose", TRANSPOSE_SHAPES, (int)(sizeof TRANSPOSE_SHAPES / sizeof TRANSPOSE_SHAPES[0]), "cublas",
     cublas_init, transpose_precheck, transpose_measure},
    {"matmul", MATMUL_SHAPES, (int)(sizeof MATMUL_SHAPES / sizeof MATMUL_SHAPES[0]), "cublas",
     cublas_matmul_init, matmul_precheck, matmul_measure},
};
enum { OP_COUNT = sizeof OPS / sizeof OPS[0] };

static const sweep_op *op_named(const char *name)
{
    for (int i = 0; i < OP_COUNT; i++)
        if (!strcmp(OPS[i].op, name))
            return &OPS[i];
    return NULL;
}

/* ---- the student precheck, in a process of its own ------------------------ */

/* `bench_sweep --precheck I`: the quick check of table entry I; prints why
 * it fails as its last line. */
static int precheck_main(int index)
{
    if (index < 0 || index >= tl_bench_entry_count || !tl_bench_entries[index].launch)
        return TL_EXIT_CANNOT_RUN;
    const tl_bench_entry *e = &tl_bench_entries[index];
    const sweep_op *op = op_named(e->op);
    if (!op)
        return TL_EXIT_CANNOT_RUN;
    tl_device_info dev;
    tl_device_open_or_exit(&dev, "bench precheck");
    char why[1200];
    if (op->precheck(e->launch, why, sizeof why) == 0)
        return TL_EXIT_OK;
    printf("\n%s\n", why);
    fflush(NULL);
    _exit(TL_EXIT_FAILED);   /* the context may be gone, or a kernel still running */
}

/* Runs the precheck of entry `index` in a new process (this program again,
 * exec'd: this one has a CUDA context); 0, or why not in `why`. */
static int precheck_in_child(int index, char *why, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(why, len, "cannot find this program to run its quick check (/proc/self/exe)");
        return -1;
    }
    exe[n] = '\0';
    char arg[16];
    snprintf(arg, sizeof arg, "%d", index);
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) != 0) {   /* close-on-exec: no other process inherits it */
        snprintf(why, len, "cannot run its quick check (pipe)");
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {   /* nothing but exec here */
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        alarm(120);   /* a launch function that loops on the host */
        execl(exe, exe, "--precheck", arg, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    static char output[65536];
    size_t used = 0;
    ssize_t got;
    while ((got = read(fd[0], output + used, sizeof output - 1 - used)) > 0)
        if ((used += (size_t)got) == sizeof output - 1)
            used = 0;   /* keep reading; only the end matters */
    output[used] = '\0';
    close(fd[0]);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        snprintf(why, len, "cannot run its quick check (fork)");
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    /* The last non-empty line is the verdict; anything before is the kernel's own printing. */
    while (used > 0 && (output[used - 1] == '\n' || output[used - 1] == '\r'))
        output[--used] = '\0';
    const char *last = strrchr(output, '\n');
    last = last ? last + 1 : output;
    if (WIFSIGNALED(status))
        snprintf(why, len, "its quick check died (%s)%s%.900s", strsignal(WTERMSIG(status)), *last ? ": " : "", last);
    else
        snprintf(why, len, "fails the quick check: %.1000s", *last ? last : "(no reason given)");
    return -1;
}

/* ---- the sweep, in a child ------------------------------------------------ */

/* Measures every size from `from` (counted over every op's sizes) on; the
 * CSV is new when `from` is 0, else rows are appended. Exit status. */
static int run_sweep(const char *out_path, int from, int done_before)
{
    sweep s;
    memset(&s, 0, sizeof s);
    s.csv_path = out_path;
    tl_device_open_or_exit(&s.dev, "bench");
    if (from == 0) {
        char described[512];
        tl_device_describe(&s.dev, described, sizeof described);
        fprintf(stderr, "bench: %s\n", described);
    }

    for (int i = 0; i < kernel_count; i++) {
        kernel *k = &kernels[i];
        if (k->skipped[0])
            continue;
        if (!strcmp(k->who, "library")) {   /* in every child: the handle is per process */
            if (op_named(k->op)->library_init(&k->launch, k->skipped, sizeof k->skipped) != 0)
                fprintf(stderr, "bench: %s %s: skipped: %s\n", k->op, k->series, k->skipped);
        } else if (!strcmp(k->who, "student") && !k->prechecked) {
            fprintf(stderr, "bench: quick check of %s (%s %s) ...\n", k->source, k->op, k->series);
            precheck_in_child(i, k->skipped, sizeof k->skipped);
            k->prechecked = 1;
        }
    }
    if (from == 0)
        for (int i = 0; i < kernel_count; i++) {
            const kernel *k = &kernels[i];
            if (k->skipped[0])
                fprintf(stderr, "bench: %s %s %s (%s): skipped: %s\n", k->op, k->series, k->who,
                        *k->source ? k->source : "library", k->skipped);
        }

    /* The plan: every op's sizes from `from` on, times its kernels still in the sweep. */
    kernel **active = (kernel **)calloc((size_t)kernel_count, sizeof(kernel *));
    s.done = done_before;
    s.total = done_before;
    for (int o = 0, ordinal = 0; o < OP_COUNT; o++)
        for (int j = 0; j < OPS[o].shape_count; j++, ordinal++)
            for (int i = 0; ordinal >= from && i < kernel_count; i++)
                s.total += !kernels[i].skipped[0] && !strcmp(kernels[i].op, OPS[o].op);

    s.csv = fopen(out_path, from == 0 ? "w" : "a");
    if (!s.csv) {
        fprintf(stderr, "bench: cannot write %s\n", out_path);
        return TL_EXIT_CANNOT_RUN;
    }
    current_sweep = &s;
    tl_set_cuda_error_handler(cuda_error_stops_sweep);
    if (from == 0) {
        write_header(&s);
        fprintf(stderr, "bench: %d measurements, cold, each beside the copy; CSV: %s\n", s.total, out_path);
    }

    for (int o = 0, ordinal = 0; o < OP_COUNT; o++) {
        int n = 0;
        for (int i = 0; i < kernel_count; i++)
            if (!kernels[i].skipped[0] && !strcmp(kernels[i].op, OPS[o].op))
                active[n++] = &kernels[i];
        for (int j = 0; j < OPS[o].shape_count; j++, ordinal++) {
            if (ordinal < from || n == 0)
                continue;
            s.ordinal = ordinal;
            s.done_before = s.done;
            OPS[o].measure(&s, &OPS[o].shapes[j], active, n);
        }
    }
    current_sweep = NULL;
    free(active);
    if (fclose(s.csv) != 0) {
        fprintf(stderr, "bench: cannot write %s\n", out_path);
        return TL_EXIT_CANNOT_RUN;
    }
    if (cublas)
        cublasDestroy(cublas);
    return TL_EXIT_OK;
}

/* Runs the sweep in a child; when a kernel breaks a child's GPU context,
 * starts a new child at that size without that kernel. This process never
 * touches CUDA, so its children may. */
static int supervise(const char *out_path)
{
    int from = 0, done_before = 0;
    double began = tl_seconds_now();
    for (;;) {
        int fd[2];
        if (pipe2(fd, O_CLOEXEC) != 0) {   /* close-on-exec: the prechecks do not hold it open */
            perror("bench: pipe");
            return TL_EXIT_CANNOT_RUN;
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            perror("bench: fork");
            return TL_EXIT_CANNOT_RUN;
        }
        if (pid == 0) {
            close(fd[0]);
            stop_fd = fd[1];
            int status = run_sweep(out_path, from, done_before);
            fflush(NULL);
            _exit(status);   /* without the CUDA runtime's exit handler: the process's end frees the GPU */
        }
        close(fd[1]);
        static char report[2048];
        size_t used = 0;
        ssize_t got;
        while (used < sizeof report - 1 && (got = read(fd[0], report + used, sizeof report - 1 - used)) > 0)
            used += (size_t)got;
        report[used] = '\0';
        close(fd[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == TL_EXIT_OK)
            break;

        int ordinal, index, done_then, at = 0;
        if (sscanf(report, "%d %d %d %n", &ordinal, &index, &done_then, &at) == 3 && at > 0 && index >= 0 &&
            index < kernel_count && !kernels[index].skipped[0]) {
            kernel *k = &kernels[index];
            report[strcspn(report, "\n")] = '\0';
            snprintf(k->skipped, sizeof k->skipped, "broke the GPU context: %.1100s", report + at);
            fprintf(stderr, "bench: going on without %s %s %s, in a new process\n", k->op, k->series, k->who);
            from = ordinal;
            done_before = done_then;
            continue;
        }
        if (WIFSIGNALED(status))
            fprintf(stderr, "bench: the sweep died (%s)\n", strsignal(WTERMSIG(status)));
        return WIFEXITED(status) && WEXITSTATUS(status) == TL_EXIT_CANNOT_RUN ? TL_EXIT_CANNOT_RUN : TL_EXIT_FAILED;
    }

    int left_out = 0;
    for (int i = 0; i < kernel_count; i++)
        left_out += kernels[i].skipped[0] != 0;
    fprintf(stderr, "bench: wrote %s in %.0f s%s\n", out_path, tl_seconds_now() - began,
            left_out ? "; left out:" : "");
    for (int i = 0; i < kernel_count; i++)
        if (kernels[i].skipped[0])
            fprintf(stderr, "  %s %s %s: %.160s%s\n", kernels[i].op, kernels[i].series, kernels[i].who,
                    kernels[i].skipped, strlen(kernels[i].skipped) > 160 ? "..." : "");
    return TL_EXIT_OK;
}

/* ---- main --------------------------------------------------------------------- */

static void usage(FILE *f, const char *program)
{
    fprintf(f, "usage: %s [--out FILE] [--no-student]   time every kernel over the sizes, CSV to FILE\n"
                "       %s --list                       the kernels linked in (no GPU needed)\n"
                "  default FILE: results/bench.csv. Run through `make bench` (BENCH_OUT=..., BENCH_STUDENT=0).\n",
            program, program);
}

int main(int argc, char **argv)
{
    const char *out_path = "results/bench.csv";
    int students = 1, list = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--precheck") && i + 1 < argc)
            return precheck_main(atoi(argv[i + 1]));
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strcmp(argv[i], "--no-student"))
            students = 0;
        else if (!strcmp(argv[i], "--list"))
            list = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout, argv[0]);
            return TL_EXIT_OK;
        } else {
            usage(stderr, argv[0]);
            return TL_EXIT_CANNOT_RUN;
        }
    }

    /* The kernels: the table's lab files, then one library kernel per op. */
    kernel_count = tl_bench_entry_count + OP_COUNT;
    kernels = (kernel *)mmap(NULL, (size_t)kernel_count * sizeof(kernel), PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (kernels == MAP_FAILED) {
        perror("bench: mmap");
        return TL_EXIT_CANNOT_RUN;
    }
    memset(kernels, 0, (size_t)kernel_count * sizeof(kernel));
    for (int i = 0; i < tl_bench_entry_count; i++) {
        const tl_bench_entry *e = &tl_bench_entries[i];
        kernel *k = &kernels[i];
        k->op = e->op;
        k->series = e->series;
        k->who = e->who;
        k->source = e->source;
        k->launch = e->launch;
        if (!e->launch)
            snprintf(k->skipped, sizeof k->skipped, "%s", e->skipped ? e->skipped : "not linked");
        else if (!op_named(e->op))
            snprintf(k->skipped, sizeof k->skipped, "no sweep for op '%s' yet (OPS in tools/bench/bench_sweep.cu)", e->op);
        else if (!students && !strcmp(e->who, "student"))
            snprintf(k->skipped, sizeof k->skipped, "student files left out (--no-student)");
    }
    for (int o = 0; o < OP_COUNT; o++) {
        kernel *k = &kernels[tl_bench_entry_count + o];
        k->op = OPS[o].op;
        k->series = OPS[o].library_series;
        k->who = "library";
        k->source = "";
    }

    if (list) {
        for (int i = 0; i < kernel_count; i++) {
            const kernel *k = &kernels[i];
            printf("%s %s %s %s: %s\n", k->op, k->series, k->who, *k->source ? k->source : "(library)",
                   k->skipped[0] ? k->skipped : "linked");
        }
        return TL_EXIT_OK;
    }
    return supervise(out_path);
}
