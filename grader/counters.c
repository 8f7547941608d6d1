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

static double *slot(tl_counters *c, const char *metric, int *bit)
{
    static const char *const names[] = {
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
    };
    double *slots[] = {&c->shared_ld_conflicts, &c->shared_st_conflicts, &c->shared_ld_requests,
                       &c->shared_st_requests, &c->global_ld_sectors, &c->global_ld_requests,
                       &c->global_st_sectors, &c->global_st_requests, &c->branch_targets,
                       &c->divergent_targets, &c->ffma};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(metric, names[i])) {
            *bit = 1 << i;
            return slots[i];
        }
    return NULL;
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
    int id_col = -1, name_col = -1, value_col = -1, seen = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] != '"')   /* the program's own output and ncu's ==PROF== lines */
            continue;
        int n = split_quoted(line, fields, MAX_FIELDS);
        if (name_col < 0) {   /* the header row names the columns */
            for (int i = 0; i < n; i++) {
                if (!strcmp(fields[i], "ID")) id_col = i;
                else if (!strcmp(fields[i], "Metric Name")) name_col = i;
                else if (!strcmp(fields[i], "Metric Value")) value_col = i;
            }
            continue;
        }
        if (name_col >= n || value_col >= n)
            continue;
        int bit = 0;
        double *dest = slot(c, fields[name_col], &bit);
        if (!dest)
            continue;
        *dest += parse_value(fields[value_col]);
        seen |= bit;
        if (id_col >= 0 && id_col < n && strcmp(fields[id_col], last_id) != 0) {
            snprintf(last_id, sizeof last_id, "%s", fields[id_col]);
            c->kernels++;
        }
    }
    fclose(f);
    if (name_col < 0 || seen == 0) {
        snprintf(err, errlen, "ncu profiled no kernel (did the launch start one?)");
        return -1;
    }
    enum { REQUIRED = 0xFF, BRANCHES = 0x300, FFMA = 0x400 };   /* the first 8 names; the 2 branch ones; FMAs */
    c->has_branches = (seen & BRANCHES) == BRANCHES;
    c->has_ffma = (seen & FFMA) != 0;
    c->missing = 8 - __builtin_popcount((unsigned)seen & REQUIRED);
    if (c->missing) {
        snprintf(err, errlen, "ncu did not report %d of the metrics on this GPU", c->missing);
        return -1;
    }
    return 0;
}

double tl_per_request(double a, double b)
{
    return b > 0 ? a / b : 0;
}
