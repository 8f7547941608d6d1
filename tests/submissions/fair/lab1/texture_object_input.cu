/*
 * Fair (lab 1): the kernel reads its input through a texture object
 * (cudaCreateTextureObject over the input as linear memory, tex1Dfetch), as
 * the CUDA guide's texture chapter teaches for read-only data; the object is
 * made and destroyed in the launch function. A texture is a way to read, not
 * a shortcut: every element is still moved by the kernel (32 x 8 threads, one
 * element each). Linear textures address at most 2^27 elements
 * (cudaDevAttrMaxTexture1DLinearWidth on sm_75 to sm_90), more than the
 * largest test (8192 x 8193); creating the object costs microseconds against
 * a 3 ms launch: full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#include <cstring>

enum { BLOCK_X = 32, BLOCK_Y = 8 };

__global__ void transpose_texture(cudaTextureObject_t in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = tex1Dfetch<float>(in, r * cols + c);
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    if (rows == 0 || cols == 0)
        return;
    cudaResourceDesc resource;
    memset(&resource, 0, sizeof resource);
    resource.resType = cudaResourceTypeLinear;
    resource.res.linear.devPtr = (void *)in;
    resource.res.linear.desc = cudaCreateChannelDesc<float>();
    resource.res.linear.sizeInBytes = (size_t)rows * cols * sizeof(float);
    cudaTextureDesc texture;
    memset(&texture, 0, sizeof texture);
    texture.readMode = cudaReadModeElementType;
    cudaTextureObject_t object = 0;
    if (cudaCreateTextureObject(&object, &resource, &texture, NULL) != cudaSuccess)
        return;
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    transpose_texture<<<grid, block>>>(object, out, rows, cols);
    cudaDestroyTextureObject(object);
}
