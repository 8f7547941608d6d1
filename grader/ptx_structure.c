/*
 * ptx-structure — what the kernels that ran do with shared memory and
 * barriers, read from the submission's PTX (grader/ptx.h). Host C only.
 *
 *   build/tools/ptx-structure --ptx FILE [--kernel NAME]... [--ncu-csv FILE]
 *                             [--double-buffered] [--tile-bytes N]
 *                             [--dynamic-shared-bytes N] [--json]
 *
 * Exit: 0 the rule holds, 1 it does not, 2 cannot judge (no PTX, no kernel
 * of that name in it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "ptx.h"

static void usage(FILE *out)
{
    fputs("usage: ptx-structure --ptx FILE [--kernel NAME]... [--ncu-csv FILE] [--double-buffered]\n"
          "                     [--tile-bytes N] [--dynamic-shared-bytes N] [--json]\n"
          "\n"
          "  Per kernel: its shared arrays and bytes, shared loads/stores, barriers, the\n"
          "  barriers inside loops, and its K-loop (the innermost loop with shared loads\n"
          "  and a barrier). Then the rule:\n"
          "    default            at least one kernel uses shared memory and a barrier\n"
          "                       (rubric: require shared barrier; labs 2-4)\n"
          "    --double-buffered  one barrier per K-step and two buffers per operand (lab 5 part 3)\n"
          "\n"
          "  --kernel NAME   a kernel that ran, as ncu prints it ('k(const float *, int)',\n"
          "                  'void k<32>(const float *)'), a bare name, or the PTX's mangled one;\n"
          "                  repeat for several. Names not in the PTX (the harness's) are noted and skipped.\n"
          "  --ncu-csv FILE  the kernels of ncu --csv output (its \"Kernel Name\" column), and their\n"
          "                  dynamic shared memory when it has launch__shared_mem_per_block_dynamic\n"
          "  no kernel named: every .entry in the file (the fallback when the grader could\n"
          "                  not learn which kernels ran: an unlaunched kernel counts then)\n"
          "  --tile-bytes N  one operand's tile (default 4096: 32 x 32 floats, lab 5's)\n"
          "  --dynamic-shared-bytes N  the dynamic shared memory of the launch, when known\n"
          "  --json          the same as JSON on stdout\n"
          "\n"
          "  Exit status: 0 the rule holds, 1 it does not, 2 cannot judge.\n",
          out);
}

static const char *verdict_word(ptx_dbuf_verdict v)
{
    return v == PTX_DBUF_YES ? "yes" : v == PTX_DBUF_UNVERIFIED ? "unverified" : "no";
}

/* `overloaded`: another kernel printed has the same short name: print the signature. */
static void print_kernel(const ptx_kernel_stats *s, long dyn, int overloaded)
{
    char name[256];
    ptx_display_name(s->fn, name, sizeof name);
    if (overloaded && s->fn->demangled)
        snprintf(name, sizeof name, "%s", s->fn->demangled);
    int accesses = s->shared_ld + s->shared_st + s->shared_atom;
    printf("kernel %s: ", name);
    if (!s->n_used && !accesses)
        printf("no shared memory");
    else {
        printf("shared %ld B in %d array%s", s->static_bytes, s->n_used, s->n_used == 1 ? "" : "s");
        if (s->dynamic && dyn >= 0)
            printf(" (dynamic: %ld B at launch)", dyn);
        else if (s->dynamic)
            printf(" (dynamic: sized at launch)");
    }
    printf(", %d shared ld/st, %d barrier%s, %d in loops", accesses, s->barriers, s->barriers == 1 ? "" : "s",
           s->barriers_in_loops);
    if (s->has_kloop)
        printf("; K-loop: %d barrier%s per trip, %d shared ld, %d shared st, %d of %d supersteps fill and read",
               s->kloop.barriers, s->kloop.barriers == 1 ? "" : "s", s->kloop.shared_ld, s->kloop.shared_st,
               s->kloop.fill_and_read, s->kloop.barriers);
    if (s->unresolved_calls)
        printf("; %d call%s to functions not in this PTX not followed", s->unresolved_calls,
               s->unresolved_calls == 1 ? "" : "s");
    printf("\n");
}

