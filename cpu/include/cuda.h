/*
 * cuda.h — CPU mode's driver API header: its types, so a file that includes
 * it (often without calling anything in it) builds; a driver call stops the
 * run with "not supported in CPU mode: cuX at file:line".
 */
#ifndef TILELAB_CPU_CUDA_H
#define TILELAB_CPU_CUDA_H

#include <cuda_runtime.h>

#define CUDA_VERSION 13000
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

#define cuInit(...) TLC_UNSUPPORTED("cuInit")
#define cuDeviceGet(...) TLC_UNSUPPORTED("cuDeviceGet")
#define cuDeviceGetCount(...) TLC_UNSUPPORTED("cuDeviceGetCount")
#define cuDeviceGetAttribute(...) TLC_UNSUPPORTED("cuDeviceGetAttribute")
#define cuCtxCreate(...) TLC_UNSUPPORTED("cuCtxCreate")
#define cuCtxGetCurrent(...) TLC_UNSUPPORTED("cuCtxGetCurrent")
#define cuCtxSynchronize(...) TLC_UNSUPPORTED("cuCtxSynchronize")
#define cuMemAlloc(...) TLC_UNSUPPORTED("cuMemAlloc")
#define cuMemFree(...) TLC_UNSUPPORTED("cuMemFree")
#define cuMemcpyHtoD(...) TLC_UNSUPPORTED("cuMemcpyHtoD")
#define cuMemcpyDtoH(...) TLC_UNSUPPORTED("cuMemcpyDtoH")
#define cuModuleLoad(...) TLC_UNSUPPORTED("cuModuleLoad")
#define cuModuleGetFunction(...) TLC_UNSUPPORTED("cuModuleGetFunction")
#define cuLaunchKernel(...) TLC_UNSUPPORTED("cuLaunchKernel")
#define cuGetErrorName(...) TLC_UNSUPPORTED("cuGetErrorName")
#define cuGetErrorString(...) TLC_UNSUPPORTED("cuGetErrorString")

#endif
