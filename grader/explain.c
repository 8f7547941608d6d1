/*
 * explain.c — the report's words for what went wrong: the reason, and the
 * next step a student can take. Nothing here decides points (score.c does).
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The linker's complaints name the grader's rules, not a line of the file. */
const char *build_failure_hint(const char *log_path, const char *lab)
{
    static char hint[256];
    char line[1024];
    FILE *f = fopen(log_path, "r");
    const char *found = NULL;
    while (f && !found && fgets(line, sizeof line, f)) {
        if (strstr(line, "multiple definition of `main'"))
            found = "your file must not define main(): the grader and build/<lab> supply their own.";
        else if (strstr(line, "undefined reference to `launch_"))
            found = "your file must define the launch function of the skeleton (same name and "
                    "parameters); copy its signature back from the skeleton.";
        else if (strstr(line, "multiple definition of `launch_"))
            found = "the launch function is defined twice: keep one.";
    }
    if (f)
        fclose(f);
    if (!found) {
        snprintf(hint, sizeof hint, "fix the first error above, then `make %s`.", lab);
        found = hint;
    }
    return found;
}

/* How the report names a test: the title its test gave while it ran
 * (tl_hidden_title, hidden.h: "random_1 (817x431)", "N = 1000"), else its
 * reported name without its ordering prefix, or the rubric's name of a test
 * that did not report, '_' read as ' ' ("s07_31x33" -> "31x33");
 * and its 2D shape as the test reported it (tl_hidden_shape), else none.
 * Nothing is re-derived from the seed or read back out of a name. */
void display_name(const tl_json *test, const char *name, char *out, size_t len, tl_shape *shape)
{
    const char *title = test ? tl_json_string(test, "title", "") : "";
    const char *rest = test && strchr(name, '_') ? strchr(name, '_') + 1 : name;
    snprintf(out, len, "%s", title[0] ? title : rest);
    if (!title[0])
        for (char *p = out; *p; p++)
            if (*p == '_')
                *p = ' ';
    shape->rows = test ? (int)tl_json_number(test, "rows", 0) : 0;
    shape->cols = test ? (int)tl_json_number(test, "cols", 0) : 0;
}

/* Reason and next step for a test that did not pass. */
unsigned explain_failure(const tl_json *test, const tl_rubric *r, char *out, size_t len)
{
    unsigned flag = FLAG_WRONG;
    const char *status = tl_json_string(test, "status", "?");
    const tl_json *messages = tl_json_get(test, "messages");
    size_t nmsg = tl_json_length(messages);
    const char *first = nmsg ? messages->child->string : NULL;
    if (first && strstr(first, "timed out")) {
        appendf(out, len, "timed out: a kernel was still running at its %g s deadline, or the test "
                "passed its %g s limit. One launch should take milliseconds.\nLikely causes: a loop whose exit "
                "condition never changes, or threads waiting at a barrier that others of the block never "
                "reach (a __syncthreads() in a branch or a loop not every thread takes the same way).\n"
                "Next: run build/%s to see which shape hangs; compute-sanitizer --tool synccheck names a "
                "divergent barrier.\n", r->kernel_timeout_s, r->test_timeout_s, r->id);
        flag = FLAG_TIMEOUT;
    } else if (first && strstr(first, "crashed")) {
        flag = FLAG_CRASH;
        appendf(out, len, "the test process crashed (a signal such as a segmentation fault in host "
                "code).\nNext: run build/%s and read the first error it prints.\n", r->id);
    } else if (nmsg == 0) {
        flag = FLAG_CRASH;
        appendf(out, len, "the test process ended early (%s, no message).\nNext: remove any exit() or "
                "abort() from your file, then run build/%s.\n", status, r->id);
    } else {
        for (const tl_json *m = messages->child; m; m = m->next) {
            if (m->type != TL_JSON_STRING)
                continue;
            /* The guards' and canaries' words (guard.c, matrix messages), not any "outside". */
            if (strstr(m->string, "wrote outside") || strstr(m->string, "read from outside") ||
                strstr(m->string, "IllegalAddress"))
                flag = FLAG_OUT_OF_BOUNDS;
            else if (strstr(m->string, "CUDA error") && flag == FLAG_WRONG)
                flag = FLAG_CRASH;
            /* Criterion prefixes "file.c:line: "; the message itself is what matters. */
            const char *text = m->string, *source = strstr(text, ".c:");
            const char *after_line = source ? strstr(source, ": ") : NULL;
            if (after_line)
                text = after_line + 2;
            while (*text == ' ')
                text++;
            const char *next = strstr(text, " Next: ");
            if (next)
                appendf(out, len, "%.*s\nNext: %s\n", (int)(next - text), text, next + 7);
            else
                appendf(out, len, "%s\n", text);
        }
    }
    return flag;
}

