/*
 * cuda_runtime.h — CPU mode's stand-in for the CUDA runtime header.
 *
 * In CPU mode a lab file is compiled by the host C++ compiler with cpu/include
 * first on the include path, so kit/check.h (and through it tilelab.h)
 * gets this header instead of the toolkit's. It declares the subset of CUDA
 * the labs use; cpu/runtime.cc implements it. Anything else a lab file might
 * call stops the run with "not supported in CPU mode: X at file:line" (the
 * macros at the end), or, where a macro cannot catch it, fails to compile.
 *
 * Two things need the source step (cpu/cudafe.c) besides this header:
 * `__shared__` declarations (one copy per block, not per thread) and the
 * `kernel<<<grid, block, shared>>>(...)` launch, which LAUNCH expands to.
 */
#ifndef TILELAB_CPU_CUDA_RUNTIME_H
#define TILELAB_CPU_CUDA_RUNTIME_H

#ifndef __cplusplus
#error "CPU mode compiles lab files as C++ (cpu/cpu.mk)"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>   /* printf in a kernel, which CUDA declares without an include */
#include <string.h>
#include <math.h>
#include <tuple>
#include <type_traits>

#define TILELAB_CPU 1

/* Qualifiers: a kernel is a plain function; the source step finds __shared__. */
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
/* As nvcc's host pass has it; in a __shared__ declaration the source step
 * (cpu/cudafe.c) takes it out and gives the block's copy that alignment. */
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict

struct uint3 { unsigned x, y, z; };
struct dim3 {
    unsigned x, y, z;
    dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
    dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    operator uint3() const { return uint3{x, y, z}; }
};
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) int2 { int x, y; };
struct alignas(16) int4 { int x, y, z, w; };
inline float2 make_float2(float x, float y) { return float2{x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
inline int2 make_int2(int x, int y) { return int2{x, y}; }
inline int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
/* The other vector types a lab file may name, with CUDA's sizes and alignments. */
struct alignas(8) uint2 { unsigned x, y; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
struct alignas(2) uchar2 { unsigned char x, y; };
struct alignas(4) uchar4 { unsigned char x, y, z, w; };
struct alignas(2) char2 { signed char x, y; };
struct alignas(4) char4 { signed char x, y, z, w; };
struct alignas(4) ushort2 { unsigned short x, y; };
struct alignas(8) ushort4 { unsigned short x, y, z, w; };
struct alignas(4) short2 { short x, y; };
struct alignas(8) short4 { short x, y, z, w; };
struct float3 { float x, y, z; };
struct int3 { int x, y, z; };
struct alignas(16) double2 { double x, y; };
inline uint2 make_uint2(unsigned x, unsigned y) { return uint2{x, y}; }
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{x, y, z, w}; }
inline uchar2 make_uchar2(unsigned char x, unsigned char y) { return uchar2{x, y}; }
inline uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w) { return uchar4{x, y, z, w}; }
inline char2 make_char2(signed char x, signed char y) { return char2{x, y}; }
inline char4 make_char4(signed char x, signed char y, signed char z, signed char w) { return char4{x, y, z, w}; }
inline ushort2 make_ushort2(unsigned short x, unsigned short y) { return ushort2{x, y}; }
inline ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w) { return ushort4{x, y, z, w}; }
inline short2 make_short2(short x, short y) { return short2{x, y}; }
inline short4 make_short4(short x, short y, short z, short w) { return short4{x, y, z, w}; }
inline float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
inline int3 make_int3(int x, int y, int z) { return int3{x, y, z}; }
inline double2 make_double2(double x, double y) { return double2{x, y}; }

/* The running CUDA thread's indices: set by the scheduler before it resumes
 * a thread. One copy per OS thread; a block runs on one OS thread only. */
extern thread_local uint3 threadIdx, blockIdx;
extern thread_local dim3 blockDim, gridDim;
enum { warpSize = 32 };

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotSupported = 801,
    cudaErrorIllegalAddress = 700,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorUnknown = 999
} cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};

typedef struct tlc_event *cudaEvent_t;
typedef struct tlc_stream *cudaStream_t;

extern "C" {
cudaError_t cudaMalloc(void **ptr, size_t bytes);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *ptr, int value, size_t bytes);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t err);
const char *cudaGetErrorName(cudaError_t err);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

/* The block barrier and the warp barrier: context switches (cpu/runtime.cc). */
void __syncthreads(void);
void __syncwarp(unsigned mask = 0xffffffffu);

/* Stops the worker: "not supported in CPU mode: what at file:line". */
[[noreturn]] void tlc_unsupported(const char *what, const char *file, int line);
}

template <class T> inline cudaError_t cudaMalloc(T **ptr, size_t bytes) { return cudaMalloc((void **)ptr, bytes); }

/* Device math the labs call. */
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
inline int __float_as_int(float f) { int i; memcpy(&i, &f, 4); return i; }
inline float __fdividef(float a, float b) { return a / b; }
inline float __saturatef(float a) { return a < 0 ? 0 : a > 1 ? 1 : a; }
template <class T> inline T __ldg(const T *p) { return *p; }
/* A cycle count; only its growth means anything, as on a GPU. */
inline long long clock64() { return (long long)__builtin_ia32_rdtsc(); }

