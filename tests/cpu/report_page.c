/*
 * report.html (issue 30): the page ./grade writes beside results.json, the
 * grade drawn from CPU mode's typed record of each access line's warp
 * (cpu-check.json; grader/report_page.c). One CPU-mode grade per lab's
 * reference, shared by every test of this run (the first test to need a lab
 * grades it, under a lock): lab 1 (a strided store), lab 2 (an unpadded
 * tile: a column read conflicts), lab 3 (padded: none) and lab 6 (128-bit
 * accesses, a swizzled tile), and the contrasts the lessons draw: lab 2
 * without its barrier (a race) and lab 6 without its swizzle. Each page is
 * rendered in headless Chromium: zero console messages, and its DOM, not its
 * pixels, is checked: an element per figure whose data- attributes carry the
 * counts cpu-check.json holds, the lanes, sectors, bank cells and barrier
 * intervals each lesson turns on, the source lines the table links to, and a
 * size under 2 MB. Lab 7's reference and its diverging-skip fixture: each
 * kernel's grid of warps by stretches between barriers, uniform or divergent,
 * beside the kit's wide-tile kernel (cpu-check-sparse.json's "branches").
 * Lab 3's screenshot stays in
 * build/tests/report-page-artifacts/. Beside them, the report step alone on a
 * GPU grade's fixtures (the speed bars) and on a FIFO for a source. About
 * three minutes on 2 cores; no GPU needed (--cpu).
 */
#define _GNU_SOURCE   /* strcasestr */
#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json.h"

#define WORK "build/tests/report-page"
#define ARTIFACTS "build/tests/report-page-artifacts"
#define SEED "20261121"   /* the GPU suite's */

static int sh(const char *cmd)
{
    unsetenv("MAKEFLAGS");   /* a fresh top-level make inside, as a student's */
    unsetenv("MAKELEVEL");
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The whole file, NUL-terminated (freed by the caller); NULL when unreadable. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n + 1);
    size_t got = buf ? fread(buf, 1, n, f) : 0;
    fclose(f);
    if (!buf)
        return NULL;
    buf[got] = 0;
    if (len)
        *len = got;
    return buf;
}

/* The headless Chromium here: chromium-headless-shell (Debian 12 and later),
 * else chromium run with --headless; NULL when neither is (as the board's test). */
static const char *chromium(void)
{
    if (sh("command -v chromium-headless-shell >/dev/null 2>&1") == 0)
        return "chromium-headless-shell";
    if (sh("command -v chromium >/dev/null 2>&1") == 0)
        return "chromium --headless";
    return NULL;
}
/* Root in CI: Chromium's sandbox needs --no-sandbox there. Every console
 * message (a script error, a load the page's CSP blocked) is a CONSOLE line
 * on stderr with --enable-logging=stderr. */
#define BROWSER_FLAGS "--no-sandbox --disable-gpu --no-first-run --enable-logging=stderr --v=0"

typedef struct {
    char dir[256];
    char *page, *dom, *console;   /* report.html as written, as Chromium's DOM, its console */
    size_t page_bytes;
    tl_json *trace, *results;     /* cpu-check.json, results.json */
} graded;

/* A lab file graded once in this run under `name` (Criterion's runner is
 * every test's parent: its pid names the run), exiting `status`, its page
 * rendered. A patch (a tests/submissions/ fixture) is applied to `src` first.
 * `trace`: CPU mode's record read beside it (a lab of units: cpu-check-UNIT.json). */
