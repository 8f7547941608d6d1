/* The primitives alone: the same header in CPU mode. */
#include <cuda_pipeline.h>
