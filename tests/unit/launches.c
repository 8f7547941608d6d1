/* The launch table (kit/launches.h, kinds/<kind>/kind.def): one number per
 * launch, CPU mode's the same, the numbers CPU mode seeded its inputs with
 * before the table kept (cpu/judge.c's case seed: op + 1). */
#include <criterion/criterion.h>
#include <string.h>
#include "launches.h"

Test(launches, every_launch_is_named_once)
{
    for (int i = 0; i < TL_OP_WARM; i++) {
        cr_assert(!strncmp(tl_launch_names[i], "launch_", 7), "op %d is named %s", i, tl_launch_names[i]);
        for (int j = 0; j < i; j++)
            cr_assert(strcmp(tl_launch_names[i], tl_launch_names[j]), "%s is in the table twice", tl_launch_names[i]);
    }
    cr_assert_str_eq(tl_launch_names[TL_OP_WARM], "the kit's empty kernel");
}

Test(launches, the_first_kinds_keep_their_numbers)
{
    /* Renumbering would change CPU mode's seeded inputs: a new kind goes after these. */
    static const char *const first[] = {"launch_transpose", "launch_matmul", "launch_reverse_blocks",
                                        "launch_block_sums", "launch_pair_sums", "launch_transpose_inplace",
                                        "launch_matmul_dbuf", "launch_matmul_sparse"};
    for (int i = 0; i < 8; i++)
        cr_assert_str_eq(tl_launch_names[i], first[i]);
    cr_assert_eq(tl_cpu_layouts[TL_OP_SPARSE], TL_CPU_TWO_ALLOCS);
    cr_assert_eq(tl_cpu_layouts[TL_OP_INPLACE], TL_CPU_INPLACE);
    cr_assert_eq(tl_cpu_layouts[TL_OP_MATMUL], TL_CPU_TWO_IN);
}