static void json_kernel(tl_json_writer *w, const ptx_kernel_stats *s, const char *asked, long dyn,
                        int judged_dbuf, ptx_dbuf_verdict v, const char *why)
{
    char name[256];
    tl_jw_object_begin(w, NULL);
    tl_jw_string(w, "name", ptx_display_name(s->fn, name, sizeof name));
    tl_jw_string(w, "ptx_name", s->fn->name);
    tl_jw_string(w, "demangled", s->fn->demangled);
    tl_jw_string(w, "asked_as", asked);
    tl_jw_int(w, "shared_bytes", s->static_bytes);
    tl_jw_bool(w, "dynamic_shared", s->dynamic);
    if (s->dynamic && dyn >= 0)
        tl_jw_int(w, "dynamic_shared_bytes", dyn);
    tl_jw_array_begin(w, "arrays");
    for (int i = 0; i < s->n_used; i++) {
        tl_jw_object_begin(w, NULL);
        tl_jw_string(w, "name", s->used[i]->name);
        if (s->used[i]->bytes >= 0)
            tl_jw_int(w, "bytes", s->used[i]->bytes);
        else
            tl_jw_string(w, "bytes", NULL);
        tl_jw_object_end(w);
    }
    tl_jw_array_end(w);
    tl_jw_int(w, "shared_ld", s->shared_ld);
    tl_jw_int(w, "shared_st", s->shared_st);
    tl_jw_int(w, "shared_atom", s->shared_atom);
    tl_jw_int(w, "barriers", s->barriers);
    tl_jw_int(w, "loops", s->loops);
    tl_jw_int(w, "barriers_in_loops", s->barriers_in_loops);
    tl_jw_int(w, "unresolved_calls", s->unresolved_calls);
    if (s->has_kloop) {
        tl_jw_object_begin(w, "k_loop");
        tl_jw_int(w, "barriers", s->kloop.barriers);
        tl_jw_int(w, "shared_ld", s->kloop.shared_ld);
        tl_jw_int(w, "shared_st", s->kloop.shared_st);
        tl_jw_int(w, "fill_and_read_supersteps", s->kloop.fill_and_read);
        tl_jw_object_end(w);
    } else
        tl_jw_string(w, "k_loop", NULL);
    if (judged_dbuf) {
        tl_jw_string(w, "double_buffered", verdict_word(v));
        tl_jw_string(w, "double_buffered_why", why);
    }
    tl_jw_object_end(w);
}

