/*
 * counters.h — the hardware counters the grader reads with Nsight Compute
 * (ncu) for the student's launch: shared-memory bank conflicts per request
 * and global-memory sectors per request. Parsing only; grade runs ncu.
 */
#ifndef TILELAB_COUNTERS_H
#define TILELAB_COUNTERS_H

#include <stddef.h>

/* The ncu metrics, in the order grade passes them to --metrics. */
#define TL_COUNTER_METRICS                                      \
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum," \
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum," \
    "smsp__sass_inst_executed_op_shared_ld.sum,"                \
    "smsp__sass_inst_executed_op_shared_st.sum,"                \
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"           \
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"          \
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"           \
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,"          \
    "smsp__sass_branch_targets.sum,"                            \
    "smsp__sass_branch_targets_threads_divergent.sum,"          \
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,"      \
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,"      \
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,"      \
    TL_DURATION_METRIC

/* The profiled launch's own GPU time: ncu's pass for it runs the kernel as a
 * timed launch does (cold caches, clocks not locked), so a request's counted
 * time can be set beside the time the measurement took for it (score.c:
 * a kernel that runs other code when a profiler is in its process). */
#define TL_DURATION_METRIC "gpu__time_duration.sum"

/* A warp of 32 threads each touching one float moves 128 bytes: 4 sectors of 32. */
#define TL_IDEAL_SECTORS_PER_REQUEST 4.0

/* The metrics read, by index (tl_counter_metric): the first 8 are required. */
enum {
    TL_M_SHARED_LD_CONFLICTS, TL_M_SHARED_ST_CONFLICTS, TL_M_SHARED_LD_REQUESTS, TL_M_SHARED_ST_REQUESTS,
    TL_M_GLOBAL_LD_SECTORS, TL_M_GLOBAL_LD_REQUESTS, TL_M_GLOBAL_ST_SECTORS, TL_M_GLOBAL_ST_REQUESTS,
    TL_M_BRANCH_TARGETS, TL_M_DIVERGENT_TARGETS, TL_M_FFMA, TL_M_TENSOR, TL_M_FADD, TL_M_FMUL,
    TL_M_GLOBAL_LD_THREADS, TL_M_GLOBAL_ST_THREADS, TL_NMETRICS
};
#define TL_BIT(m) (1u << (m))
/* What a kernel's work is, for weighting: the global bytes it moves (sectors), the arithmetic it does. */
#define TL_WORK_BYTES (TL_BIT(TL_M_GLOBAL_LD_SECTORS) | TL_BIT(TL_M_GLOBAL_ST_SECTORS))
#define TL_WORK_ARITHMETIC (TL_BIT(TL_M_FFMA) | TL_BIT(TL_M_FADD) | TL_BIT(TL_M_FMUL) | TL_BIT(TL_M_TENSOR))

/* Tensor-pipe instructions: the sub-pipes (..._op_hmma, _op_imma, _op_dmma, _op_gmma; which exist
 * depends on the GPU and ncu: grade asks ncu --query-metrics and passes those found) summed, less
 * ..._op_hmma_type_hfma2. That one is HFMA2.MMA, which ptxas also emits in plain FP32 code to set
 * registers: on an H200 (2026-11-29) lab 5's FP32 reference matmul_dbuf ran 192 tensor-pipe
 * instructions by the parent metric, which counts them, so the parent is never read. */
#include <string.h>
#define TL_TENSOR_METRIC_PREFIX "smsp__inst_executed_pipe_tensor"
/* A metric's part in the tensor-pipe count: 1 added, -1 taken away (HFMA2.MMA), 0 not one. */
static inline int tl_tensor_metric_sign(const char *name)
{
    size_t n = strlen(TL_TENSOR_METRIC_PREFIX "_op_"), len = strlen(name);
    if (strncmp(name, TL_TENSOR_METRIC_PREFIX "_op_", n) || len < 4 || strcmp(name + len - 4, ".sum"))
        return 0;   /* the parent metric among them: it counts HFMA2.MMA too */
    return strstr(name, "_type_hfma2") ? -1 : 1;
}

/* One kernel (by ncu's "Kernel Name"; every launch of it summed). */
enum { TL_MAX_KERNELS = 32 };
typedef struct {
    char name[160];
    double m[TL_NMETRICS];
} tl_kernel_counts;

typedef struct {
    int kernels;                          /* profiled launches, summed below */
    double shared_ld_conflicts, shared_st_conflicts;
    double shared_ld_requests, shared_st_requests;
    double global_ld_sectors, global_ld_requests;
    double global_st_sectors, global_st_requests;
    /* Lab 7: branch targets, and those where the warp's threads went different
     * ways. Optional: CPU mode does not count them (has_branches 0 then). */
    double branch_targets, divergent_targets;
    int has_branches;
    /* Lab 7: FP32 fused multiply-adds the threads executed (evidence that
     * zeros were skipped). Optional too (has_ffma). */
    double ffma;
    int has_ffma;
    /* Tensor-pipe warp instructions (has_tensor: ncu reported such a metric). */
    double tensor;
    int has_tensor;
    /* FP32 adds and multiplies the threads executed: arithmetic an FMA count does not see. */
    double fadd, fmul;
    /* Lab 6: global load and store instructions counted per thread (the lanes
     * that ran each): bytes moved over these are the width of the accesses,
     * however the shape splits into warps. Optional (has_thread_accesses). */
    double global_ld_threads, global_st_threads;
    int has_thread_accesses;
    /* The profiled kernels' GPU time, summed, in ms (has_duration: ncu reported it). */
    double duration_ms;
    int has_duration;
    int missing;                          /* required metrics absent from the file */
    /* Each kernel on its own, in the order first seen (judged per kernel: tl_counters_weighted). */
    int nkernels;
    tl_kernel_counts kernel[TL_MAX_KERNELS];
} tl_counters;

/* Sums every profiled kernel in ncu's --csv output. 0 on success; else -1
 * with the reason in err (no kernel profiled, a metric missing, no file). */
int tl_counters_read(const char *csv_path, tl_counters *c, char *err, size_t errlen);

/* a / b, or 0 when b is 0 (no requests: nothing to be wrong about). */
double tl_per_request(double a, double b);

/*
 * A ratio judged per kernel, weighted by the work each does, so that a
 * kernel that does none of the lab's work cannot dilute (or decide) it:
 * sum over kernels of w_k * (a_k / b_k), over sum of w_k, where a, b and w
 * are masks of metrics (TL_BIT), summed within a kernel; kernels with no b
 * or no weight do not count. When no kernel has both (nothing ran that the
 * weight measures), the plain sums' ratio. `judged` (may be NULL) names the
 * kernels that carried the weight, with their shares: "NAME (100 % of W)".
 */
double tl_counters_weighted(const tl_counters *c, unsigned a, unsigned b, unsigned weight, const char *weight_name,
                            char *judged, size_t len);

/* The sum of metrics `mask` over kernel k (k = -1: over every kernel). */
double tl_kernel_sum(const tl_counters *c, int k, unsigned mask);

#endif
