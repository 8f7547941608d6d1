/* device.cu — device description and the no-GPU path. */
#include "device.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tl_device_open(tl_device_info *info, char *why, size_t len)
{
    memset(info, 0, sizeof *info);
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        snprintf(why, len, "no usable NVIDIA GPU (%s: %s). Run this on a machine with an NVIDIA GPU "
                 "and its driver: `nvidia-smi` must list a GPU.",
                 err ? cudaGetErrorName(err) : "cudaGetDeviceCount",
                 err ? cudaGetErrorString(err) : "0 devices");
        return TL_EXIT_CANNOT_RUN;
    }
    cudaDeviceProp p;
    err = cudaGetDeviceProperties(&p, 0);
    if (err == cudaSuccess)
        err = cudaSetDevice(0);
    if (err != cudaSuccess) {
        snprintf(why, len, "the GPU cannot be used (%s: %s). Check `nvidia-smi`; another process may hold it "
                 "in exclusive mode.", cudaGetErrorName(err), cudaGetErrorString(err));
        return TL_EXIT_CANNOT_RUN;
    }
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->cc_major = p.major;
    info->cc_minor = p.minor;
    info->sm_count = p.multiProcessorCount;
    info->l2_bytes = (size_t)p.l2CacheSize;
    info->global_bytes = p.totalGlobalMem;
    /* Clock rates left cudaDeviceProp in CUDA 13; the attributes remain. */
    cudaDeviceGetAttribute(&info->mem_clock_khz, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&info->clock_khz, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&info->bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
    return 0;
}

void tl_device_describe(const tl_device_info *d, char *buf, size_t len)
{
    snprintf(buf, len, "%s (sm_%d%d, %d SMs, L2 %.0f MiB, %.1f GiB, memory %d MHz x %d bit, "
             "driver CUDA %d.%d, runtime %d.%d)",
             d->name, d->cc_major, d->cc_minor, d->sm_count, d->l2_bytes / 1048576.0,
             d->global_bytes / 1073741824.0, d->mem_clock_khz / 1000, d->bus_width_bits,
             d->driver_version / 1000, d->driver_version % 1000 / 10,
             d->runtime_version / 1000, d->runtime_version % 1000 / 10);
}

void tl_device_write_json(const tl_device_info *d, tl_json_writer *w, const char *key)
{
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d%d", d->cc_major, d->cc_minor);
    tl_jw_object_begin(w, key);
    tl_jw_string(w, "name", d->name);
    tl_jw_string(w, "arch", arch);
    tl_jw_int(w, "sm_count", d->sm_count);
    tl_jw_int(w, "l2_bytes", (long long)d->l2_bytes);
    tl_jw_int(w, "global_bytes", (long long)d->global_bytes);
    tl_jw_int(w, "memory_clock_khz", d->mem_clock_khz);
    tl_jw_int(w, "bus_width_bits", d->bus_width_bits);
    tl_jw_int(w, "driver_version", d->driver_version);
    tl_jw_int(w, "runtime_version", d->runtime_version);
    tl_jw_object_end(w);
}

void tl_device_open_or_exit(tl_device_info *info, const char *program)
{
    char why[512];
    if (tl_device_open(info, why, sizeof why) != 0) {
        fprintf(stderr, "%s: %s\n", program, why);
        exit(TL_EXIT_CANNOT_RUN);
    }
}
