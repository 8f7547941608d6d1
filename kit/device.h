/*
 * device.h — which GPU we are on, for every report, and the one-line
 * "no usable GPU" message.
 */
#ifndef TILELAB_DEVICE_H
#define TILELAB_DEVICE_H

#include <stddef.h>
#include "json.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char name[256];
    int cc_major, cc_minor;
    int sm_count;
    size_t l2_bytes;
    size_t global_bytes;
    int mem_clock_khz;     /* peak memory clock */
    int clock_khz;         /* peak SM clock */
    int bus_width_bits;
    int driver_version;    /* e.g. 13000 for CUDA 13.0 */
    int runtime_version;
} tl_device_info;

/*
 * Select device 0 and describe it. Returns 0, or TL_EXIT_CANNOT_RUN with one
 * line naming the cause and the fix in `why`. Initialises CUDA.
 */
int tl_device_open(tl_device_info *info, char *why, size_t len);

/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, L2 50 MiB, ...)" */
void tl_device_describe(const tl_device_info *d, char *buf, size_t len);
void tl_device_write_json(const tl_device_info *d, tl_json_writer *w, const char *key);

/* Open the device or print `why` and exit TL_EXIT_CANNOT_RUN. */
void tl_device_open_or_exit(tl_device_info *info, const char *program);

#ifdef __cplusplus
}
#endif

#endif