static graded grade_traced(const char *name, const char *lab, const char *src, const char *patch, int expect_status,
                           const char *trace)
{
    graded g;
    memset(&g, 0, sizeof g);
    char cmd[4096], stamp[320], lock[320], want[32], err[256], patched[320];
    snprintf(g.dir, sizeof g.dir, WORK "/%s", name);
    snprintf(stamp, sizeof stamp, "%s.run", g.dir);
    snprintf(lock, sizeof lock, "%s.lock", g.dir);
    snprintf(want, sizeof want, "%ld\n", (long)getppid());
    mkdir("build/tests", 0777);
    mkdir(WORK, 0777);
    int fd = open(lock, O_RDWR | O_CREAT, 0666);
    cr_assert(fd >= 0 && flock(fd, LOCK_EX) == 0, "cannot lock %s", lock);
    char *had = slurp(stamp, NULL);
    if (!had || strcmp(had, want)) {
        if (patch) {
            snprintf(patched, sizeof patched, "%s.cu", g.dir);
            snprintf(cmd, sizeof cmd, "rm -f %s && patch -s -o %s %s < %s > %s.patch.log 2>&1", patched, patched, src,
                     patch, g.dir);
            cr_assert_eq(sh(cmd), 0, "%s does not apply to %s; see %s.patch.log", patch, src, g.dir);
            src = patched;
        }
        snprintf(cmd, sizeof cmd, "rm -rf %s %s && TILELAB_HISTORY=%s.history.csv NO_COLOR=1 ./grade %s --cpu --file %s "
                 "--seed " SEED " --out %s > %s.log 2>&1", g.dir, stamp, g.dir, lab, src, g.dir, g.dir);
        int status = sh(cmd);
        cr_assert(status == expect_status, "%s: ./grade exit %d, expected %d; see %s.log", src, status, expect_status,
                  g.dir);
        const char *browser = chromium();
        if (browser) {
            char cwd[1024];
            cr_assert(getcwd(cwd, sizeof cwd));
            snprintf(cmd, sizeof cmd, "HOME=%s/%s timeout 60 %s " BROWSER_FLAGS " --dump-dom file://%s/%s/report.html "
                     "> %s/dom.html 2> %s/console.txt", cwd, g.dir, browser, cwd, g.dir, g.dir, g.dir);
            cr_assert_eq(sh(cmd), 0, "%s failed on %s/report.html; see %s/console.txt", browser, g.dir, g.dir);
        }
        FILE *f = fopen(stamp, "w");
        cr_assert(f && fputs(want, f) >= 0 && fclose(f) == 0);
    }
    free(had);
    close(fd);   /* the lock with it */
    char path[320];
    snprintf(path, sizeof path, "%s/report.html", g.dir);
    g.page = slurp(path, &g.page_bytes);
    cr_assert(g.page, "%s: no report.html beside results.json", g.dir);
    snprintf(path, sizeof path, "%s/dom.html", g.dir);
    g.dom = slurp(path, NULL);
    snprintf(path, sizeof path, "%s/console.txt", g.dir);
    g.console = slurp(path, NULL);
    snprintf(path, sizeof path, "%s/%s", g.dir, trace);
    g.trace = tl_json_parse_file(path, err, sizeof err);
    cr_assert(g.trace, "%s: %s", path, err);
    snprintf(path, sizeof path, "%s/results.json", g.dir);
    g.results = tl_json_parse_file(path, err, sizeof err);
    cr_assert(g.results, "%s: %s", path, err);
    return g;
}

static graded grade_file(const char *name, const char *lab, const char *src, const char *patch, int expect_status)
{
    return grade_traced(name, lab, src, patch, expect_status, "cpu-check.json");
}

/* The DOM Chromium built; the test is skipped without a browser. */
static const char *dom_of(const graded *g)
{
    if (!g->dom)
        cr_skip_test("no headless Chromium here (chromium-headless-shell or chromium): the page was not rendered; "
                     "install one (.ci/run does, where the release packages it)");
    return g->dom;
}

/* ---- reading the DOM ------------------------------------------------------------ */

/* The figure of `space` `op` accesses at `line` (0: the first such), its
 * element's text in a buffer of its own (freed by the caller), or NULL. */
static char *figure(const char *dom, const char *space, const char *op, int line)
{
    char head[64], want_op[32], want_line[32];
    snprintf(head, sizeof head, "<figure class=\"access %s", space);
    snprintf(want_op, sizeof want_op, "data-op=\"%s\"", op);
    snprintf(want_line, sizeof want_line, "data-line=\"%d\"", line);
    for (const char *p = strstr(dom, head); p; p = strstr(p + 1, head)) {
        const char *tag_end = strchr(p, '>'), *end = strstr(p, "</figure>");
        if (!tag_end || !end)
            return NULL;
        size_t tag = tag_end - p;
        char *t = strndup(p, tag);
        int match = strstr(t, want_op) && (!line || strstr(t, want_line));
        free(t);
        if (match)
            return strndup(p, end - p);
    }
    return NULL;
}

