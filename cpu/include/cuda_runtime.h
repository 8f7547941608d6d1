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
#include <utility>
#include <type_traits>

#define TILELAB_CPU 1

/* Qualifiers: a kernel is a plain function; the source step finds __shared__,
 * and device code by this mark (cpu/cudafe.c takes it out). */
#ifdef TLC_SOURCE_STEP
#define __global__ __tlc_device__
#define __device__ __tlc_device__
#else
#define __global__
#define __device__
#endif
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
/* As nvcc's host pass has it; in a __shared__ declaration the source step
 * (cpu/cudafe.c) takes it out and gives the block's copy that alignment. */
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
/* A kernel parameter the GPU keeps in constant memory: here the launch's own copy. */
#define __grid_constant__

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
 * a thread. One copy per OS thread; a block runs on one OS thread only.
 * They live in the worker program (cpu/runtime.cc), whose thread-local block
 * is static: the lab file's library (cpu/cpu.mk) reaches them directly, not
 * through __tls_get_addr. */
#define TLC_WORKER_TLS __attribute__((tls_model("initial-exec")))
extern thread_local TLC_WORKER_TLS uint3 threadIdx, blockIdx;
extern thread_local TLC_WORKER_TLS dim3 blockDim, gridDim;
enum { warpSize = 32 };

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotSupported = 801,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
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

/* ---- the device, as CPU mode answers for it: an H100 SXM's limits (the GPU
 * the kit's thresholds were calibrated on), with the memory cudaMalloc gives
 * here (cpu/runtime.cc). ---- */
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin, sharedMemPerMultiprocessor;
    size_t totalConstMem, memPitch, textureAlignment;
    int regsPerBlock, regsPerMultiprocessor, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
    int major, minor, multiProcessorCount, maxThreadsPerMultiProcessor, maxBlocksPerMultiProcessor;
    int l2CacheSize, persistingL2CacheMaxSize, memoryBusWidth, clockRate, memoryClockRate;
    int concurrentKernels, asyncEngineCount, unifiedAddressing, managedMemory, ECCEnabled, integrated;
    int canMapHostMemory, computeMode, pciBusID, pciDeviceID, pciDomainID, cooperativeLaunch;
};
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMemoryClockRate = 36, cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrMaxBlocksPerMultiprocessor = 106
};
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
/* What cudaFuncAttributePreferredSharedMemoryCarveout takes: a percentage, or one of these. */
enum cudaSharedCarveout { cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100, cudaSharedmemCarveoutMaxL1 = 0 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
extern "C" {
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceReset(void);
/* A launch may use up to `value` bytes of dynamic shared memory from then on
 * (on a GPU: that kernel's launches; CPU mode does not tell kernels apart). */
cudaError_t tlc_func_set_attribute(enum cudaFuncAttribute attr, int value);
/* Blocks of `threads` threads and `dynamic_shared` bytes one SM holds (registers not counted). */
int tlc_blocks_per_sm(int threads, size_t dynamic_shared);
}
template <class T> inline cudaError_t cudaFuncSetAttribute(T *, enum cudaFuncAttribute attr, int value)
{
    return tlc_func_set_attribute(attr, value);
}
template <class T> inline cudaError_t cudaFuncSetCacheConfig(T *, enum cudaFuncCache) { return cudaSuccess; }
template <class T> inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, T *, int threads,
                                                                                    size_t dynamic_shared)
{
    if (!blocks || threads <= 0 || threads > 1024)
        return cudaErrorInvalidValue;
    *blocks = tlc_blocks_per_sm(threads, dynamic_shared);
    return cudaSuccess;
}
template <class T> inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block_size, T *,
                                                                         size_t dynamic_shared = 0, int limit = 0)
{
    if (!min_grid || !block_size)
        return cudaErrorInvalidValue;
    *block_size = limit > 0 && limit < 1024 ? limit : 1024;
    *min_grid = 132 * tlc_blocks_per_sm(*block_size, dynamic_shared);
    return cudaSuccess;
}

template <class T> inline cudaError_t cudaMalloc(T **ptr, size_t bytes) { return cudaMalloc((void **)ptr, bytes); }
template <class T> inline cudaError_t cudaFuncSetSharedMemConfig(T *, int) { return cudaSuccess; }

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
/* A macro, so that the load is counted on the line that makes it. */
#define __ldg(p) (*(p))
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

/* `kernel`: the source step's lambda around the launched kernel. The launch's
 * arguments are taken once; every CUDA thread calls the lambda on them. */
template <class F> struct launcher {
    F kernel;
    dim3 grid, block;
    size_t shared;
    const char *file;
    int line;
    template <class... A> void operator()(A &&...a) const
    {
        typedef std::tuple<typename std::decay<A>::type...> args_t;
        struct ctx_t { const F *k; args_t args; };
        ctx_t ctx{&kernel, args_t(std::forward<A>(a)...)};
        run_grid(grid, block, shared, [](void *c) {
            ctx_t *x = (ctx_t *)c;
            std::apply(*x->k, x->args);
        }, &ctx, file, line);
    }
};

