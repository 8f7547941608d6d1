/*
 * sparse_case.h — lab 7's sparse product, checked: B with a pattern of
 * zeros and the kit's encoder (sparse_encode.h), and one run of
 * launch_matmul_sparse against an FP64 reference (the fp32 bound of
 * matmul_case.h, with B's zeros as zeros).
 *
 * The worker finds the patterns right after Bt in the encoded buffer
 * (worker.cu), so a launch receives exactly what the encoder wrote.
 */
#ifndef TILELAB_SPARSE_CASE_H
#define TILELAB_SPARSE_CASE_H

#include <stddef.h>
#include <stdint.h>
#include "case.h"
#include "shapes.h"
#include "sparse_encode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C = A B by launch_matmul_sparse, B drawn as `kind` says; every element checked. */
tl_case_result tl_sparse_case(tl_mm_shape s, uint64_t seed, tl_sparsity kind, double density);

#ifdef __cplusplus
}
#endif

#endif