/* An attribute of the element's first tag, as a number (-1: none). */
static double attr(const char *elem, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *tag_end = strchr(elem, '>'), *p = strstr(elem, key);
    return p && p < tag_end ? atof(p + strlen(key)) : -1;
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Every figure and table row says what cpu-check.json says of its line:
 * requests, sectors or wavefronts, ideal, summed over the line's instructions. */
static void expect_counts_match_the_trace(const graded *g, const char *dom)
{
    const tl_json *sites = tl_json_get(tl_json_get(g->trace, "counters"), "sites");
    cr_assert(sites && sites->child, "%s: cpu-check.json has no counted sites", g->dir);
    int figures = 0;
    for (const tl_json *s = sites->child; s; s = s->next) {
        int line = (int)tl_json_number(s, "line", 0);
        const char *space = tl_json_string(s, "space", ""), *op = tl_json_string(s, "op", "");
        int shared = !strcmp(space, "shared");
        double requests = 0, units = 0, ideal = 0;
        for (const tl_json *t = sites->child; t; t = t->next)
            if ((int)tl_json_number(t, "line", 0) == line && !strcmp(tl_json_string(t, "space", ""), space) &&
                !strcmp(tl_json_string(t, "op", ""), op)) {
                requests += tl_json_number(t, "requests", 0);
                units += tl_json_number(t, shared ? "wavefronts" : "sectors", 0);
                ideal += tl_json_number(t, "ideal", 0);
            }
        char *fig = figure(dom, space, op, line);
        cr_assert(fig, "%s: no figure for the %s %s at line %d", g->dir, space, op, line);
        cr_expect_eq(attr(fig, "data-requests"), requests, "%s line %d %s %s: requests", g->dir, line, space, op);
        cr_expect_eq(attr(fig, shared ? "data-wavefronts" : "data-sectors"), units, "%s line %d %s %s", g->dir, line,
                     space, op);
        cr_expect_eq(attr(fig, "data-ideal"), ideal, "%s line %d %s %s: ideal", g->dir, line, space, op);
        free(fig);
        char row[128], anchor[64];
        snprintf(row, sizeof row, "\" data-line=\"%d\" data-space=\"%s\" data-op=\"%s\"><td>", line, space, op);
        const char *tr = strstr(dom, row);
        cr_expect(tr, "%s: no table row %s", g->dir, row);
        while (tr && tr > dom && strncmp(tr, "<tr class=\"", 11))
            tr--;
        cr_expect(tr && !strncmp(tr + 11, units > ideal ? "off" : "ok", units > ideal ? 3 : 2),
                  "%s: the row of line %d %s %s is not marked %s", g->dir, line, space, op, units > ideal ? "off" : "ok");
        snprintf(anchor, sizeof anchor, "<span id=\"L%d\" class=\"ln counted", line);
        cr_expect(strstr(dom, anchor), "%s: line %d of the source is not shown as counted", g->dir, line);
        figures++;
    }
    cr_expect_gt(figures, 0);
}

/* What every page must be: rendered without a console message, the grade's
 * score, the counts of the trace, no GPU said, small. */
static void expect_a_sound_page(const graded *g)
{
    const char *dom = dom_of(g);
    cr_expect(g->console && !strstr(g->console, ":CONSOLE"), "%s/report.html: console messages:\n%s", g->dir,
              g->console ? g->console : "(none read)");
    cr_expect(strstr(dom, "</html>"), "%s: no DOM", g->dir);
    cr_expect(!strstr(g->page, "<script") && !strstr(g->page, "http://") && !strstr(g->page, "https://"),
              "%s: the page loads or runs something", g->dir);
    cr_expect(strstr(g->page, "Content-Security-Policy\" content=\"default-src 'none'"), "%s: no CSP", g->dir);
    /* A 1024x1024 grade's page: summarised per line and warp, never the trace. */
    cr_expect_lt(g->page_bytes, 2u << 20, "%s/report.html is %zu bytes (2 MB at most)", g->dir, g->page_bytes);
    char score[96];
    snprintf(score, sizeof score, "data-score=\"%.2f\" data-max=\"%.2f\"", tl_json_number(g->results, "score", -1),
             tl_json_number(g->results, "max_score", -1));
    cr_expect(strstr(dom, score), "%s: the page's score is not results.json's (%s)", g->dir, score);
    cr_expect(strstr(dom, "no GPU: not measured"), "%s: CPU mode's page must say the speed was not measured", g->dir);
    expect_counts_match_the_trace(g, dom);
}

static graded grade_lab(const char *lab, const char *src)
{
    return grade_file(lab, lab, src, NULL, 0);
}

static void release(graded *g)
{
    free(g->page);
    free(g->dom);
    free(g->console);
    tl_json_free(g->trace);
    tl_json_free(g->results);
}

#define LAB1 "solutions/lab1-naive-transpose/transpose.cu"
#define LAB2 "solutions/lab2-shared-tile/transpose.cu"
#define LAB3 "solutions/lab3-padding/transpose.cu"
#define LAB6 "solutions/lab6-register-transpose/transpose.cu"
#define LAB7 "solutions/lab7-sparse-matmul/matmul.cu"

/* ---- the labs -------------------------------------------------------------------- */

Test(report_page, lab1_strided_store_is_32_sectors_one_word_each, .timeout = 300)
{
    graded g = grade_lab("lab1", LAB1);
    expect_a_sound_page(&g);
    char *st = figure(g.dom, "global", "st", 0), *ld = figure(g.dom, "global", "ld", 0);
    cr_assert(st && ld, "lab 1: a figure for its global load and its global store");
    /* The store: 32 lanes, 32 sectors, each with one of its 8 words used; ideal 4. */
    cr_expect(strstr(st, "class=\"access global off-ideal\""), "lab 1's store is off the ideal");
    cr_expect_eq(attr(st, "data-warp-sectors"), 32);
    cr_expect_eq(attr(st, "data-warp-ideal"), 4);
    cr_expect_eq(count(st, "<rect class=\"sector wasted\" data-words-used=\"1\""), 32, "32 sectors, one word used in each");
    cr_expect_eq(count(st, "<line class=\"lane\""), 32, "a line from each lane");
    cr_expect_eq(count(st, "<rect class=\"sector ideal\""), 4, "the ideal beside it: 4 sectors");
    /* The load, coalesced: 4 sectors, every word used. */
    cr_expect(!strstr(ld, "off-ideal"), "lab 1's load is coalesced");
    cr_expect_eq(attr(ld, "data-warp-sectors"), 4);
    cr_expect_eq(count(ld, "data-words-used=\"8\""), 4);
    free(st);
    free(ld);
    release(&g);
}

Test(report_page, lab2_unpadded_column_read_is_one_bank_32_passes, .timeout = 300)
{
    graded g = grade_lab("lab2", LAB2);
    expect_a_sound_page(&g);
    char *ld = figure(g.dom, "shared", "ld", 0), *st = figure(g.dom, "shared", "st", 0);
    cr_assert(ld && st, "lab 2: a figure for its shared load and its shared store");
    cr_expect_eq(attr(ld, "data-warp-wavefronts"), 32, "the column read: 32 passes");
    cr_expect_eq(attr(ld, "data-conflicts"), 31 * attr(ld, "data-requests"), "31 conflicts a request");
    cr_expect_eq(count(ld, "<rect class=\"cell conflict\""), 32, "32 lanes in conflict");
    /* All 32 in one bank, one lane a pass. */
    const char *bank = strstr(ld, "data-bank=\"");
    cr_assert(bank);
    char one[32];
    snprintf(one, sizeof one, "data-bank=\"%d\"", atoi(bank + 11));
    cr_expect_eq(count(ld, one), 32, "every lane of the column read in one bank");
    cr_expect_eq(count(ld, "data-pass=\"32\""), 1);
    /* The row write: one pass, no conflict. */
    cr_expect_eq(attr(st, "data-conflicts"), 0);
    cr_expect_eq(count(st, "<rect class=\"cell\""), 32);
    cr_expect_eq(count(st, "conflict\""), 0);
    free(ld);
    free(st);
    release(&g);
}

Test(report_page, lab3_padding_spreads_the_column_over_32_banks, .timeout = 300)
{
    graded g = grade_lab("lab3", LAB3);
    expect_a_sound_page(&g);
    char *ld = figure(g.dom, "shared", "ld", 0);
    cr_assert(ld, "lab 3: a figure for its shared load");
    cr_expect_eq(attr(ld, "data-warp-wavefronts"), 1, "the padded column read: one pass");
    cr_expect_eq(attr(ld, "data-conflicts"), 0);
    cr_expect_eq(count(ld, "<rect class=\"cell\""), 32, "32 lanes, 32 banks");
    for (int b = 0; b < 32; b++) {
        char one[32];
        snprintf(one, sizeof one, "data-bank=\"%d\"", b);
        cr_expect_eq(count(ld, one), 1, "bank %d serves one lane", b);
    }
    cr_expect(strstr(ld, "tile[32][33]"), "the figure names the padded tile");
    cr_expect(!strstr(g.dom, "\"cell conflict") && !strstr(g.dom, " off-ideal\""), "lab 3: nothing off the ideal");
    free(ld);
    /* The screenshot stays as the test's artifact (CI keeps build/). */
    const char *browser = chromium();
    if (browser) {
        char cmd[8192], cwd[1024];
        cr_assert(getcwd(cwd, sizeof cwd));
        snprintf(cmd, sizeof cmd, "mkdir -p " ARTIFACTS " && rm -f " ARTIFACTS "/lab3.png && HOME=%s/%s timeout 60 %s "
                 BROWSER_FLAGS " --hide-scrollbars --window-size=1280,1800 --screenshot=%s/" ARTIFACTS "/lab3.png "
                 "file://%s/%s/report.html > %s/shot.txt 2>&1", cwd, g.dir, browser, cwd, cwd, g.dir, g.dir);
        cr_assert_eq(sh(cmd), 0, "the screenshot; see %s/shot.txt", g.dir);
        size_t png = 0;
        char *shot = slurp(ARTIFACTS "/lab3.png", &png);
        cr_expect(shot && png > 1000 && !memcmp(shot, "\x89PNG", 4), "a PNG screenshot in " ARTIFACTS "/lab3.png");
        free(shot);
    }
    release(&g);
}

Test(report_page, lab6_128_bit_accesses_fill_their_sectors, .timeout = 300)
{
    graded g = grade_lab("lab6", LAB6);
    expect_a_sound_page(&g);
    char *ld = figure(g.dom, "global", "ld", 0), *st = figure(g.dom, "global", "st", 0);
    cr_assert(ld && st, "lab 6: a figure for its global load and its global store");
    /* A lane's 16 bytes fill half a sector: none holds fewer than 4 used words
     * (a row that starts mid-sector, as the drawn shape's may, costs one more). */
    for (char **f = (char *[]){ld, st, NULL}; *f; f++) {
        cr_expect_eq(attr(*f, "data-bytes"), 16, "float4: 16 bytes a lane");
        cr_expect_eq(count(*f, "<line class=\"lane\""), 32);
        cr_expect_leq(attr(*f, "data-warp-sectors"), attr(*f, "data-warp-ideal") + 1);
        cr_expect_eq(count(*f, "data-words-used=\"1\"") + count(*f, "data-words-used=\"2\"") +
                     count(*f, "data-words-used=\"3\""), 0, "every sector at least half used");
        cr_expect_geq(count(*f, "data-words-used=\"8\""), attr(*f, "data-warp-sectors") - 2);
    }
    /* The swizzled tile: 16-byte accesses served a quarter warp a pass, no conflict. */
    char *sld = figure(g.dom, "shared", "ld", 0), *sst = figure(g.dom, "shared", "st", 0);
    cr_assert(sld && sst, "lab 6: a figure for its shared load and store");
    for (char **f = (char *[]){sld, sst, NULL}; *f; f++) {
        cr_expect_eq(attr(*f, "data-bytes"), 16);
        cr_expect_eq(attr(*f, "data-conflicts"), 0, "the swizzle leaves no conflict");
        cr_expect_eq(attr(*f, "data-warp-wavefronts"), 4, "four passes, a quarter warp each");
        cr_expect_eq(count(*f, "<rect class=\"cell\""), 128, "32 lanes x 4 words, each bank once a pass");
    }
    free(ld);
    free(st);
    free(sld);
    free(sst);
    release(&g);
}

/* The pairs the lessons contrast differ where they should, in the same terms. */
Test(report_page, the_lessons_differ_where_they_should, .timeout = 600)
{
    graded l1 = grade_lab("lab1", LAB1), l2 = grade_lab("lab2", LAB2), l3 = grade_lab("lab3", LAB3),
           l6 = grade_lab("lab6", LAB6);
    dom_of(&l1);
    /* lab 1 naive against lab 3: a wasted store against full sectors. */
    cr_expect_gt(count(l1.dom, "sector wasted"), 0);
    cr_expect_eq(count(l3.dom, "sector wasted"), 0);
    /* lab 2 unpadded against lab 3 padded: conflicts against none. */
    char *c2 = figure(l2.dom, "shared", "ld", 0), *c3 = figure(l3.dom, "shared", "ld", 0);
    cr_assert(c2 && c3);
    cr_expect_gt(attr(c2, "data-conflicts"), 0);
    cr_expect_eq(attr(c3, "data-conflicts"), 0);
    cr_expect_gt(attr(c2, "data-warp-wavefronts"), attr(c3, "data-warp-wavefronts"));
    /* lab 1's 4-byte lanes against lab 6's 16-byte ones. */
    char *g1 = figure(l1.dom, "global", "ld", 0), *g6 = figure(l6.dom, "global", "ld", 0);
    cr_assert(g1 && g6);
    cr_expect_eq(attr(g1, "data-bytes"), 4);
    cr_expect_eq(attr(g6, "data-bytes"), 16);
    free(c2), free(c3), free(g1), free(g6);
    release(&l1), release(&l2), release(&l3), release(&l6);
}

/* ---- a GPU grade's page ----------------------------------------------------------- */

/* The report step alone on a real capture of a GPU grade of lab 6 (H100; the
 * unit tests' fixtures): the speed beside every reference of the same run as
 * bars, yours marked; no trace to draw, and said so. */
Test(report_page, a_gpu_grade_draws_its_speed_beside_the_same_runs_references, .timeout = 120)
{
    const char *dir = WORK "/gpu-lab6";
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "make -s --no-print-directory build/tools/report > /dev/null && rm -rf %s && mkdir -p %s && "
             "NO_COLOR=1 build/tools/report --rubric tests/fixtures/lab6.rubric --source " LAB6 " --seed 7 "
             "--results %s/results.json --history %s/history.csv --html %s/report.html "
             "--tests tests/fixtures/tests-all-pass.json --measure tests/fixtures/measure-library.json "
             "--sanitizers tests/fixtures/sanitizers-clean --counters tests/fixtures/ncu-vector.csv > %s/out.txt 2>&1",
             dir, dir, dir, dir, dir, dir);
    cr_assert_eq(sh(cmd), 0, "the report step; see %s/out.txt", dir);
    char path[256];
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *page = slurp(path, NULL);
    cr_assert(page, "no %s", path);
    cr_expect(strstr(page, "data-mode=\"gpu\""));
    cr_expect(strstr(page, "data-measured=\"1\" data-fraction=\"1.0214\""), "the fraction of copy, results.json's");
    cr_expect_eq(count(page, "<rect class=\"bar"), 5, "yours, copy (worker, events), your lab3, cuBLAS Sgeam");
    cr_expect_eq(count(page, "<rect class=\"bar yours\""), 1);
    cr_expect(strstr(page, "cuBLAS Sgeam</text>") && strstr(page, "your lab3</text>"), "the references named");
    cr_expect(strstr(page, "data-traces=\"0\"") && strstr(page, "./grade --cpu draws them"),
              "a GPU grade says where the pictures come from");
    cr_expect(!strstr(page, "<figure"), "no figure without a trace");
    const char *browser = chromium();
    if (browser) {
        char cwd[1024];
        cr_assert(getcwd(cwd, sizeof cwd));
        snprintf(cmd, sizeof cmd, "HOME=%s/%s timeout 60 %s " BROWSER_FLAGS " --dump-dom file://%s/%s/report.html "
                 "> %s/dom.html 2> %s/console.txt", cwd, dir, browser, cwd, dir, dir, dir);
        cr_assert_eq(sh(cmd), 0);
        snprintf(path, sizeof path, "%s/console.txt", dir);
        char *console = slurp(path, NULL);
        cr_expect(console && !strstr(console, ":CONSOLE"), "console messages:\n%s", console ? console : "");
        free(console);
    }
    free(page);
}

