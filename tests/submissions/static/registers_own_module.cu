/* Attack: the launch function registers a second CUDA module of its own through nvcc's registration entry points (a fat binary kept as data, here a stand-in array; at run time its kernels, TF32 or scratch, would be none the inspector read). nvcc's own registration code calls these; the file's launch may not: inspect must say "calls: __cudaRegisterFatBinary:" (and the others it calls). */
#include "tilelab.h"

extern "C" void **__cudaRegisterFatBinary(void *fatCubin);
extern "C" void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
extern "C" void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                       const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim,
                                       dim3 *gDim, int *wSize);

static const unsigned long long embedded_fatbin[4] = {0x00100001ba55ed50ull, 0, 0, 0};
static struct {
    int magic, version;
    const void *data;
    void *filename;
} wrapper = {0x466243b1, 1, embedded_fatbin, 0};

static void hidden_kernel_stub(void) {}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    static void **handle;
    if (!handle) {
        handle = __cudaRegisterFatBinary(&wrapper);
        __cudaRegisterFunction(handle, (const char *)hidden_kernel_stub, (char *)"hidden", "hidden", -1, 0, 0, 0, 0, 0);
        __cudaRegisterFatBinaryEnd(handle);
    }
    (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}
