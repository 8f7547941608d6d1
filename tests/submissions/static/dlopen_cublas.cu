/* Attack: cuBLAS reached through dlopen/dlsym, so no cublas symbol is in the object; inspect must say "calls: dlopen:" and "calls: dlsym:". */
#include "tilelab.h"
#include <dlfcn.h>

typedef int (*create_fn)(void **handle);
typedef int (*geam_fn)(void *handle, int ta, int tb, int m, int n, const float *alpha, const float *a, int lda,
                       const float *beta, const float *b, int ldb, float *c, int ldc);

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    static void *handle;
    void *lib = dlopen("libcublas.so", RTLD_NOW);
    create_fn create = (create_fn)dlsym(lib, "cublasCreate_v2");
    geam_fn geam = (geam_fn)dlsym(lib, "cublasSgeam");
    const float one = 1.0f, zero = 0.0f;
    if (!handle)
        create(&handle);
    geam(handle, 1, 0, rows, cols, &one, in, cols, &zero, out, rows, out, rows);
}
