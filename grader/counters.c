/* counters.c — read ncu's --csv output (see counters.h). */
#include "counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FIELDS = 32, LINE_LEN = 4096 };

/* Splits one CSV line of quoted fields ("a","b,c") in place. */
static int split_quoted(char *line, char *fields[], int max)
{
    int n = 0;
    char *p = line;
    while (*p == '"' && n < max) {
        char *start = ++p, *w = p;
        while (*p && !(*p == '"' && p[1] != '"')) {
            if (*p == '"')   /* "" inside a field is one quote */
                p++;
            *w++ = *p++;
        }
        if (*p == '"')
            p++;
        *w = '\0';
        fields[n++] = start;
        if (*p == ',')
            p++;
        else
            break;
    }
    return n;
}

/* "1,015,808" or "0.50" -> number; ncu writes thousands separators. */
static double parse_value(const char *s)
{
    char digits[64];
    size_t n = 0;
    for (; *s && n + 1 < sizeof digits; s++)
        if (*s != ',')
            digits[n++] = *s;
    digits[n] = '\0';
    return strtod(digits, NULL);
}

static const char *const metric_names[TL_NMETRICS] = {
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_divergent.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    TL_TENSOR_METRIC_PREFIX "_op_hmma.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_global_ld.sum",
    "smsp__sass_thread_inst_executed_op_global_st.sum",
};

/* A metric's index; -1: not read. Tensor-pipe instructions are the sub-pipes summed (*sign 1), less
 * HFMA2.MMA (*sign -1): see tl_tensor_metric_sign. */
static int metric_index(const char *name, int *sign)
{
    *sign = tl_tensor_metric_sign(name);
    if (*sign)
        return TL_M_TENSOR;
    for (int i = 0; i < TL_NMETRICS; i++)
        if (!strcmp(name, metric_names[i]))
            return i;
    return -1;
}

/* A time in ncu's unit ("nsecond", "usecond", "msecond", "second") in ms; -1: a unit not known. */
static double duration_ms(double v, const char *unit)
{
    static const struct { const char *unit; double ms; } units[] = {
        {"nsecond", 1e-6}, {"ns", 1e-6}, {"usecond", 1e-3}, {"us", 1e-3}, {"msecond", 1}, {"ms", 1},
        {"second", 1e3}, {"s", 1e3}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(unit, units[i].unit))
            return v * units[i].ms;
    return -1;
}

