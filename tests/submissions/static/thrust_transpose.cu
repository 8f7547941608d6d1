/* Attack: thrust does the transpose, its kernels compiled into this object; inspect must say "ptx: thrust:" and "ptx: cub:" (then what thrust's host side calls). */
#include "tilelab.h"
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

struct transposed {
    const float *in;
    int rows, cols;
    __host__ __device__ float operator()(int i) const { return in[(i % rows) * cols + i / rows]; }
};

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    thrust::transform(thrust::device, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(rows * cols),
                      out, transposed{in, rows, cols});
}