/* ---- races and barriers -------------------------------------------------------------- */

/* Lab 2's reference against the same file without its barrier
 * (tests/submissions/lab2/missing_barrier.patch): one barrier between the
 * tile's store and its load, against none and a race joining the two lines
 * in the one interval they share. */
Test(report_page, a_missing_barrier_puts_the_store_and_load_in_one_interval_with_a_race, .timeout = 300)
{
    graded ref = grade_lab("lab2", LAB2),
           bad = grade_file("lab2-missing-barrier", "lab2", LAB2, "tests/submissions/lab2/missing_barrier.patch", 1);
    const char *dom = dom_of(&bad);
    cr_expect(bad.console && !strstr(bad.console, ":CONSOLE"), "console messages:\n%s", bad.console);
    char *good, *racy;
    const char *head = "<figure class=\"timeline\" data-kernel=\"transpose_tiled\"";
    const char *a = strstr(ref.dom, head), *b = strstr(dom, head);
    cr_assert(a && b, "a timeline of transpose_tiled in both pages");
    good = strndup(a, strstr(a, "</figure>") - a);
    racy = strndup(b, strstr(b, "</figure>") - b);
    cr_expect_eq(attr(good, "data-barriers"), 1);
    cr_expect_eq(attr(good, "data-races"), 0);
    cr_expect(strstr(good, "data-line=\"22\" data-interval=\"0\"") && strstr(good, "data-line=\"32\" data-interval=\"1\""),
              "the reference: the store before the barrier, the load after it");
    cr_expect_eq(count(good, "<path class=\"race\""), 0);
    cr_expect_eq(attr(racy, "data-barriers"), 0);
    cr_expect_geq(attr(racy, "data-races"), 1);
    cr_expect(strstr(racy, "<path class=\"race\" data-line=\"22\" data-line2=\"30\" data-interval=\"0\" data-same-interval=\"1\""),
              "the race joins the store (22) and the load (30) in their one interval:\n%s", racy);
    cr_expect(strstr(racy, "threads 0,0,0 and 8,0,0"), "the two threads named");
    cr_expect(strstr(dom, "<tr class=\"ok finding\" data-line=\"22\""), "the table marks the store's line with its finding");
    free(good);
    free(racy);
    release(&ref);
    release(&bad);
}