int tl_counters_read(const char *csv_path, tl_counters *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(csv_path, "r");
    if (!f) {
        snprintf(err, errlen, "no counter file %s", csv_path);
        return -1;
    }
    char line[LINE_LEN], last_id[64] = "";
    char *fields[MAX_FIELDS];
    int id_col = -1, kernel_col = -1, name_col = -1, value_col = -1, unit_col = -1;
    unsigned seen = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] != '"')   /* the program's own output and ncu's ==PROF== lines */
            continue;
        int n = split_quoted(line, fields, MAX_FIELDS);
        if (name_col < 0) {   /* the header row names the columns */
            for (int i = 0; i < n; i++) {
                if (!strcmp(fields[i], "ID")) id_col = i;
                else if (!strcmp(fields[i], "Kernel Name")) kernel_col = i;
                else if (!strcmp(fields[i], "Metric Name")) name_col = i;
                else if (!strcmp(fields[i], "Metric Value")) value_col = i;
                else if (!strcmp(fields[i], "Metric Unit")) unit_col = i;
            }
            continue;
        }
        if (name_col >= n || value_col >= n)
            continue;
        if (!strcmp(fields[name_col], TL_DURATION_METRIC)) {
            double ms = duration_ms(parse_value(fields[value_col]), unit_col >= 0 && unit_col < n ? fields[unit_col] : "");
            if (ms >= 0)
                c->duration_ms += ms, c->has_duration = 1;
            continue;
        }
        int sign, m = metric_index(fields[name_col], &sign);
        if (m < 0)
            continue;
        double v = parse_value(fields[value_col]);
        if (id_col >= 0 && id_col < n && strcmp(fields[id_col], last_id) != 0) {
            snprintf(last_id, sizeof last_id, "%s", fields[id_col]);
            c->kernels++;
        }
        /* The kernel: by name (its launches together), else by launch ID; past the table's end, the last row. */
        const char *kname = kernel_col >= 0 && kernel_col < n ? fields[kernel_col]
                            : id_col >= 0 && id_col < n ? fields[id_col] : "";
        int k;
        for (k = 0; k < c->nkernels && strcmp(c->kernel[k].name, kname); k++)
            ;
        if (k == c->nkernels) {
            if (c->nkernels < TL_MAX_KERNELS)
                snprintf(c->kernel[c->nkernels++].name, sizeof c->kernel[0].name, "%s", kname);
            else
                k = TL_MAX_KERNELS - 1, snprintf(c->kernel[k].name, sizeof c->kernel[k].name, "(other kernels)");
        }
        c->kernel[k].m[m] += sign ? sign * v : v;
        seen |= TL_BIT(m);
    }
    fclose(f);
    if (name_col < 0 || seen == 0) {
        snprintf(err, errlen, "ncu profiled no kernel (did the launch start one?)");
        return -1;
    }
    for (int k = 0; k < c->nkernels; k++)   /* HFMA2.MMA taken from a kernel's op_hmma: never below 0 */
        if (c->kernel[k].m[TL_M_TENSOR] < 0)
            c->kernel[k].m[TL_M_TENSOR] = 0;
    double *sums[TL_NMETRICS] = {&c->shared_ld_conflicts, &c->shared_st_conflicts, &c->shared_ld_requests,
                                 &c->shared_st_requests, &c->global_ld_sectors, &c->global_ld_requests,
                                 &c->global_st_sectors, &c->global_st_requests, &c->branch_targets,
                                 &c->divergent_targets, &c->ffma, &c->tensor, &c->fadd, &c->fmul,
                                 &c->global_ld_threads, &c->global_st_threads};
    for (int m = 0; m < TL_NMETRICS; m++)
        *sums[m] = tl_kernel_sum(c, -1, TL_BIT(m));
    enum { REQUIRED = 0xFF };   /* the first 8 metrics */
    unsigned branches = TL_BIT(TL_M_BRANCH_TARGETS) | TL_BIT(TL_M_DIVERGENT_TARGETS);
    c->has_branches = (seen & branches) == branches;
    c->has_ffma = (seen & TL_BIT(TL_M_FFMA)) != 0;
    c->has_tensor = (seen & TL_BIT(TL_M_TENSOR)) != 0;
    unsigned threads = TL_BIT(TL_M_GLOBAL_LD_THREADS) | TL_BIT(TL_M_GLOBAL_ST_THREADS);
    c->has_thread_accesses = (seen & threads) == threads;
    c->missing = 8 - __builtin_popcount(seen & REQUIRED);
    if (c->missing) {
        snprintf(err, errlen, "ncu did not report %d of the metrics on this GPU", c->missing);
        return -1;
    }
    return 0;
}

double tl_kernel_sum(const tl_counters *c, int k, unsigned mask)
{
    double s = 0;
    for (int i = k < 0 ? 0 : k; i < (k < 0 ? c->nkernels : k + 1); i++)
        for (int m = 0; m < TL_NMETRICS; m++)
            if (mask & TL_BIT(m))
                s += c->kernel[i].m[m];
    return s;
}

/* "transpose_tiled(const float *, float *, int, int)" -> "transpose_tiled" */
static void short_name(const char *name, char *out, size_t len)
{
    size_t n = strcspn(name, "(");
    snprintf(out, len, "%.*s", (int)(n ? n : strlen(name)), name);
}

double tl_counters_weighted(const tl_counters *c, unsigned a, unsigned b, unsigned weight, const char *weight_name,
                            char *judged, size_t len)
{
    double sum = 0, total = 0;
    for (int k = 0; k < c->nkernels; k++)
        if (tl_kernel_sum(c, k, b) > 0)
            total += tl_kernel_sum(c, k, weight);
    if (judged && len)
        judged[0] = '\0';
    if (total <= 0)
        return tl_per_request(tl_kernel_sum(c, -1, a), tl_kernel_sum(c, -1, b));
    for (int k = 0; k < c->nkernels; k++) {
        double w = tl_kernel_sum(c, k, weight), bk = tl_kernel_sum(c, k, b);
        if (bk <= 0 || w <= 0)
            continue;
        sum += w * tl_kernel_sum(c, k, a) / bk;
        if (judged && len) {
            char name[96];
            short_name(c->kernel[k].name, name, sizeof name);
            size_t used = strlen(judged);
            snprintf(judged + used, len - used, "%s%s (%.0f %% of %s)", used ? ", " : "", name, 100 * w / total,
                     weight_name);
        }
    }
    return sum / total;
}

double tl_per_request(double a, double b)
{
    return b > 0 ? a / b : 0;
}
