/*
 * Fair (lab 1): a 1D grid-stride loop sized by the occupancy API, the
 * pattern of NVIDIA's "CUDA Pro Tip: Write Flexible Kernels with Grid-Stride
 * Loops" (https://developer.nvidia.com/blog/cuda-pro-tip-write-flexible-kernels-grid-stride-loops/)
 * and of the programming guide's occupancy section: the launch asks
 * cudaDeviceGetAttribute for the SM count and
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor for how many 256-thread
 * blocks fit on one, launches exactly that many (one full wave), checks
 * cudaGetLastError, and each thread walks the rows x cols elements
 * blockDim.x * gridDim.x apart. Element i is (i / cols, i % cols): a warp
 * reads 32 consecutive elements of `in` (coalesced, a row break aside) and
 * writes them `rows` apart, as the reference does.
 * Full marks: the reference's memory traffic; the index division is a few
 * integer instructions per element where the kernel waits on memory. Lab 1
 * is full from 0.10 of copy, the reference measures 0.158 (H100).
 * CPU mode runs it since 2026-11-27 (cooperative groups, warp
 * intrinsics, device and occupancy queries: cpu/include/): full marks.
 * Graded on an H100 (2026-11-27, seed 20261121): 0.096 of copy, just under
 * lab 1's 0.100 for the full 28 speed points (a 1D grid-stride loop does a
 * division and a modulo per element): 98.74.
 * expect: exit by-score, score 95..100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { THREADS = 256 };

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
        size_t r = i / cols, c = i % cols;
        out[c * rows + r] = in[i];
    }
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, transpose_naive, THREADS, 0);
    if (sms < 1 || per_sm < 1)   /* a query that failed: any grid is correct, just maybe slower */
        sms = 80, per_sm = 8;

    size_t needed = CEIL_DIV((size_t)rows * cols, (size_t)THREADS);
    size_t wave = (size_t)sms * per_sm;
    int blocks = (int)(needed < wave ? needed : wave);
    transpose_naive<<<blocks, THREADS>>>(in, out, rows, cols);
    cudaGetLastError();   /* the kit checks errors after the call; clear nothing it should see */
}
