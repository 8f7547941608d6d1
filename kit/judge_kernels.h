/*
 * judge_kernels.h — what a judge does on the GPU around a timed call, in its
 * own context: fresh inputs for every call, and every call's output checked.
 *
 * Inputs come from a hash of (seed, index), so a check needs no copy of the
 * input: it recomputes what was there, and so also sees an input that the
 * kernel changed. Values are finite, distinct floats in [1, 2): any bit
 * pattern a kernel did not produce from them shows.
 */
#ifndef TILELAB_JUDGE_KERNELS_H
#define TILELAB_JUDGE_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* p[i] = tl_hash_value(seed, i) for i < n, on the GPU (default stream). */
void tl_fill_hashed(float *p, size_t n, uint64_t seed);
float tl_hash_value(uint64_t seed, size_t i);

/* What a check found: how many elements are wrong, and the first. */
typedef struct {
    unsigned long long wrong;
    long long first;     /* index of the first wrong element in the checked buffer; -1: none */
    int first_in_input;  /* the first wrong element is in the input (it was changed) */
    float got, expected;
} tl_gpu_check;

/* `slots` transposes side by side, slot s at in + s * stride and
 * out + s * stride (stride >= rows * cols floats), the inputs filled by
 * tl_fill_hashed(in, slots * stride, seed). */
tl_gpu_check tl_check_transposes(const float *in, const float *out, int rows, int cols, int slots, size_t stride,
                                 uint64_t seed);

/* Slots start on 2 MiB boundaries: measured on an H100, transposes and
 * copies whose slots did not (8064 x 8352 floats each) ran 30-55 % slower in
 * a worker than on slots of exactly 256 MiB. */
size_t tl_slot_floats(size_t n);

/* `slots` in-place transposes of n x n, slot s at a + s * stride
 * (stride >= n * n floats), whose input was tl_fill_hashed(a, slots * stride, seed). */
tl_gpu_check tl_check_inplace(const float *a, int n, int slots, size_t stride, uint64_t seed);

/* p[0..n) still holds tl_fill_hashed(p, n, seed): an input the kernel left alone. */
tl_gpu_check tl_check_hashed(const float *p, size_t n, uint64_t seed);

/* `slots` products C = A B (M x K times K x N), slot s of each matrix at
 * s * slot_stride floats, each C checked at `samples` elements drawn from
 * `pick_seed` against an FP64 dot product within 2 K u sum|a b|
 * (u = 2^-24), the bound of the hidden tests. */
tl_gpu_check tl_check_matmuls(const float *A, const float *B, const float *C, int M, int N, int K, int slots,
                              size_t slot_stride, int samples, uint64_t pick_seed);
/* The same for lab 7: B given as Bt (N rows of TL_SPARSE_LD(K) floats, sparse_case.h). */
tl_gpu_check tl_check_sparse_matmuls(const float *A, const float *Bt, const float *C, int M, int N, int K, int slots,
                                     size_t slot_stride, int samples, uint64_t pick_seed);

#ifdef __cplusplus
}
#endif

#endif