template <class F> launcher<F> launch(F kernel, const char *file, int line, dim3 grid, dim3 block,
                                      size_t shared = 0, cudaStream_t = 0)
{
    return launcher<F>{kernel, grid, block, shared, file, line};
}

/* cudaLaunchKernel(kernel, grid, block, args, shared, stream), as the source
 * step writes it (the kernel's cast to void * dropped): args[i] points at the
 * i-th parameter's value. The launch's error is returned, as on a GPU. */
template <class... P, size_t... I>
inline void launch_unpacked(const char *file, int line, void (*k)(P...), dim3 grid, dim3 block, size_t shared,
                            void **args, std::index_sequence<I...>)
{
    launch([k](auto &&...a) { k(a...); }, file, line, grid, block, shared)(
        *(const typename std::decay<P>::type *)args[I]...);
}
template <class... P>
inline cudaError_t launch_kernel(const char *file, int line, void (*k)(P...), dim3 grid, dim3 block, void **args,
                                 size_t shared = 0, cudaStream_t = 0)
{
    if (sizeof...(P) && !args)
        return cudaErrorInvalidValue;
    launch_unpacked(file, line, k, grid, block, shared, args, std::index_sequence_for<P...>());
    return cudaPeekAtLastError();
}
template <class T>
inline cudaError_t launch_kernel(const char *, int, const T *, dim3, dim3, void **, size_t = 0, cudaStream_t = 0)
{
    static_assert(std::is_function<T>::value,
                  "not supported in CPU mode: cudaLaunchKernel of a pointer that hides the kernel's type "
                  "(pass the kernel itself, or (void *)kernel)");
    return cudaErrorInvalidValue;
}
} // namespace tlc

/* cudaLaunchKernelEx's C++ form: the configuration, the kernel and its arguments.
 * Attributes are accepted and not emulated (a cluster, a priority: one block at a
 * time runs here either way). */
enum cudaLaunchAttributeID { cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeCooperative = 2,
                             cudaLaunchAttributeClusterDimension = 4, cudaLaunchAttributePriority = 8 };
struct cudaLaunchAttributeValue {
    int cooperative, priority;
    struct { unsigned x, y, z; } clusterDim;
};
struct cudaLaunchAttribute { cudaLaunchAttributeID id; cudaLaunchAttributeValue val; };
struct cudaLaunchConfig_t {
    dim3 gridDim, blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned numAttrs;
};
namespace tlc {
template <class... P, class... A>
inline cudaError_t launch_kernel_ex(const char *file, int line, const cudaLaunchConfig_t *config, void (*k)(P...),
                                    A &&...args)
{
    static_assert(sizeof...(P) == sizeof...(A), "cudaLaunchKernelEx: as many arguments as the kernel has parameters");
    if (!config)
        return cudaErrorInvalidValue;
    launch([k](auto &&...a) { k(a...); }, file, line, config->gridDim, config->blockDim, config->dynamicSmemBytes)(
        (typename std::decay<P>::type)std::forward<A>(args)...);
    return cudaPeekAtLastError();
}
} // namespace tlc
#define cudaLaunchKernelEx(...) ::tlc::launch_kernel_ex(__FILE__, __LINE__, __VA_ARGS__)

/* ---- warp shuffles and votes: the lanes of `mask` meet, as on a GPU ---- */
namespace tlc {
enum { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR, VOTE };
/* A shuffle: the value `op` and `arg` pick (width: the lanes of a segment).
 * A vote: the live lanes of mask in the high 32 bits, the ballot in the low. */
unsigned long long warp_exchange(unsigned mask, int op, unsigned long long value, int arg, int width);
template <class T> inline T shuffle(unsigned mask, T var, int op, int arg, int width)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "not supported in CPU mode: a shuffle of a type larger than 8 bytes");
    unsigned long long bits = 0;
    memcpy(&bits, &var, sizeof(T));
    bits = warp_exchange(mask, op, bits, arg, width);
    memcpy(&var, &bits, sizeof(T));
    return var;
}
} // namespace tlc
template <class T> inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize)
{
    return tlc::shuffle(mask, var, tlc::SHFL_IDX, src_lane, width);
}
template <class T> inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize)
{
    return tlc::shuffle(mask, var, tlc::SHFL_UP, (int)delta, width);
}
template <class T> inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize)
{
    return tlc::shuffle(mask, var, tlc::SHFL_DOWN, (int)delta, width);
}
template <class T> inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize)
{
    return tlc::shuffle(mask, var, tlc::SHFL_XOR, lane_mask, width);
}
inline unsigned __ballot_sync(unsigned mask, int predicate)
{
    return (unsigned)tlc::warp_exchange(mask, tlc::VOTE, predicate != 0, 0, 32);
}
inline int __any_sync(unsigned mask, int predicate) { return __ballot_sync(mask, predicate) != 0; }
inline int __all_sync(unsigned mask, int predicate)
{
    unsigned long long v = tlc::warp_exchange(mask, tlc::VOTE, predicate != 0, 0, 32);
    return (unsigned)v == (unsigned)(v >> 32);
}

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
#define cudaMemcpy2D(...) TLC_UNSUPPORTED("cudaMemcpy2D")
#define cudaLaunchCooperativeKernel(...) TLC_UNSUPPORTED("cudaLaunchCooperativeKernel")
#define __managed__ static_assert(false, "not supported in CPU mode: __managed__");

