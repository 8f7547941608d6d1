/* lab_allocs.c — the lab worker's counted device allocations (see worker.cu).
 * Exported from the lab worker (mk/kit.mk), so the lab library's calls bind
 * here; each forwards to the CUDA runtime's own (RTLD_NEXT). C, not CUDA C:
 * a .cu file may not define the runtime's functions. */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>

unsigned tl_lab_device_allocs;

#define COUNTED(name, params, args)                                   \
    cudaError_t name params                                           \
    {                                                                 \
        static cudaError_t (*real) params;                            \
        if (!real)                                                    \
            *(void **)&real = dlsym(RTLD_NEXT, #name);                \
        tl_lab_device_allocs++;                                       \
        return real ? real args : cudaErrorNotSupported;              \
    }

COUNTED(cudaMalloc, (void **p, size_t n), (p, n))
COUNTED(cudaMallocManaged, (void **p, size_t n, unsigned flags), (p, n, flags))
COUNTED(cudaMallocAsync, (void **p, size_t n, cudaStream_t s), (p, n, s))
COUNTED(cudaMallocPitch, (void **p, size_t *pitch, size_t w, size_t h), (p, pitch, w, h))
COUNTED(cudaMalloc3D, (struct cudaPitchedPtr *p, struct cudaExtent e), (p, e))
COUNTED(cudaMallocArray, (cudaArray_t *a, const struct cudaChannelFormatDesc *d, size_t w, size_t h, unsigned f),
        (a, d, w, h, f))
COUNTED(cudaMalloc3DArray, (cudaArray_t *a, const struct cudaChannelFormatDesc *d, struct cudaExtent e, unsigned f),
        (a, d, e, f))
COUNTED(cudaMallocFromPoolAsync, (void **p, size_t n, cudaMemPool_t pool, cudaStream_t s), (p, n, pool, s))
