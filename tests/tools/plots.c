/*
 * `make plots` on the CSV fixtures (no GPU needed): every chart is drawn as a
 * real PNG and a real SVG, the GPU's name reaches the chart, a missing input
 * is skipped with how to make it, a missing gnuplot is one line and exit 2.
 * Runs make from the repository root, as `make tool-tests` does.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT "build/tests/plots"
#define FIXTURES "BENCH=tests/fixtures/bench.csv HISTORY=tests/fixtures/history.csv " \
                 "GRADEBOOK=tests/fixtures/gradebook.csv"

static const char *const charts[] = {"bandwidth", "ladder", "matmul", "history", "class"};
enum { CHARTS = sizeof charts / sizeof charts[0] };

/* Runs `make -s plots ARGS` with stdout and stderr into LOG; its exit status. */
static int make_plots(const char *args, const char *log)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p " OUT " && make -s --no-print-directory plots %s > %s 2>&1", args, log);
    return tool_sh(cmd);
}

/* Drawing tests need gnuplot. Off CI a missing gnuplot skips them, with the
 * fix; on CI (.ci/run installs it) it fails them. */
static void require_gnuplot(void)
{
    if (system("command -v gnuplot >/dev/null 2>&1") == 0)
        return;
    if (getenv("CI"))
        cr_assert_fail("gnuplot is missing on CI: .ci/run should install gnuplot-nox");
    cr_skip_test("gnuplot is not installed (apt-get install gnuplot-nox): charts not drawn");
}

static void check_chart(const char *dir, const char *chart)
{
    char path[512];
    size_t len;
    static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    snprintf(path, sizeof path, "%s/%s.png", dir, chart);
    char *data = tool_read(path, &len);
    cr_assert_gt(len, 1000, "%s: expected a drawn PNG, found %zu bytes", path, len);
    cr_assert(memcmp(data, png_signature, sizeof png_signature) == 0, "%s does not start with the PNG signature", path);

    snprintf(path, sizeof path, "%s/%s.svg", dir, chart);
    data = tool_read(path, &len);
    cr_assert_gt(len, 1000, "%s: expected a drawn SVG, found %zu bytes", path, len);
    cr_assert(strstr(data, "<svg") && strstr(data, "</svg>"), "%s is not a complete SVG document", path);
}

TestSuite(plots, .timeout = 120);

Test(plots, every_chart_from_the_fixtures)
{
    require_gnuplot();
    system("rm -rf " OUT "/all");
    int status = make_plots(FIXTURES " PLOTS_OUT=" OUT "/all", OUT "/all.log");
    cr_assert_eq(status, 0, "make plots exited %d; its output:\n%s", status, tool_read(OUT "/all.log", NULL));
    for (int i = 0; i < CHARTS; i++)
        check_chart(OUT "/all", charts[i]);
    /* gnuplot's warnings (an empty data set, a bad column) would show here. */
    char *log = tool_read(OUT "/all.log", NULL);
    cr_assert_null(strstr(log, "warning"), "make plots printed a warning:\n%s", log);
}

/* The subtitle's GPU comes from the CSV: '# gpu:' in the bench CSV, the
 * device field of the history's last row (quoted, it holds commas). */
Test(plots, gpu_name_comes_from_the_csv)
{
    require_gnuplot();
    system("rm -rf " OUT "/gpu && mkdir -p " OUT "/gpu && "
           "sed 's/^# gpu: .*/# gpu: Tilelab Test_GPU 4711/' tests/fixtures/bench.csv > " OUT "/gpu/bench.csv && "
           "sed 's/\"NVIDIA H200 (/\"Other Board 9 (/' tests/fixtures/history.csv > " OUT "/gpu/history.csv");
    int status = make_plots("BENCH=" OUT "/gpu/bench.csv HISTORY=" OUT "/gpu/history.csv GRADEBOOK=/nonexistent.csv "
                            "PLOTS_OUT=" OUT "/gpu", OUT "/gpu.log");
    cr_assert_eq(status, 0, "make plots exited %d; its output:\n%s", status, tool_read(OUT "/gpu.log", NULL));
    const char *bench_charts[] = {"bandwidth", "ladder", "matmul"};
    for (int i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, OUT "/gpu/%s.svg", bench_charts[i]);
        cr_assert_not_null(strstr(tool_read(path, NULL), "Tilelab Test_GPU 4711"),
                           "%s does not name the GPU of the CSV's '# gpu:' line", path);
    }
    char *svg = tool_read(OUT "/gpu/history.svg", NULL);
    cr_assert_not_null(strstr(svg, "Other Board 9,"), "history.svg does not name the GPU of the last graded run");
    cr_assert_null(strstr(svg, "sm_90"), "history.svg shows the device details instead of the GPU's name");
}

Test(plots, a_missing_input_is_skipped_with_how_to_make_it)
{
    require_gnuplot();
    system("rm -rf " OUT "/skip");
    int status = make_plots("BENCH=/nonexistent/bench.csv HISTORY=/nonexistent/history.csv "
                            "GRADEBOOK=tests/fixtures/gradebook.csv PLOTS_OUT=" OUT "/skip", OUT "/skip.log");
    char *log = tool_read(OUT "/skip.log", NULL);
    cr_assert_eq(status, 0, "a missing input is not an error, but make plots exited %d:\n%s", status, log);
    cr_assert_not_null(strstr(log, "bandwidth: skipped, no /nonexistent/bench.csv yet: run make bench"), "%s", log);
    cr_assert_not_null(strstr(log, "ladder: skipped"), "%s", log);
    cr_assert_not_null(strstr(log, "matmul: skipped"), "%s", log);
    cr_assert_not_null(strstr(log, "history: skipped, no /nonexistent/history.csv yet: run ./grade"), "%s", log);
    cr_assert_eq(access(OUT "/skip/bandwidth.png", F_OK), -1, "a skipped chart was drawn anyway");
    check_chart(OUT "/skip", "class");
}

/* No gnuplot: one line naming the cause and the fix, exit 2, nothing drawn. */
Test(plots, missing_gnuplot_is_one_clear_line)
{
    system("rm -rf " OUT "/none");
    int status = make_plots(FIXTURES " GNUPLOT=/nonexistent/gnuplot PLOTS_OUT=" OUT "/none", OUT "/none.log");
    char *log = tool_read(OUT "/none.log", NULL);
    cr_assert_eq(status, 2, "expected exit 2 (could not draw), got %d:\n%s", status, log);
    size_t lines = 0;
    for (const char *p = log; *p; p++)
        lines += *p == '\n';
    cr_assert_eq(lines, 1, "expected one line, got %zu:\n%s", lines, log);
    cr_assert_not_null(strstr(log, "gnuplot is missing"), "the line does not name the cause:\n%s", log);
    cr_assert_not_null(strstr(log, "apt-get install gnuplot-nox"), "the line does not give the fix:\n%s", log);
    cr_assert_eq(access(OUT "/none/bandwidth.png", F_OK), -1, "a chart was drawn without gnuplot");
}