/* ---- the launch and shared memory, as the source step writes them ---- */
namespace tlc {
typedef void (*block_entry)(void *ctx);
/* Runs the whole grid before it returns (a CPU launch is synchronous). */
void run_grid(dim3 grid, dim3 block, size_t dynamic_shared, block_entry entry, void *ctx,
              const char *file, int line);
/* The block's copy of an array: its bytes, alignment, element size and
 * extents (rank 0 to 4), so a report can name an element as tile[3][5]. */
void *shared_static(const void *key, size_t bytes, size_t align, const char *name, const char *file, int line,
                    size_t element = 1, int rank = 0, const size_t *extents = nullptr);
/* `align`: the declaration's own __align__(n), or 0. */
template <class A> A *shared_array(const void *key, const char *name, const char *file, int line, size_t align = 0)
{
    typedef typename std::remove_all_extents<A>::type E;
    static_assert(std::rank<A>::value <= 4, "not supported in CPU mode: a __shared__ array of more than 4 dimensions");
    const size_t extents[4] = {std::extent<A, 0>::value, std::extent<A, 1>::value, std::extent<A, 2>::value,
                               std::extent<A, 3>::value};
    return (A *)shared_static(key, sizeof(A), align > alignof(E) ? align : alignof(E), name, file, line, sizeof(E), (int)std::rank<A>::value, extents);
}
void *shared_dynamic(const char *name, const char *file, int line, size_t element = 1);

template <class... P> struct launcher {
    void (*kernel)(P...);
    dim3 grid, block;
    size_t shared;
    const char *file;
    int line;
    struct ctx_t { void (*k)(P...); std::tuple<P...> args; };
    static void trampoline(void *c)
    {
        ctx_t *x = (ctx_t *)c;
        std::apply(x->k, x->args);
    }
    template <class... A> void operator()(A &&...a) const
    {
        ctx_t ctx{kernel, std::tuple<P...>(a...)};
        run_grid(grid, block, shared, &trampoline, &ctx, file, line);
    }
};

template <class... P> launcher<P...> launch(void (*kernel)(P...), const char *file, int line,
                                            dim3 grid, dim3 block, size_t shared = 0, cudaStream_t = 0)
{
    return launcher<P...>{kernel, grid, block, shared, file, line};
}
} // namespace tlc

/* ---- what CPU mode does not run: stop with the name and the line ---- */
#define TLC_UNSUPPORTED(what) (tlc_unsupported(what, __FILE__, __LINE__), 0)
#define atomicAdd(...) TLC_UNSUPPORTED("atomicAdd")
#define atomicSub(...) TLC_UNSUPPORTED("atomicSub")
#define atomicExch(...) TLC_UNSUPPORTED("atomicExch")
#define atomicMin(...) TLC_UNSUPPORTED("atomicMin")
#define atomicMax(...) TLC_UNSUPPORTED("atomicMax")
#define atomicCAS(...) TLC_UNSUPPORTED("atomicCAS")
#define atomicInc(...) TLC_UNSUPPORTED("atomicInc")
#define atomicAnd(...) TLC_UNSUPPORTED("atomicAnd")
#define atomicOr(...) TLC_UNSUPPORTED("atomicOr")
#define __shfl_sync(...) TLC_UNSUPPORTED("__shfl_sync")
#define __shfl_up_sync(...) TLC_UNSUPPORTED("__shfl_up_sync")
#define __shfl_down_sync(...) TLC_UNSUPPORTED("__shfl_down_sync")
#define __shfl_xor_sync(...) TLC_UNSUPPORTED("__shfl_xor_sync")
#define __ballot_sync(...) TLC_UNSUPPORTED("__ballot_sync")
#define __any_sync(...) TLC_UNSUPPORTED("__any_sync")
#define __all_sync(...) TLC_UNSUPPORTED("__all_sync")
#define __activemask(...) TLC_UNSUPPORTED("__activemask")
#define __threadfence(...) TLC_UNSUPPORTED("__threadfence")
#define __threadfence_block(...) TLC_UNSUPPORTED("__threadfence_block")
#define __syncthreads_count(...) TLC_UNSUPPORTED("__syncthreads_count")
#define __syncthreads_and(...) TLC_UNSUPPORTED("__syncthreads_and")
#define __syncthreads_or(...) TLC_UNSUPPORTED("__syncthreads_or")
#define cudaMallocManaged(...) TLC_UNSUPPORTED("cudaMallocManaged")
#define cudaMallocHost(...) TLC_UNSUPPORTED("cudaMallocHost")
#define cudaMallocPitch(...) TLC_UNSUPPORTED("cudaMallocPitch")
#define cudaMallocAsync(...) TLC_UNSUPPORTED("cudaMallocAsync")
#define cudaMemcpyAsync(...) TLC_UNSUPPORTED("cudaMemcpyAsync")
#define cudaMemcpy2D(...) TLC_UNSUPPORTED("cudaMemcpy2D")
#define cudaMemcpyToSymbol(...) TLC_UNSUPPORTED("cudaMemcpyToSymbol")
#define cudaMemsetAsync(...) TLC_UNSUPPORTED("cudaMemsetAsync")
#define cudaStreamCreate(...) TLC_UNSUPPORTED("cudaStreamCreate")
#define cudaStreamSynchronize(...) TLC_UNSUPPORTED("cudaStreamSynchronize")
#define cudaFuncSetAttribute(...) TLC_UNSUPPORTED("cudaFuncSetAttribute")
#define cudaSetDevice(...) TLC_UNSUPPORTED("cudaSetDevice")
#define cudaGetDeviceProperties(...) TLC_UNSUPPORTED("cudaGetDeviceProperties")
#define cudaDeviceGetAttribute(...) TLC_UNSUPPORTED("cudaDeviceGetAttribute")
#define cudaLaunchKernel(...) TLC_UNSUPPORTED("cudaLaunchKernel")
#define cudaLaunchCooperativeKernel(...) TLC_UNSUPPORTED("cudaLaunchCooperativeKernel")
#define __constant__ static_assert(false, "not supported in CPU mode: __constant__");
#define __managed__ static_assert(false, "not supported in CPU mode: __managed__");

#endif