unsigned explain_missing(const tl_rubric *r, char *out, size_t len)
{
    appendf(out, len, "did not report: the hidden tests ended without a result for this test (the test process "
            "crashed or was stopped before it ran), so it counts as failed.\nNext: run build/%s and read the first "
            "error it prints.\n", r->id);
    return FLAG_CRASH;
}

/* Right on every square shape and wrong on every other one (but 1 x N, which
 * swapping leaves alike): the shapes prove rows and cols swapped. A file right
 * on some non-square shapes has another bug (one path of several wrong). */
const char *swapped_rows_note(int square_pass, int square_fail, int other_fail, int other_pass)
{
    if (square_pass >= 2 && square_fail == 0 && other_fail > 0 && other_pass == 0)
        return "Every square shape passed and every non-square one failed: rows and cols are probably swapped "
               "in an index or in the grid (handout: Row-major layout).";
    return NULL;
}

/* ---- sanitizers ---------------------------------------------------------- */

/* A sanitizer's first finding: the error line and the lines that locate it. */
static void quote_first_finding(char *out, size_t len, const char *log_path)
{
    FILE *f = fopen(log_path, "r");
    char line[1024];
    int quoting = 0;
    while (f && quoting < 3 && fgets(line, sizeof line, f)) {
        if (strncmp(line, "========= ", 10) != 0)
            continue;
        const char *text = line + 10;
        while (*text == ' ')
            text++;
        if (!quoting && !(strstr(text, "Invalid") || strstr(text, "Error") || strstr(text, "error") ||
                          strstr(text, "Race") || strstr(text, "Barrier")))
            continue;
        if (quoting && (strstr(text, "SUMMARY") || *text == '\n' || strstr(text, "Saved host backtrace")))
            break;
        appendf(out, len, "  %s", text);
        quoting++;
    }
    if (f)
        fclose(f);
}


void explain_sanitizer_findings(char *out, size_t len, const char *tool, const char *log_path, const options *o,
                                const tl_rubric_unit *unit)
{
    int race = !strcmp(tool, "racecheck"), sync = !strcmp(tool, "synccheck");
    char finding[2048] = "";
    quote_first_finding(finding, sizeof finding, log_path);
    if (o->cpu_mode)   /* the findings of CPU mode's own checks, in this tool's place */
        appendf(out, len, "CPU mode's checks found what %s reports; the first:\n%s", tool, finding);
    else
        appendf(out, len, "compute-sanitizer --tool %s found errors; the first:\n%s", tool, finding);
    if (unit)   /* a lab of several kernels (lab 5) thinks in parts and supersteps */
        explain_places(out, len, finding, o->source, tool, unit);
    appendf(out, len, "Next: %s\n", race
            ? "threads read shared memory that other threads write with no barrier between: put "
              "__syncthreads() between the phases, reached by every thread of the block (handout: Two "
              "phases and a barrier; lab 5: supersteps)."
            : sync
            ? "a barrier that not every thread of the block reaches (inside an if, or a loop whose trip "
              "count differs between threads): move it out of the branch so every thread meets it "
              "(handout lab 5: Barrier rules)."
            : "an access outside a buffer at the line above: check the bounds tests of both phases "
              "(handout: Partial tiles).");
}