/* Lab 6 against the same file without its swizzle
 * (tests/fixtures/report-page/lab6-unswizzled.patch): the tile's 16-byte
 * stores, a quarter warp at a time, fall into the same 4 banks 8 deep,
 * where the swizzle spreads them over all 32 in one pass. */
Test(report_page, lab6_without_its_swizzle_stores_8_passes_deep, .timeout = 300)
{
    graded ref = grade_lab("lab6", LAB6),
           bad = grade_file("lab6-unswizzled", "lab6", LAB6, "tests/fixtures/report-page/lab6-unswizzled.patch", 0);
    const char *dom = dom_of(&bad);
    cr_expect(bad.console && !strstr(bad.console, ":CONSOLE"), "console messages:\n%s", bad.console);
    char *plain = figure(dom, "shared", "st", 0), *swizzled = figure(ref.dom, "shared", "st", 0);
    cr_assert(plain && swizzled);
    cr_expect_eq(attr(swizzled, "data-warp-wavefronts"), 4, "swizzled: one pass per quarter warp");
    cr_expect_eq(attr(plain, "data-warp-wavefronts"), 32, "unswizzled: 8 passes per quarter warp");
    cr_expect_gt(attr(plain, "data-conflicts"), 0);
    cr_expect_eq(count(plain, "<rect class=\"cell conflict\""), 128, "every lane's 4 words in a conflicted bank");
    cr_expect_eq(count(swizzled, "<rect class=\"cell conflict\""), 0);
    cr_expect(strstr(plain, "class=\"access shared off-ideal\""));
    free(plain);
    free(swizzled);
    release(&ref);
    release(&bad);
}