/* ---- streams, asynchronous copies, constant memory, 1-D textures over linear
 * memory: every launch and copy here runs at once and in order, so a stream
 * orders nothing more; __constant__ memory is a variable like __device__'s, a
 * symbol copy a copy into it; a texture object reads the memory it names.
 * Honest course code uses them (tests/submissions/fair/lab1); what they read
 * and write is the file's own business, as on a GPU. ---- */
#define __constant__
struct tlc_stream {
    int id;
};
inline cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    if (!stream)
        return cudaErrorInvalidValue;
    *stream = new tlc_stream{1};
    return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned) { return cudaStreamCreate(stream); }
inline cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    delete stream;
    return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaDeviceSynchronize(); }
inline cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t = 0)
{
    return cudaMemset(ptr, value, bytes);
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind, cudaStream_t = 0)
{
    return cudaMemcpy(dst, src, bytes, kind);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                      enum cudaMemcpyKind = cudaMemcpyHostToDevice)
{
    if (offset > sizeof(T) || count > sizeof(T) - offset || !src)
        return cudaErrorInvalidValue;
    memcpy((char *)const_cast<T *>(&symbol) + offset, src, count);
    return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                        enum cudaMemcpyKind = cudaMemcpyDeviceToHost)
{
    if (offset > sizeof(T) || count > sizeof(T) - offset || !dst)
        return cudaErrorInvalidValue;
    memcpy(dst, (const char *)&symbol + offset, count);
    return cudaSuccess;
}

enum cudaResourceType { cudaResourceTypeArray, cudaResourceTypeMipmappedArray, cudaResourceTypeLinear, cudaResourceTypePitch2D };
enum cudaChannelFormatKind { cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned, cudaChannelFormatKindFloat };
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
enum cudaTextureAddressMode { cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder };
enum cudaTextureFilterMode { cudaFilterModePoint, cudaFilterModeLinear };
struct cudaChannelFormatDesc {
    int x, y, z, w;
    enum cudaChannelFormatKind f;
};
template <class T> inline cudaChannelFormatDesc cudaCreateChannelDesc(void)
{
    return cudaChannelFormatDesc{(int)sizeof(T) * 8, 0, 0, 0,
                                 std::is_floating_point<T>::value ? cudaChannelFormatKindFloat
                                 : std::is_signed<T>::value       ? cudaChannelFormatKindSigned
                                                                  : cudaChannelFormatKindUnsigned};
}
struct cudaResourceDesc {
    enum cudaResourceType resType;
    union {
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width, height, pitchInBytes;
        } pitch2D;
    } res;
};
struct cudaTextureDesc {
    enum cudaTextureAddressMode addressMode[3];
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
};
typedef unsigned long long cudaTextureObject_t;
struct cudaResourceViewDesc;
/* A linear resource only (tex1Dfetch): the object is its memory's address and size. */
struct tlc_texture {
    const char *base;
    size_t bytes;
};
inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t *object, const cudaResourceDesc *resource,
                                           const cudaTextureDesc *texture, const cudaResourceViewDesc *)
{
    if (!object || !resource || !texture)
        return cudaErrorInvalidValue;
    if (resource->resType != cudaResourceTypeLinear || texture->readMode != cudaReadModeElementType)
        tlc_unsupported("a texture other than a linear one read as its elements (tex1Dfetch)", __FILE__, __LINE__);
    *object = (cudaTextureObject_t)(uintptr_t) new tlc_texture{(const char *)resource->res.linear.devPtr,
                                                               resource->res.linear.sizeInBytes};
    return cudaSuccess;
}
inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t object)
{
    delete (tlc_texture *)(uintptr_t)object;
    return cudaSuccess;
}
/* Past the end, a GPU reads zeros. */
template <class T> inline T tex1Dfetch(cudaTextureObject_t object, int i)
{
    const tlc_texture *t = (const tlc_texture *)(uintptr_t)object;
    T value{};
    if (t && i >= 0 && ((size_t)i + 1) * sizeof(T) <= t->bytes)
        value = ((const T *)t->base)[i];
    return value;
}

#endif
