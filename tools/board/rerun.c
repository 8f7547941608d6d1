/*
 * rerun.c — the deadline re-run. The plan: every student on a board has the
 * file of their best run graded again, on one pinned GPU model, in several
 * rounds, each with a fresh secret seed of its own; each round is a class
 * folder for the batch grader (tools/board/board runs `./grade --batch` on
 * each), its students in an order rotated from round to round, so that no
 * student is always graded first or last (interleaved: every student once per
 * round, never one student's rounds back to back). The merge: a student stays
 * on the pinned GPU's board only when every round passed every hidden test on
 * that GPU; their result is the rounds' median, their noise the larger of the
 * runs' own noise and half the rounds' spread. A run the re-run could not
 * grade (no GPU or nvcc where it ran) is no failure of the student's: that
 * board keeps the submitted order until a further --rerun has graded it
 * (tools/board/board finishes a planned re-run).
 *
 *   DIR/rerun/plan.tsv     # gpu MODEL / # rounds N, then a line per file and
 *                          round: round, position, folder, student, lab, source
 *   DIR/rerun/seed         the rounds' fresh seeds, round R's on line R (private
 *                          until the board is out; none is the class's)
 *   DIR/rerun/round-R/class/NNN-<student>/<lab>.cu    what round R grades
 *   DIR/rerun/round-R/out/                           the batch's results
 *   DIR/rerun/merged.csv   per student and lab: the rounds' fractions, median,
 *                          and how many runs could not be graded
 */
#include "board.h"
#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int make_dirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[65536];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

typedef struct {
    const char *student, *lab, *source;
} rerun_file;

static int by_student_lab(const void *a, const void *b)
{
    const rerun_file *x = a, *y = b;
    int c = strcmp(x->student, y->student);
    return c ? c : strcmp(x->lab, y->lab);
}