/* A grade interrupted while it read its source from a FIFO (tests/tools/grade.c
 * does this) still gets its page: the page reads regular files only, never waits. */
Test(report_page, a_source_that_is_no_regular_file_never_blocks_the_page, .timeout = 60)
{
    const char *dir = WORK "/fifo";
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "make -s --no-print-directory build/tools/report > /dev/null && rm -rf %s && mkdir -p %s && "
             "mkfifo %s/block.cu && timeout 20 build/tools/report --rubric labs/lab1-naive-transpose/lab.rubric "
             "--source %s/block.cu --seed 1 --results %s/results.json --history %s/history.csv --html %s/report.html "
             "--quiet --problem 'interrupted: the grade did not finish' > %s/out.txt 2>&1; echo $? > %s/status",
             dir, dir, dir, dir, dir, dir, dir, dir, dir);
    cr_assert_eq(sh(cmd), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/status", dir);
    char *status = slurp(path, NULL);
    cr_expect(status && atoi(status) == 2, "could not grade (2), not a time-out (124): %s", status ? status : "?");
    free(status);
    snprintf(path, sizeof path, "%s/report.html", dir);
    char *page = slurp(path, NULL);
    cr_expect(page && strstr(page, "could not grade") && strstr(page, "interrupted: the grade did not finish"));
    free(page);
}

