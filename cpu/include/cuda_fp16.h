/* cuda_fp16.h in CPU mode: half precision is not emulated. */
#error "not supported in CPU mode: cuda_fp16.h (half precision)"
