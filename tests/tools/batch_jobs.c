/*
 * ./grade --batch -j N (issue 41): N submissions graded at once, never more, and the same
 * gradebook as one at a time. A class of six students is graded by the batch tests' stand-in
 * for ./grade (tests/fixtures/batch/fake-grade), each grade sleeping a second and counting the
 * grades running beside it (FAKE_GRADE_RUNNING). Each test works in its own folder,
 * build/tests/batch-jobs/<test>.<pid>, removed when it passes.
 */
#include <criterion/criterion.h>
#include "tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[128];

/* Six students, each with a lab1.cu the fake grade scores 10, 20, ... 60 after a second's sleep;
 * and a lab2.cu for the first, which it fails (exit 1, 5 of 100). */
static void jobs_class(const char *name)
{
    snprintf(dir, sizeof dir, "build/tests/batch-jobs/%s.%ld", name, (long)getpid());
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/class && cd %s/class && for i in 1 2 3 4 5 6; do mkdir s$i && "
             "printf '// fake-grade: sleep 1\\n// fake-grade: score %%d\\n' $((i * 10)) > s$i/lab1.cu; done && "
             "printf '// fake-grade: score 5\\n' > s1/lab2.cu", dir, dir, dir);
    cr_assert_eq(tool_sh(cmd), 0, "cannot make the class: %s", cmd);
}

/* The batch with ARGS into OUT; its exit status. */
static int jobs_batch(const char *out, const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "FAKE_GRADE_LOG=%s/%s.invocations FAKE_GRADE_RUNNING=%s/%s.running "
             "TILELAB_GRADE='sh tests/fixtures/batch/fake-grade' ./grade --batch %s/class --out %s/%s --seed 7 %s > %s/%s.txt 2>&1",
             dir, out, dir, out, dir, dir, out, args, dir, out);
    return tool_sh(cmd);
}

/* The gradebook of OUT with its folder's name taken out of the results paths. */
static char *jobs_gradebook(const char *out)
{
    char path[256], prefix[256];
    snprintf(path, sizeof path, "%s/%s/gradebook.csv", dir, out);
    snprintf(prefix, sizeof prefix, "%s/%s/", dir, out);
    const char *book = tool_read(path, NULL);
    char *plain = calloc(strlen(book) + 1, 1);
    for (const char *p = book; *p;) {
        if (!strncmp(p, prefix, strlen(prefix)))
            p += strlen(prefix);
        else
            strncat(plain, p++, 1);
    }
    return plain;
}

/* The most grades the fake grade saw running at once in OUT's batch. */
static int jobs_most_at_once(const char *out)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s.running.seen", dir, out);
    const char *seen = tool_read(path, NULL);
    int most = 0;
    for (const char *p = seen; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n'))
        if (atoi(p) > most)
            most = atoi(p);
    return most;
}

Test(batch_jobs, j_grades_that_many_at_once_and_the_gradebook_equals_one_at_a_time)
{
    jobs_class("same");
    cr_assert_eq(jobs_batch("one", "-j 1"), 0, "the batch failed; see %s/one.txt", dir);
    cr_assert_eq(jobs_batch("three", "-j3"), 0, "the batch failed; see %s/three.txt", dir);
    cr_expect_eq(jobs_most_at_once("one"), 1, "-j 1 ran %d grades at once", jobs_most_at_once("one"));
    /* The first three start together, and each sleeps a second. */
    int most = jobs_most_at_once("three");
    cr_expect(most >= 2 && most <= 3, "-j3 ran at most %d grades at once", most);
    char *one = jobs_gradebook("one"), *three = jobs_gradebook("three");
    cr_expect_eq(tool_lines(one), 8, "a header and 7 rows:\n%s", one);
    cr_expect_str_eq(three, one, "-j3's gradebook differs from one at a time's");
    const char *said = tool_read(strcat(strcpy((char[256]){0}, dir), "/three.txt"), NULL);
    cr_expect(strstr(said, "batch: 7 graded, 0 already graded, of 7 submissions from 6 students"), "%s", said);
    cr_expect(strstr(said, "s6 lab1: 60/100"), "%s", said);
    free(one);
    free(three);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    tool_sh(cmd);
}

Test(batch_jobs, a_bad_j_exits_2)
{
    jobs_class("usage");
    const char *cases[] = {"-j 0", "-j x", "-j", "-j 2 --slurm"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_eq(jobs_batch("bad", cases[i]), 2, "./grade --batch ... %s: exit 2 expected", cases[i]);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    tool_sh(cmd);
}