/* ---- lab 7: the skip, warp by warp ----------------------------------------------- */

/* The figure of one kernel's branches (yours, contrast), its text in a buffer of its own, or NULL. */
static char *branch_figure(const char *dom, const char *kernel)
{
    char head[96];
    snprintf(head, sizeof head, "<figure class=\"branches\" data-kernel=\"%s\"", kernel);
    const char *p = strstr(dom, head), *end = p ? strstr(p, "</figure>") : NULL;
    return p && end ? strndup(p, end - p) : NULL;
}

/* branches.kernels[i] of cpu-check-sparse.json, by its "kernel". */
static const tl_json *branch_record(const graded *g, const char *kernel)
{
    const tl_json *all = tl_json_get(tl_json_get(g->trace, "branches"), "kernels");
    for (const tl_json *k = all ? all->child : NULL; k; k = k->next)
        if (!strcmp(tl_json_string(k, "kernel", ""), kernel))
            return k;
    return NULL;
}

/* A kernel's figure says what its record says: the grid's warp-stretches and
 * how many diverged, block 0's cells one rect each, red where they diverged. */
static void expect_branch_figure(const graded *g, const char *kernel, int divergent)
{
    const tl_json *rec = branch_record(g, kernel);
    cr_assert(rec, "%s: cpu-check-sparse.json has no branches of %s", g->dir, kernel);
    const tl_json *recorded = tl_json_get(rec, "recorded");
    cr_assert(recorded && recorded->number, "%s: %s's branches not traced: %s", g->dir, kernel,
              tl_json_string(rec, "why", "?"));
    char *fig = branch_figure(g->dom, kernel);
    cr_assert(fig, "%s: no figure of %s's branches", g->dir, kernel);
    double steps = tl_json_number(rec, "warp_steps", -1), diverged = tl_json_number(rec, "divergent_steps", -1);
    cr_expect_eq(attr(fig, "data-warp-steps"), steps, "%s %s: warp-stretches", g->dir, kernel);
    cr_expect_eq(attr(fig, "data-divergent-steps"), diverged, "%s %s: divergent ones", g->dir, kernel);
    const char *svg = strstr(fig, "<svg class=\"branches\"");
    cr_assert(svg, "%s %s: no grid", g->dir, kernel);
    int cells = count(fig, "<rect class=\"step uniform") + count(fig, "<rect class=\"step divergent\"");
    cr_expect_eq(attr(svg, "data-cells"), cells, "%s %s: one rect per cell", g->dir, kernel);
    cr_expect_eq(attr(svg, "data-divergent-cells"), count(fig, "<rect class=\"step divergent\""));
    cr_expect_eq(attr(svg, "data-warps"), 8, "block 0's 8 warps drawn");
    cr_expect_gt(cells, 8, "more than one stretch between barriers");
    if (divergent) {
        cr_expect_gt(diverged, 0, "%s: %s's lanes diverge", g->dir, kernel);
        cr_expect_gt(count(fig, "<rect class=\"step divergent\""), 0);
    } else {
        cr_expect_eq(diverged, 0, "%s: %s's warps skip as one", g->dir, kernel);
        cr_expect_eq(count(fig, "<rect class=\"step divergent\""), 0);
    }
    free(fig);
}

