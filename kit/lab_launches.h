/*
 * lab_launches.h — the launch functions a worker calls, found in the lab
 * file's library (grader/worker.cu's lab worker, cpu/worker.cc). Those the
 * file does not define stay NULL. C++ only: both workers are.
 */
#ifndef TILELAB_LAB_LAUNCHES_H
#define TILELAB_LAB_LAUNCHES_H

#include <dlfcn.h>

typedef void (*tl_transpose_launch)(const float *, float *, int, int);
typedef void (*tl_matmul_launch)(const float *, const float *, float *, int, int, int);
typedef void (*tl_vector_launch)(const float *, float *, int);
typedef void (*tl_inplace_launch)(float *, int);
typedef void (*tl_sparse_launch)(const float *, const float *, const unsigned char *, float *, int, int, int);

struct tl_lab_launches {
    tl_transpose_launch transpose;
    tl_matmul_launch matmul, matmul_dbuf;
    tl_vector_launch reverse_blocks, block_sums, pair_sums;
    tl_inplace_launch transpose_inplace;
    tl_sparse_launch matmul_sparse;
};

/* Each launch function of tilelab.h, looked up in the library `so` (dlopen). */
static inline tl_lab_launches tl_lab_launches_of(void *so)
{
    tl_lab_launches l;
    l.transpose = (tl_transpose_launch)dlsym(so, "launch_transpose");
    l.matmul = (tl_matmul_launch)dlsym(so, "launch_matmul");
    l.matmul_dbuf = (tl_matmul_launch)dlsym(so, "launch_matmul_dbuf");
    l.reverse_blocks = (tl_vector_launch)dlsym(so, "launch_reverse_blocks");
    l.block_sums = (tl_vector_launch)dlsym(so, "launch_block_sums");
    l.pair_sums = (tl_vector_launch)dlsym(so, "launch_pair_sums");
    l.transpose_inplace = (tl_inplace_launch)dlsym(so, "launch_transpose_inplace");
    l.matmul_sparse = (tl_sparse_launch)dlsym(so, "launch_matmul_sparse");
    return l;
}

#endif
