/*
 * rows — the GPU suite's table (fixtures.h), one row a line, for scripts
 * that report on a run of it (tests/gpu/device-run.sh):
 *
 *   NAME <tab> RUN <tab> WHY-NOT-GRADED
 *
 * RUN is its folder under build/tests/gpu-runs (and RUN.verdict beside it);
 * WHY-NOT-GRADED is empty, the row's expect-skip reason, or what is wrong
 * with it. Run from the kit's root; exit 2 (the reason on stderr) elsewhere.
 */
#include "fixtures.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    fixture *table;
    char err[256];
    int n = fixtures_load(&table, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "rows: %s\n", err);
        return 2;
    }
    for (int i = 0; i < n; i++)
        printf("%s\t%s\t%s\n", table[i].name, table[i].run, table[i].error[0] ? table[i].error : table[i].skip);
    free(table);
    return 0;
}