int rerun_plan(const char *dir, board *boards, int nb, const char *gpu, int rounds, const char *seeds)
{
    /* One seed a round, "S1,S2,...": whole numbers, as ./grade --seed takes them. */
    int nseeds = 1;
    for (const char *c = seeds; *c; c++) {
        if (*c == ',')
            nseeds++;
        else if (*c < '0' || *c > '9') {
            fprintf(stderr, "board: --seed takes one whole number per round, between commas, not '%s'\n", seeds);
            return 2;
        }
    }
    if (nseeds != rounds || !seeds[0] || seeds[0] == ',' || strstr(seeds, ",,") || seeds[strlen(seeds) - 1] == ',') {
        fprintf(stderr, "board: --seed '%s' is not %d seed%s, one per round, between commas\n", seeds, rounds,
                rounds == 1 ? "" : "s");
        return 2;
    }
    char root[4200], path[4400];
    pathf(root, sizeof root, "%s/rerun", dir);
    pathf(path, sizeof path, "%s/plan.tsv", root);
    if (access(path, F_OK) == 0) {
        fprintf(stderr, "board: %s exists: a re-run was planned already (move %s away to plan another)\n", path, root);
        return 2;
    }
    /* One file per student and lab: the best run on the pinned GPU's board, else the best on any. */
    int cap = 0;
    for (int k = 0; k < nb; k++)
        cap += boards[k].n;
    rerun_file *files = calloc(cap ? cap : 1, sizeof *files);
    double *best = calloc(cap ? cap : 1, sizeof *best);
    int *pinned = calloc(cap ? cap : 1, sizeof *pinned);
    int n = 0;
    for (int k = 0; k < nb; k++)
        for (int i = 0; i < boards[k].n; i++) {
            const run *r = boards[k].entries[i].best;
            int on_pin = !strcmp(boards[k].gpu, gpu), at = -1;
            for (int m = 0; m < n && at < 0; m++)
                if (!strcmp(files[m].student, r->student) && !strcmp(files[m].lab, r->lab))
                    at = m;
            if (at < 0) {
                at = n++;
                files[at] = (rerun_file){r->student, r->lab, NULL};
                best[at] = -1;
            }
            if ((on_pin && !pinned[at]) || (on_pin == pinned[at] && r->fraction > best[at])) {
                files[at].source = r->source;
                best[at] = r->fraction;
                pinned[at] = on_pin;
            }
        }
    qsort(files, n, sizeof *files, by_student_lab);   /* pinned/best no longer match: not used below */
    free(best);
    free(pinned);
    if (n == 0) {
        fprintf(stderr, "board: nobody is on a board yet: nothing to re-run\n");
        free(files);
        return 2;
    }
    /* The students, once each, in name order; round r starts r * n / rounds further on. */
    const char **students = calloc(n, sizeof *students);
    int ns = 0;
    for (int m = 0; m < n; m++)
        if (ns == 0 || strcmp(students[ns - 1], files[m].student))
            students[ns++] = files[m].student;
    if (make_dirs(root) != 0) {
        fprintf(stderr, "board: cannot make %s: %s\n", root, strerror(errno));
        return 2;
    }
    FILE *plan = fopen(path, "w");
    if (!plan) {
        fprintf(stderr, "board: cannot write %s\n", path);
        return 2;
    }
    fprintf(plan, "# gpu\t%s\n# rounds\t%d\n", gpu, rounds);
    int missing = 0;
    for (int round = 1; round <= rounds; round++) {
        int shift = (int)((long)(round - 1) * ns / rounds);
        for (int pos = 0; pos < ns; pos++) {
            const char *student = students[(pos + shift) % ns];
            char folder[512];
            snprintf(folder, sizeof folder, "%03d-%s", pos + 1, student);
            for (int m = 0; m < n; m++) {
                if (strcmp(files[m].student, student))
                    continue;
                char dest[4800];
                pathf(dest, sizeof dest, "%s/round-%d/class/%s", root, round, folder);
                if (make_dirs(dest) != 0) {
                    fprintf(stderr, "board: cannot make %s\n", dest);
                    fclose(plan);
                    return 2;
                }
                snprintf(dest + strlen(dest), sizeof dest - strlen(dest), "/%s.cu", files[m].lab);
                if (copy_file(files[m].source, dest) != 0) {
                    missing++;
                    continue;   /* the file is gone: that student is not re-run (and leaves the board) */
                }
                fprintf(plan, "%d\t%d\t%s\t%s\t%s\t%s\n", round, pos + 1, folder, student, files[m].lab,
                        files[m].source);
            }
        }
    }
    if (fclose(plan) != 0)
        return 2;
    if (missing)
        fprintf(stderr, "board: %d file%s of a best run could not be read: not re-run\n", missing / rounds,
                missing / rounds == 1 ? "" : "s");
    pathf(path, sizeof path, "%s/seed", root);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char lines[4096];
    snprintf(lines, sizeof lines, "%s\n", seeds);
    for (char *c = lines; *c; c++)
        if (*c == ',')
            *c = '\n';
    if (fd < 0 || write(fd, lines, strlen(lines)) != (ssize_t)strlen(lines)) {
        fprintf(stderr, "board: cannot write %s\n", path);
        return 2;
    }
    close(fd);
    printf("board: re-run planned: %d file%s of %d student%s, %d round%s on %s (%s)\n", n, n == 1 ? "" : "s", ns,
           ns == 1 ? "" : "s", rounds, rounds == 1 ? "" : "s", gpu, root);
    free(students);
    free(files);
    return 0;
}

/* ---- the merge ---------------------------------------------------------------- */

typedef struct {
    char student[256], lab[32];
    double fraction[64], noise[64];
    int rounds, passed;
    int missing;              /* runs the re-run could not grade (no GPU or nvcc), or without results */
    char why_missing[4800];   /* the first such run's results.json, and why */
} merged;

/* A planned run the re-run has not graded on the pinned model: counted neither as passed nor as failed. */
static void missing_run(merged *x, const char *results, const char *why)
{
    if (!x->missing++)
        snprintf(x->why_missing, sizeof x->why_missing, "%s: %s", results, why);
}