/* Built into build/tools/report too, which runs it in a child for --run (report_run.c). */
#ifdef TL_PTX_STRUCTURE_IN_REPORT
int ptx_structure_main(int argc, char **argv)
#else
int main(int argc, char **argv)
#endif
{
    const char *ptx_path = NULL, *ncu_csv = NULL;
    const char **asked = calloc((size_t)argc + 1, sizeof *asked);
    long *asked_dyn = calloc((size_t)argc + 1, sizeof *asked_dyn);
    double *asked_work = NULL, *asked_tensor = NULL;   /* from --ncu-csv: each kernel's arithmetic */
    int n_asked = 0, dbuf = 0, json = 0, work_known = 0, fp32 = 0;
    long tile_bytes = PTX_LAB5_TILE_BYTES, dynamic_bytes = -1;
    if (!asked || !asked_dyn)
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--double-buffered"))
            dbuf = 1;
        else if (!strcmp(a, "--fp32"))
            fp32 = 1;
        else if (!strcmp(a, "--json"))
            json = 1;
        else if (!strcmp(a, "--ptx") && has_value)
            ptx_path = argv[++i];
        else if (!strcmp(a, "--ncu-csv") && has_value)
            ncu_csv = argv[++i];
        else if (!strcmp(a, "--kernel") && has_value) {
            asked_dyn[n_asked] = -1;
            asked[n_asked++] = argv[++i];
        } else if ((!strcmp(a, "--tile-bytes") || !strcmp(a, "--dynamic-shared-bytes")) && has_value) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0) {
                fprintf(stderr, "ptx-structure: %s takes a byte count, not '%s'\n", a, argv[i]);
                return 2;
            }
            *(a[2] == 't' ? &tile_bytes : &dynamic_bytes) = v;
        } else {
            fprintf(stderr, "ptx-structure: %s '%s' (ptx-structure --help)\n",
                    has_value || a[0] != '-' ? "unknown argument" : "missing value after", a);
            return 2;
        }
    }
    if (!ptx_path) {
        fprintf(stderr, "ptx-structure: --ptx FILE is required: the submission's nvcc -ptx output "
                        "(the grader's build/.../student.ptx)\n");
        return 2;
    }
    char err[4096] = "";
    ptx_module m;
    if (ptx_read_file(ptx_path, &m, err, sizeof err)) {
        fprintf(stderr, "ptx-structure: %s\n", err);
        return 2;
    }

    char **ncu_names = NULL;
    long *ncu_dyn = NULL;
    double *ncu_ffma = NULL, *ncu_tensor = NULL;
    int n_ncu = 0;
    if (ncu_csv) {
        n_ncu = ptx_ncu_kernels_work(ncu_csv, &ncu_names, &ncu_dyn, &ncu_ffma, &ncu_tensor, err, sizeof err);
        if (n_ncu < 0) {
            fprintf(stderr, "ptx-structure: %s\n", err);
            return 2;
        }
        if (n_ncu == 0) {
            fprintf(stderr, "ptx-structure: ncu profiled no kernel in %s: did the launch run? "
                            "(look for ==ERROR== or ==WARNING== in it)\n", ncu_csv);
            return 2;
        }
        asked = realloc(asked, (size_t)(n_asked + n_ncu + 1) * sizeof *asked);
        asked_dyn = realloc(asked_dyn, (size_t)(n_asked + n_ncu + 1) * sizeof *asked_dyn);
        asked_work = calloc((size_t)(n_asked + n_ncu + 1), sizeof *asked_work);
        asked_tensor = calloc((size_t)(n_asked + n_ncu + 1), sizeof *asked_tensor);
        for (int i = 0; i < n_ncu; i++) {
            asked_dyn[n_asked] = ncu_dyn[i];
            /* A kernel's arithmetic: FP32 FMAs, adds and multiplies, and a tensor-pipe instruction
             * as the FMAs of its smallest shape (m16n8k4: 512); -1 when the CSV counted neither. */
            asked_tensor[n_asked] = ncu_tensor[i] > 0 ? ncu_tensor[i] : 0;
            asked_work[n_asked] = ncu_ffma[i] < 0 && ncu_tensor[i] < 0 ? -1
                                  : (ncu_ffma[i] > 0 ? ncu_ffma[i] : 0) + 512 * asked_tensor[n_asked];
            if (asked_work[n_asked] >= 0)
                work_known = 1;
            asked[n_asked++] = ncu_names[i];
        }
    }

    /* The kernels to judge: those named, found in the PTX; else every entry. */
    int all_entries = n_asked == 0;
    ptx_kernel_stats *stats = calloc((size_t)m.n_funcs + 1, sizeof *stats);
    const char **stats_asked = calloc((size_t)m.n_funcs + 1, sizeof *stats_asked);
    long *stats_dyn = calloc((size_t)m.n_funcs + 1, sizeof *stats_dyn);
    double *stats_work = calloc((size_t)m.n_funcs + 1, sizeof *stats_work);
    double *stats_tensor = calloc((size_t)m.n_funcs + 1, sizeof *stats_tensor);
    int n = 0, unmatched = 0;
    char notes[4096] = "";
    if (all_entries) {
        ptx_demangle(&m);
        for (int i = 0; i < m.n_funcs; i++)
            if (m.funcs[i].is_entry) {
                stats_dyn[n] = dynamic_bytes;
                ptx_kernel_stats_of(&m, &m.funcs[i], &stats[n++]);
            }
    } else {
        for (int i = 0; i < n_asked; i++) {
            const ptx_function *f = ptx_find_kernel(&m, asked[i], err, sizeof err);
            if (!f) {
                if (unmatched++ == 0)
                    snprintf(notes, sizeof notes, "%s", err);
                continue;
            }
            int k;
            for (k = 0; k < n && stats[k].fn != f; k++)
                ;
            if (work_known) {   /* one kernel under several names (launches): its work together */
                stats_work[k] += asked_work[i] > 0 ? asked_work[i] : 0;
                stats_tensor[k] += asked_tensor[i];
            }
            if (k < n)
                continue;
            stats_asked[n] = asked[i];
            stats_dyn[n] = dynamic_bytes >= 0 ? dynamic_bytes : asked_dyn[i];
            ptx_kernel_stats_of(&m, f, &stats[n++]);
        }
        if (n == 0) {
            fprintf(stderr, "ptx-structure: %s%s. Next: pass the names from ncu's \"Kernel Name\" column of this "
                            "submission's launch, or no --kernel to judge every kernel in the file\n",
                    n_asked > 1 ? "none of the kernel names is in the PTX; the first: " : "", notes);
            return 2;
        }
    }
    if (n == 0) {
        fprintf(stderr, "ptx-structure: %s has device functions but no kernel (.entry)\n", ptx_path);
        return 2;
    }

    char structure_why[1024];
    int structure = ptx_uses_shared_and_barrier(stats, n, structure_why, sizeof structure_why);

    /* Double buffering. Where ncu counted each kernel's arithmetic, the verdict
     * is the worst over the kernels that do the product (each with at least
     * 1/8 of the FP32 arithmetic): a double-buffered kernel that does none of the work
     * earns nothing. Else (no counts: CPU mode, ncu missing) the best verdict
     * over the kernels; the reason of a kernel that has a K-loop is the
     * telling one when none passes. */
    double total_work = 0;
    for (int i = 0; i < n; i++)
        total_work += stats_work[i];
    int by_work = work_known && total_work > 0;
    char work_note[1024] = "";
    ptx_dbuf_verdict best = PTX_DBUF_NO;
    char best_why[2048] = "", why[1024];
    ptx_dbuf_verdict *verdicts = calloc((size_t)n, sizeof *verdicts);
    char (*whys)[1024] = calloc((size_t)n, sizeof *whys);
    int best_progress = -1, worst_seen = 0;
    for (int i = 0; dbuf && i < n; i++) {
        verdicts[i] = ptx_double_buffered(&stats[i], tile_bytes, stats_dyn[i], why, sizeof why);
        snprintf(whys[i], sizeof whys[i], "%s", why);
        if (by_work) {
            char name[256];
            ptx_display_name(stats[i].fn, name, sizeof name);
            if (stats_work[i] * 8 < total_work)
                continue;   /* not the product's kernel: neither earns nor loses */
            if (fp32 && stats_tensor[i] > 0) {
                verdicts[i] = PTX_DBUF_NO;
                snprintf(whys[i], sizeof whys[i], "%s executed %.0f tensor-pipe instructions: this part is FP32 "
                         "arithmetic on the CUDA cores, not tensor cores", name, stats_tensor[i]);
                snprintf(why, sizeof why, "%s", whys[i]);
            }
            size_t used = strlen(work_note);
            snprintf(work_note + used, sizeof work_note - used, "%s%s (%.0f %% of the arithmetic)", used ? ", " : "", name,
                     100 * stats_work[i] / total_work);
            int rank = verdicts[i] == PTX_DBUF_YES ? 2 : verdicts[i] == PTX_DBUF_UNVERIFIED ? 1 : 0;
            int best_rank = best == PTX_DBUF_YES ? 2 : best == PTX_DBUF_UNVERIFIED ? 1 : 0;
            if (!worst_seen || rank < best_rank) {
                best = verdicts[i];
                snprintf(best_why, sizeof best_why, "%s", why);
            }
            worst_seen = 1;
            continue;
        }
        /* Of kernels that fail, the one that came closest: a K-loop, then one
         * barrier per K-step (lab 5 has three more kernels with loops). */
        int progress = (verdicts[i] == PTX_DBUF_YES ? 20 : verdicts[i] == PTX_DBUF_UNVERIFIED ? 10 : 0) +
                       stats[i].has_kloop + (stats[i].has_kloop && stats[i].kloop.fill_and_read == stats[i].kloop.barriers);
        if (progress > best_progress) {
            best = verdicts[i];
            best_progress = progress;
            snprintf(best_why, sizeof best_why, "%s", why);
        }
    }
    if (by_work && dbuf && work_note[0]) {   /* say which kernels were judged, and why those */
        char judged[2048];
        snprintf(judged, sizeof judged, "%s [judged on the kernels that do the product: %s]", best_why, work_note);
        snprintf(best_why, sizeof best_why, "%s", judged);
    }
    int met = dbuf ? best != PTX_DBUF_NO : structure;
    const char *scope = all_entries ? "every kernel in the file (no kernel named: which ran is not known, "
                                      "so an unlaunched kernel counts too)"
                                    : "the kernels named";

    if (json) {
        tl_json_writer w;
        tl_jw_init(&w, stdout);
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "ptx", ptx_path);
        tl_jw_string(&w, "judged", all_entries ? "every kernel" : "named kernels");
        tl_jw_int(&w, "names_not_in_ptx", unmatched);
        tl_jw_array_begin(&w, "kernels");
        for (int i = 0; i < n; i++)
            json_kernel(&w, &stats[i], stats_asked[i], stats_dyn[i], dbuf, verdicts[i], whys[i]);
        tl_jw_array_end(&w);
        tl_jw_object_begin(&w, "structure");
        tl_jw_bool(&w, "met", structure);
        tl_jw_string(&w, "why", structure_why);
        tl_jw_object_end(&w);
        if (dbuf) {
            tl_jw_object_begin(&w, "double_buffered");
            tl_jw_string(&w, "verdict", verdict_word(best));
            tl_jw_string(&w, "why", best_why);
            tl_jw_object_end(&w);
        }
        tl_jw_object_end(&w);
    } else {
        if (all_entries)
            printf("judging %s\n", scope);
        else if (unmatched)
            printf("note: %d name%s not in the PTX, skipped (the harness's kernels?): %s\n", unmatched,
                   unmatched == 1 ? "" : "s", notes);
        for (int i = 0; i < n; i++) {
            char a[256], b[256];
            int overloaded = 0;
            for (int j = 0; j < n && !overloaded; j++)
                overloaded = j != i && !strcmp(ptx_display_name(stats[i].fn, a, sizeof a),
                                               ptx_display_name(stats[j].fn, b, sizeof b));
            print_kernel(&stats[i], stats_dyn[i], overloaded);
        }
        /* For ./grade's report: the judged kernels' counts, summed. */
        int accesses = 0, barriers = 0;
        for (int i = 0; i < n; i++) {
            accesses += stats[i].shared_ld + stats[i].shared_st + stats[i].shared_atom;
            barriers += stats[i].barriers;
        }
        printf("counts: shared=%d barrier=%d\n", accesses, barriers);
        printf("structure: %s: %s\n", structure ? "met" : "not met", structure_why);
        if (dbuf)
            printf("double-buffered: %s: %s\n", verdict_word(best), best_why);
    }
    ptx_free(&m);
    return met ? 0 : 1;
}
