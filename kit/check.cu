/* check.cu — the CUDA error path behind CHECK_CUDA and CHECK_LAUNCH. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>

static void exit_on_error(const char *message)
{
    fprintf(stderr, "tilelab: %s\n", message);
    exit(TL_EXIT_CANNOT_RUN);
}

static tl_cuda_error_handler current_handler = exit_on_error;

void tl_set_cuda_error_handler(tl_cuda_error_handler handler)
{
    current_handler = handler ? handler : exit_on_error;
}

const char *tl_cuda_error_hint(cudaError_t err)
{
    switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
        return "your kernel read or wrote outside a buffer: check the bounds test and "
               "the index arithmetic (handout: Bounds checks)";
    case cudaErrorInvalidConfiguration:
        return "the launch configuration is invalid: a block holds at most 1024 threads "
               "and every grid dimension must be at least 1 (handout: Threads, blocks and 2D grids)";
    case cudaErrorInvalidValue:
        return "a launch or call received an invalid value: check grid and block sizes";
    case cudaErrorLaunchOutOfResources:
        return "the block asks for more registers or shared memory than one SM has: use smaller blocks";
    case cudaErrorMisalignedAddress:
        return "a vector load or store used an address that is not aligned to its size";
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
        return "run on a machine with an NVIDIA GPU and a driver that supports this CUDA version";
    default:
        return "read the CUDA error text above; run compute-sanitizer on build/<lab> for the faulting line";
    }
}

cudaError_t tl_check_cuda(cudaError_t err, const char *call, const char *file, int line)
{
    if (err == cudaSuccess)
        return err;
    char message[1024];
    snprintf(message, sizeof message, "%s:%d: %s: %s (in `%s`). Next: %s.", file, line,
             cudaGetErrorName(err), cudaGetErrorString(err), call, tl_cuda_error_hint(err));
    current_handler(message);
    return err;
}

void *tl_host_zeroed(size_t count, size_t size, const char *what, const char *file, int line)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        tl_check_cuda(cudaErrorMemoryAllocation, what, file, line);
    return p;
}

float *tl_host_floats(size_t n, const char *what, const char *file, int line)
{
    float *p = (float *)malloc((n ? n : 1) * sizeof(float));
    if (!p)
        tl_check_cuda(cudaErrorMemoryAllocation, what, file, line);
    return p;
}