int rerun_apply(const char *dir, board *boards, int nb)
{
    char root[4200], path[4400];
    pathf(root, sizeof root, "%s/rerun", dir);
    pathf(path, sizeof path, "%s/plan.tsv", root);
    FILE *plan = fopen(path, "r");
    if (!plan)
        return 0;
    char line[8192], gpu[256] = "";
    int rounds = 0, nm = 0, cap = 16, done = 0;
    unsigned long long done_mask = 0;
    merged *m = calloc(cap, sizeof *m);
    while (fgets(line, sizeof line, plan)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!strncmp(line, "# gpu\t", 6)) {
            snprintf(gpu, sizeof gpu, "%.255s", line + 6);
            continue;
        }
        if (!strncmp(line, "# rounds\t", 9)) {
            rounds = atoi(line + 9);
            continue;
        }
        char *f[6], *save = NULL;
        int k = 0;
        for (char *t = strtok_r(line, "\t", &save); t && k < 6; t = strtok_r(NULL, "\t", &save))
            f[k++] = t;
        if (k < 5)
            continue;
        merged *x = NULL;
        for (int i = 0; i < nm && !x; i++)
            if (!strcmp(m[i].student, f[3]) && !strcmp(m[i].lab, f[4]))
                x = &m[i];
        if (!x) {
            if (nm == cap) {
                cap *= 2;
                m = realloc(m, cap * sizeof *m);
            }
            x = &m[nm++];
            memset(x, 0, sizeof *x);
            snprintf(x->student, sizeof x->student, "%s", f[3]);
            snprintf(x->lab, sizeof x->lab, "%s", f[4]);
        }
        /* A round counts once its batch wrote its gradebook; then a file without results failed it. */
        char book[4800];
        pathf(book, sizeof book, "%s/round-%s/out/gradebook.csv", root, f[0]);
        if (access(book, R_OK) != 0)
            continue;
        int round = atoi(f[0]);
        if (round >= 1 && round <= 64 && !(done_mask & (1ULL << (round - 1)))) {
            done_mask |= 1ULL << (round - 1);
            done++;
        }
        run r;
        memset(&r, 0, sizeof r);
        char run_dir[4800];
        pathf(run_dir, sizeof run_dir, "%s/round-%s/out/%s/%s", root, f[0], f[2], f[4]);
        pathf(r.results, sizeof r.results, "%s/results.json", run_dir);
        snprintf(r.lab, sizeof r.lab, "%s", f[4]);
        x->rounds++;
        if (access(r.results, R_OK) != 0) {
            missing_run(x, r.results, "not written");
            continue;
        }
        read_run(&r, run_dir);
        tl_json_free(r.leaderboard);
        /* A run that could not be graded (no GPU or nvcc where it ran, the
         * kit's fault) is no failure of the student's: it is missing, and the
         * next --rerun grades it again (the batch retries such runs). Passed:
         * on the pinned model only; a run on another model is not counted. */
        if (r.could_not_grade) {
            missing_run(x, r.results, "could not grade, not the file's fault (its grade.log says why)");
        } else if (r.clean && r.measured && !strcmp(r.gpu, gpu) && x->passed < 64) {
            x->fraction[x->passed] = r.fraction;
            x->noise[x->passed++] = r.noise;
        } else if (r.measured && strcmp(r.gpu, gpu)) {
            fprintf(stderr, "board: %s ran on %s, not the pinned %s: not counted\n", r.results, r.gpu, gpu);
        }   /* else graded, and it failed a hidden test, a check, or its measurement */
    }
    fclose(plan);
    if (done == 0) {
        printf("board: a re-run is planned in %s but none of its rounds has finished: the boards are the "
               "submitted runs'\n", root);
        free(m);
        return 0;
    }
    if (done < rounds)
        printf("board: %d of the re-run's %d rounds finished: the order is theirs\n", done, rounds);
    /* The instructor's record (names: private, like the gradebook). */
    pathf(path, sizeof path, "%s/merged.csv", root);
    FILE *out = fopen(path, "w");
    static const char *const header[] = {"student", "lab", "rounds", "passed", "fraction", "noise", "fractions",
                                         "not_graded"};
    if (out)
        tl_csv_row(out, header, 8);
    for (int i = 0; i < nm; i++) {
        merged *x = &m[i];
        double sorted[64], noises[64];
        memcpy(sorted, x->fraction, sizeof sorted);
        memcpy(noises, x->noise, sizeof noises);
        double med = median(sorted, x->passed), noise = median(noises, x->passed);
        if (x->passed > 1 && med > 0 && (sorted[x->passed - 1] - sorted[0]) / (2 * med) > noise)
            noise = (sorted[x->passed - 1] - sorted[0]) / (2 * med);
        x->fraction[0] = med;   /* kept for the boards below */
        x->noise[0] = noise;
        char rs[16], ps[16], fs[32], ns[32], list[1024] = "", ms[16];
        snprintf(rs, sizeof rs, "%d", x->rounds);
        snprintf(ps, sizeof ps, "%d", x->passed);
        snprintf(ms, sizeof ms, "%d", x->missing);
        fs[0] = ns[0] = '\0';
        if (x->passed == x->rounds) {
            snprintf(fs, sizeof fs, "%.4f", med);
            snprintf(ns, sizeof ns, "%.4f", noise);
        }
        for (int k = 0; k < x->passed; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.4f", k ? " " : "", sorted[k]);
        const char *row[8] = {x->student, x->lab, rs, ps, fs, ns, list, ms};
        if (out)
            tl_csv_row(out, row, 8);
    }
    if (out)
        fclose(out);

    /* The pinned model's boards: the re-run's figures, whoever passed every
     * round. Only once every run of theirs was graded: while the re-run could
     * not grade some (no GPU where they ran, say), whoever failed no round
     * would be ordered on fewer rounds than the rest, or left out for the
     * machine's fault; the board stays the submitted runs' until they are. */
    for (int k = 0; k < nb; k++) {
        board *b = &boards[k];
        if (strcmp(b->gpu, gpu))
            continue;
        int missing = 0, runs = 0;
        const merged *example = NULL;
        for (int i = 0; i < nm; i++) {
            if (strcmp(m[i].lab, b->lab))
                continue;
            runs += m[i].rounds;
            if (m[i].passed + m[i].missing < m[i].rounds)
                continue;   /* failed a round: off the board, whatever else is missing */
            missing += m[i].missing;
            if (m[i].missing && !example)
                example = &m[i];
        }
        if (missing) {
            printf("board: %s on %s: the re-run could not grade %d of its %d runs (e.g. %s); the board stays the "
                   "submitted runs' until it has: ./grade --board %s --rerun --gpu '%s' (with --slurm if the rounds "
                   "ran there) grades them again\n", b->lab, b->gpu, missing, runs, example->why_missing, dir, gpu);
            continue;
        }
        int kept = 0, dropped = 0;
        entry *now = calloc(nm + b->n + 1, sizeof *now);
        for (int i = 0; i < nm; i++) {
            merged *x = &m[i];
            if (strcmp(x->lab, b->lab))
                continue;
            /* The student's entry: this board's, else the same lab's on another GPU. */
            const entry *from = NULL;
            for (int e = 0; e < b->n && !from; e++)
                if (!strcmp(b->entries[e].best->student, x->student))
                    from = &b->entries[e];
            for (int q = 0; q < nb && !from; q++)
                for (int e = 0; q != k && !strcmp(boards[q].lab, b->lab) && e < boards[q].n && !from; e++)
                    if (!strcmp(boards[q].entries[e].best->student, x->student))
                        from = &boards[q].entries[e];
            if (!from || x->passed < x->rounds) {
                dropped++;
                continue;
            }
            now[kept] = *from;
            now[kept].fraction = x->fraction[0];
            now[kept].noise = x->noise[0];
            now[kept].rerun = 1;
            kept++;
        }
        free(b->entries);
        b->entries = now;
        b->n = kept;
        b->rerun_rounds = done;
        rank_board(b);
        if (dropped)
            printf("board: %s on %s: %d student%s left the board: not every round of the re-run passed\n", b->lab,
                   b->gpu, dropped, dropped == 1 ? "" : "s");
    }
    free(m);
    return 1;
}
