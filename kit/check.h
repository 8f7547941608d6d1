/*
 * check.h — every CUDA call checked, with file, line, error name and the
 * call's own text (the cuda-samples habit).
 *
 *   CHECK_CUDA(cudaMalloc(&p, n));   // a runtime call
 *   CHECK_LAUNCH();                  // right after a kernel launch
 *
 * On failure the current handler runs: by default it prints one line and
 * exits with status 2 (TL_EXIT_CANNOT_RUN); test processes install a handler
 * that fails the test with the same text instead.
 */
#ifndef TILELAB_CHECK_H
#define TILELAB_CHECK_H

#include <stddef.h>
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TL_EXIT_OK = 0, TL_EXIT_FAILED = 1, TL_EXIT_CANNOT_RUN = 2 };

/* Receives a ready-made message: "file:line: cudaErrorX: text (in `call`). Next: ..." */
typedef void (*tl_cuda_error_handler)(const char *message);
void tl_set_cuda_error_handler(tl_cuda_error_handler handler);

cudaError_t tl_check_cuda(cudaError_t err, const char *call, const char *file, int line);

/* n floats of host memory (n = 0 gives one); when there is none, the
 * handler runs as for a failed CUDA call, naming `what` and the caller. */
float *tl_host_floats(size_t n, const char *what, const char *file, int line);
void *tl_host_zeroed(size_t count, size_t size, const char *what, const char *file, int line);

/* A short next step for a CUDA error a student kernel typically causes. */
const char *tl_cuda_error_hint(cudaError_t err);

#ifdef __cplusplus
}
#endif

#define CHECK_CUDA(call) tl_check_cuda((call), #call, __FILE__, __LINE__)
/* A launch reports configuration errors at once; a faulting kernel reports at the next sync. */
#define CHECK_LAUNCH() tl_check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
/* float *p = HOST_FLOATS(n, "reference"); */
#define HOST_FLOATS(n, what) tl_host_floats((n), "malloc(" what ")", __FILE__, __LINE__)
/* double *d = HOST_ZEROED(n, double, "exact sums"): n zeroed elements; out of memory ends the
 * program through the error handler, as a failed CUDA call does. */
#define HOST_ZEROED(n, type, what) ((type *)tl_host_zeroed((n), sizeof(type), "calloc(" what ")", __FILE__, __LINE__))

#endif
