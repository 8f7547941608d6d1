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
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"

/* A warp of 32 threads each touching one float moves 128 bytes: 4 sectors of 32. */
#define TL_IDEAL_SECTORS_PER_REQUEST 4.0

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
    int missing;                          /* required metrics absent from the file */
} tl_counters;

/* Sums every profiled kernel in ncu's --csv output. 0 on success; else -1
 * with the reason in err (no kernel profiled, a metric missing, no file). */
int tl_counters_read(const char *csv_path, tl_counters *c, char *err, size_t errlen);

/* a / b, or 0 when b is 0 (no requests: nothing to be wrong about). */
double tl_per_request(double a, double b);

#endif
