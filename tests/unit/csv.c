/* CSV quoting and appending with one header. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "csv.h"

static char *read_all(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

Test(csv, quotes_only_when_needed)
{
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    const char *row[] = {"plain", "NVIDIA H100, 80GB", "say \"hi\"", NULL, "a\nb"};
    tl_csv_row(f, row, 5);
    fclose(f);
    cr_assert_str_eq(text, "plain,\"NVIDIA H100, 80GB\",\"say \"\"hi\"\"\",,\"a\nb\"\n");
    free(text);
}

Test(csv, header_is_written_once)
{
    char path[] = "/tmp/tilelab-csv-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    const char *header[] = {"lab", "score"}, *a[] = {"lab1", "90"}, *b[] = {"lab1", "100"};
    cr_assert_eq(tl_csv_append(path, header, a, 2), 0);
    cr_assert_eq(tl_csv_append(path, header, b, 2), 0);
    cr_assert_str_eq(read_all(path), "lab,score\nlab1,90\nlab1,100\n");
    unlink(path);
}

/* A cell a spreadsheet would run as a formula gets a leading quote; numbers,
 * negative ones included, and plain text stay as they are. */
Test(csv, formula_cells_are_guarded)
{
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    const char *row[] = {"=HYPERLINK(\"http://x\")", "+1+2", "-cmd|' /C calc'!A0", "@SUM(A1)", "\tx", "-0.5",
                         "+3", "1e-3", "-", "alice", "a=b"};
    tl_csv_row(f, row, 11);
    fclose(f);
    cr_assert_str_eq(text, "\"'=HYPERLINK(\"\"http://x\"\")\",'+1+2,'-cmd|' /C calc'!A0,'@SUM(A1),'\tx,-0.5,+3,"
                           "1e-3,'-,alice,a=b\n", "%s", text);
    free(text);
}