/* Lab 7's reference against the same file whose lanes each walk the columns in
 * their own order (tests/submissions/lab7/diverging_skip.patch): every warp of
 * the reference decides each K-block's skip as one, the diverging file's do
 * not; beside each, the kit's wide-tile kernel diverges, as it must. */
Test(report_page, lab7_the_reference_skips_as_a_warp_the_diverging_skip_does_not, .timeout = 600)
{
    graded ref = grade_traced("lab7", "lab7", LAB7, NULL, 0, "cpu-check-sparse.json"),
           bad = grade_traced("lab7-diverging-skip", "lab7", LAB7, "tests/submissions/lab7/diverging_skip.patch", 0,
                              "cpu-check-sparse.json");
    for (graded *g = &ref; g; g = g == &ref ? &bad : NULL) {
        const char *dom = dom_of(g);
        cr_expect(g->console && !strstr(g->console, ":CONSOLE"), "%s/report.html: console messages:\n%s", g->dir,
                  g->console ? g->console : "(none read)");
        cr_expect(strstr(dom, "<h2 id=\"branches\">"), "%s: no branches section", g->dir);
        cr_expect_lt(g->page_bytes, 2u << 20, "%s/report.html is %zu bytes", g->dir, g->page_bytes);
        expect_branch_figure(g, "contrast", 1);
    }
    expect_branch_figure(&ref, "yours", 0);
    expect_branch_figure(&bad, "yours", 1);
    /* Issue 43: both kernels' memory accesses are counted and drawn, as lab 4's are. */
    cr_expect(strstr(dom_of(&ref), "Counted at 256x256x256 by CPU mode"), "%s: no counters on lab 7's page", ref.dir);
    cr_expect(!strstr(dom_of(&ref), "No counters case"), "%s: lab 7's page says it has no counters", ref.dir);
    release(&ref);
    release(&bad);
}