void explain_sanitizer_failure(char *out, size_t len, const char *tool, int status, const char *log_path)
{
    if (status == 124)
        appendf(out, len, "the %s run timed out (log: %s): a kernel did not finish. Most often a barrier "
                "some threads never reach while others wait at it; a GPU busy with other work can also slow "
                "the sanitizer past its limit (grade again to tell).\n", tool, log_path);
    else {
        appendf(out, len, "the %s run failed (exit %d); its output:\n", tool, status);
        append_file(out, len, log_path, NULL, 8);
    }
}

/* ---- calls a lab file may not make ---------------------------------------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The inspector's findings (grader/inspect.c: `KIND: NAME: sentence` a line),
 * or the refused calls alone (--not-allowed CALLS). */
void explain_not_allowed(char *out, size_t len, const options *o)
{
    enum { MAX_FINDINGS = 64 };
    static char lines[MAX_FINDINGS][1024];
    const char *calls[MAX_FINDINGS];
    int nlines = 0, ncalls = 0, more = 0;
    FILE *f = o->not_allowed_file ? fopen(o->not_allowed_file, "r") : NULL;
    while (f && fgets(lines[nlines], sizeof lines[nlines], f)) {
        char *line = lines[nlines];
        if (!strchr(line, '\n')) {   /* longer than a line here: the rest is dropped */
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (!*line)
            continue;
        if (nlines == MAX_FINDINGS - 1) {
            more++;
            continue;
        }
        /* "calls: NAME: sentence": NAME goes in the summary line. */
        if (!strncmp(line, "calls: ", 7) && strstr(line + 7, ": "))
            calls[ncalls++] = line + 7;
        nlines++;
    }
    if (f)
        fclose(f);
    qsort(calls, ncalls, sizeof *calls, by_name);
    char names[512] = "";
    for (int i = 0; i < ncalls; i++)
        appendf(names, sizeof names, "%s%.*s", i ? " " : "", (int)(strstr(calls[i], ": ") - calls[i]), calls[i]);
    if (o->not_allowed)
        appendf(out, len, "not allowed: your file calls %s. ", o->not_allowed);
    else if (ncalls)
        appendf(out, len, "not allowed: your file calls %s. ", names);
    else
        appendf(out, len, "not allowed: your file holds code a lab file may not have. ");
    appendf(out, len, "In tilelab you write and launch the kernel yourself, in your own file; "
            "library shortcuts (cuBLAS, cudaMemcpy and friends) and code outside the launch function earn "
            "no points, so the file was not graded further.\n");
    for (int i = 0; i < nlines; i++) {
        /* Each finding's sentence: what the student reads, without KIND and NAME. */
        const char *text = lines[i], *first = strstr(text, ": ");
        const char *second = first ? strstr(first + 2, ": ") : NULL;
        appendf(out, len, "  - %s\n", second ? second + 2 : text);
    }
    if (more)
        appendf(out, len, "  (and %d more)\n", more);
    if (o->not_allowed || !nlines)
        appendf(out, len, "Next: remove the call and launch your own kernel.\n");
}

/* ---- hardware counters (ncu) ---------------------------------------------- */

/* What requests over those of 128-bit accesses say (lab 6): 4x for float, 2x for float2. */
static const char *access_width(double ratio)
{
    return ratio > 3.5 && ratio < 4.5 ? "32-bit (float) accesses, as lab 3's"
           : ratio > 1.7 && ratio < 2.3 ? "64-bit (float2) accesses"
           : "more requests than the data needs (narrow accesses, or work besides the transpose)";
}

/*
 * Lab 6: 128-bit accesses over more sectors than their bytes fill. Only
 * said to be the access pattern's fault when the shape does not explain it:
 * a row of in (cols floats) starts on a 32-byte sector only when cols % 8 is
 * 0 (of out: rows % 8); otherwise every other row starts mid-sector, and a
 * run of float4s that starts at a row's first column spans one sector more
 * there. Runs of 8 float4s or more (128 bytes) then cost at most a quarter
 * more on those rows, an eighth on average: what the shape explains.
 */
static void explain_vector_sectors(char *out, size_t len, const counter_reading *c)
{
    int loads = c->ld_sectors - c->ld_ideal >= c->st_sectors - c->st_ideal;
    double sectors = loads ? c->ld_sectors : c->st_sectors, ideal = loads ? c->ld_ideal : c->st_ideal;
    int row_floats = loads ? c->cols : c->rows;
    if (row_floats > 0 && row_floats % 8 != 0 && sectors <= ideal * 1.125 + 0.5) {
        appendf(out, len, "Note: your %s touch %.1f sectors per request, %.2f of them filled. That is the shape, not "
                "your access pattern: %s rows are %d floats long (%d %% 8 == %d), so every other one starts in the "
                "middle of a 32-byte sector, and a run of float4s from its first column spans one sector more. "
                "No points depend on it (handout lab 6: A tile laid out like out).\n",
                loads ? "loads" : "stores", sectors, ideal, loads ? "in's" : "out's", row_floats, row_floats,
                row_floats % 8);
        return;
    }
    appendf(out, len, "Hint: your %s touch %.1f sectors per request: 128-bit, but a warp's 16-byte pieces land in "
            "more sectors than the %.2f its bytes fill. Neighbouring threads should move neighbouring float4s of "
            "one row, on both sides (handout lab 6: A tile laid out like out).\n",
            loads ? "loads" : "stores", sectors, ideal);
}

void explain_counters(char *out, size_t len, const counter_reading *c)
{
    if (c->vector && (c->ld_scattered || c->st_scattered)) {
        double worst = fmax(c->ld_scattered ? c->ld_requests / c->ideal_ld_requests : 0,
                            c->st_scattered ? c->st_requests / c->ideal_st_requests : 0);
        appendf(out, len, "Hint: your %s%s%s take %.1fx the %s: %s. Load "
                "and store whole 4 x 4 blocks as four float4 rows (handout lab 6: Vectors cut requests).\n",
                c->ld_scattered ? "loads" : "", c->ld_scattered && c->st_scattered ? " and " : "",
                c->st_scattered ? "stores" : "", worst,
                c->per_thread ? "accesses (per thread) of float4" : "requests of 128-bit accesses",
                access_width(worst));
    } else if (c->vector && (c->ld_sectors > c->ld_ideal + 0.5 || c->st_sectors > c->st_ideal + 0.5)) {
        explain_vector_sectors(out, len, c);   /* wide, but more sectors than the bytes need: no points lost */
    } else if (c->ld_scattered)
        appendf(out, len, "Hint: loads touch %.0f sectors per request: your reads are not coalesced "
                "(a warp reading 32 neighbouring floats needs 4).\n", c->ld_sectors);
    if (c->st_scattered && !c->vector)
        appendf(out, len, "Hint: stores touch %.0f sectors per request: your writes are not "
                "coalesced; consecutive threads should write consecutive addresses (lab 2's tile does it).\n",
                c->st_sectors);
    /* float4 rows padded by one float lose their 16-byte alignment */
    if ((c->ld_conflicted || c->st_conflicted) && c->vector)
        appendf(out, len, "Hint: each shared %s waits %.1f extra bank passes. A tile of float4s cannot "
                "be padded by one float; swizzle its columns instead (handout lab 6: Banks and float4). No points "
                "depend on it.\n", c->ld_conflicted ? "load" : "store",
                c->ld_conflicted ? c->ld_conflicts : c->st_conflicts);
    else if (c->ld_conflicted || c->st_conflicted)
        appendf(out, len, "Hint: each shared %s waits %.1f extra bank passes: threads of a warp hit "
                "the same bank. A column of a [32][32] tile lies in one bank; pad it to [32][33] (handout lab 3: "
                "The padding fix).\n", c->ld_conflicted ? "load" : "store",
                c->ld_conflicted ? c->ld_conflicts : c->st_conflicts);
}
