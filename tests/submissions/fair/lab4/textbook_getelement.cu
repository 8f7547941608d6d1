/*
 * Fair (lab 4): the CUDA C++ Programming Guide's shared-memory matrix
 * multiplication ("Shared Memory" in the programming model chapter,
 * https://docs.nvidia.com/cuda/cuda-c-programming-guide/#shared-memory),
 * written again for lab 4: a Matrix struct (width, height, stride,
 * elements) and the guide's plain `__device__` accessor functions
 * GetElement, SetElement and GetSubMatrix, BLOCK_SIZE 16, one thread per
 * element of a 16 x 16 sub-matrix of C, two barriers per step. The guide
 * assumes multiples of BLOCK_SIZE; here the accessors are given the
 * sub-matrix's valid extent and read 0 outside it, and SetElement skips
 * elements outside C, so every shape works (1 x 1 x 1, K = 1, NaN and Inf).
 * Score: the 16 x 16 tiling measures 0.174-0.175 of cuBLAS through ./grade on
 * the H100 (tests/submissions/fair/lab4/tile16, lab 4's rubric), 0.158 in
 * process on the H200; lab 4 is full from 0.15. The accessors inline to the
 * same loads and stores. As tile16: 95..100.
 * Today the inspector refuses the plain __device__ accessors ("your file
 * calls exit": nvcc's host copies, issue 27).
 * expect: exit by-score, score 95..100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#define BLOCK_SIZE 16

/* Row-major: M(row, col) = *(M.elements + row * M.stride + col). height x width valid. */
typedef struct {
    int width;
    int height;
    int stride;
    const float *elements;
} Matrix;

/* An element of A or B, 0 outside the (sub-)matrix's valid part. */
__device__ float GetElement(const Matrix A, int row, int col)
{
    return row < A.height && col < A.width ? A.elements[(size_t)row * A.stride + col] : 0.0f;
}

/* Stores into C (row-major, ldc) when (row, col) lies inside height x width. */
__device__ void SetElement(float *C, int ldc, int height, int width, int row, int col, float value)
{
    if (row < height && col < width)
        C[(size_t)row * ldc + col] = value;
}

/* The BLOCK_SIZE x BLOCK_SIZE sub-matrix of A at block (row, col), clipped to A. */
__device__ Matrix GetSubMatrix(const Matrix A, int row, int col)
{
    Matrix Asub;
    int r0 = BLOCK_SIZE * row, c0 = BLOCK_SIZE * col;
    Asub.width = min(BLOCK_SIZE, A.width - c0);
    Asub.height = min(BLOCK_SIZE, A.height - r0);
    Asub.stride = A.stride;
    Asub.elements = A.elements + (size_t)A.stride * r0 + c0;
    return Asub;
}

__global__ void MatMulKernel(Matrix A, Matrix B, float *C, int M, int N)
{
    int blockRow = blockIdx.y, blockCol = blockIdx.x;
    int row = threadIdx.y, col = threadIdx.x;
    float Cvalue = 0.0f;

    for (int m = 0; m < (A.width + BLOCK_SIZE - 1) / BLOCK_SIZE; ++m) {
        Matrix Asub = GetSubMatrix(A, blockRow, m);
        Matrix Bsub = GetSubMatrix(B, m, blockCol);

        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[row][col] = GetElement(Asub, row, col);
        Bs[row][col] = GetElement(Bsub, row, col);
        /* Sub-matrices loaded before the computation starts. */
        __syncthreads();

        for (int e = 0; e < BLOCK_SIZE; ++e)
            Cvalue += As[row][e] * Bs[e][col];
        /* Computation done before the next sub-matrices are loaded. */
        __syncthreads();
    }
    SetElement(C, N, M, N, blockRow * BLOCK_SIZE + row, blockCol * BLOCK_SIZE + col, Cvalue);
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    Matrix d_A = {K, M, K, A};
    Matrix d_B = {N, K, N, B};
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid((N + BLOCK_SIZE - 1) / BLOCK_SIZE, (M + BLOCK_SIZE - 1) / BLOCK_SIZE);
    MatMulKernel<<<dimGrid, dimBlock>>>(d_A, d_B, C, M, N);
}
