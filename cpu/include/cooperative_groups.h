/*
 * cooperative_groups.h — CPU mode's cooperative groups: the thread block
 * and its tiles of 32 lanes or fewer, on the runtime's barriers and warp
 * exchanges (cpu/include/cuda_runtime.h), and the grid of a cooperative
 * launch (this_grid: its sync waits for every thread of every block,
 * cpu/runtime.cc). coalesced_threads is not here: a file that uses it
 * does not build in CPU mode.
 */
#ifndef TILELAB_CPU_COOPERATIVE_GROUPS_H
#define TILELAB_CPU_COOPERATIVE_GROUPS_H

#include <cuda_runtime.h>

namespace cooperative_groups {
namespace details {
inline unsigned block_rank() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
inline unsigned block_size() { return blockDim.x * blockDim.y * blockDim.z; }
/* The lanes of this thread's tile of `size` (a power of 2 up to 32) in its warp. */
inline unsigned tile_mask(unsigned size)
{
    return size >= 32 ? 0xffffffffu : ((1u << size) - 1) << (block_rank() % 32 & ~(size - 1));
}
} // namespace details

/* A group whose size is known when it runs: the block, or a tile of it. */
class thread_group {
  protected:
    unsigned tile_;   /* 0: the whole block */
  public:
    explicit thread_group(unsigned tile = 0) : tile_(tile) {}
    void sync() const
    {
        if (tile_)
            __syncwarp(details::tile_mask(tile_));
        else
            __syncthreads();
    }
    unsigned long long size() const { return tile_ ? tile_ : details::block_size(); }
    unsigned long long num_threads() const { return size(); }
    unsigned long long thread_rank() const { return tile_ ? details::block_rank() % tile_ : details::block_rank(); }
};

class thread_block : public thread_group {
  public:
    thread_block() : thread_group(0) {}
    static void sync() { __syncthreads(); }
    dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_threads() const { return blockDim; }
};
inline thread_block this_thread_block() { return thread_block(); }

/* The whole grid; sync() only in a cooperative launch (cudaLaunchCooperativeKernel). */
class grid_group {
  public:
    static void sync() { ::tlc::grid_sync(); }
    static bool is_valid() { return ::tlc::grid_is_cooperative(); }
    static unsigned long long num_blocks() { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    static unsigned long long block_rank() { return blockIdx.x + gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z); }
    static unsigned long long size() { return num_blocks() * details::block_size(); }
    static unsigned long long num_threads() { return size(); }
    static unsigned long long thread_rank() { return block_rank() * details::block_size() + details::block_rank(); }
    static dim3 group_dim() { return gridDim; }
    static dim3 dim_blocks() { return gridDim; }
    static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};
inline grid_group this_grid() { return grid_group(); }

template <unsigned N> class thread_block_tile : public thread_group {
    static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0,
                  "not supported in CPU mode: a tile other than 1, 2, 4, 8, 16 or 32 threads");
    static unsigned mask() { return details::tile_mask(N); }
  public:
    thread_block_tile() : thread_group(N) {}
    void sync() const { __syncwarp(mask()); }
    static constexpr unsigned long long size() { return N; }
    static constexpr unsigned long long num_threads() { return N; }
    unsigned long long thread_rank() const { return details::block_rank() % N; }
    unsigned long long meta_group_rank() const { return details::block_rank() / N; }
    unsigned long long meta_group_size() const { return (details::block_size() + N - 1) / N; }
    template <class T> T shfl(T var, int src) const { return __shfl_sync(mask(), var, src, N); }
    template <class T> T shfl_up(T var, unsigned delta) const { return __shfl_up_sync(mask(), var, delta, N); }
    template <class T> T shfl_down(T var, unsigned delta) const { return __shfl_down_sync(mask(), var, delta, N); }
    template <class T> T shfl_xor(T var, int lanes) const { return __shfl_xor_sync(mask(), var, lanes, N); }
    /* The ballot in the tile's own lane numbers, as CUDA gives it. */
    unsigned ballot(int predicate) const
    {
        return __ballot_sync(mask(), predicate) >> (details::block_rank() % 32 & ~(N - 1));
    }
    int any(int predicate) const { return __any_sync(mask(), predicate); }
    int all(int predicate) const { return __all_sync(mask(), predicate); }
};

template <unsigned N> thread_block_tile<N> tiled_partition(const thread_block &) { return thread_block_tile<N>(); }
template <unsigned N, unsigned M> thread_block_tile<N> tiled_partition(const thread_block_tile<M> &)
{
    static_assert(N <= M, "a tile of a tile is smaller than it");
    return thread_block_tile<N>();
}
inline thread_group tiled_partition(const thread_group &parent, unsigned size)
{
    if (size == 0 || size > 32 || (size & (size - 1)) || (parent.size() < size))
        tlc_unsupported("tiled_partition into other than 1, 2, 4, 8, 16 or 32 threads", "cooperative_groups.h", 0);
    return thread_group(size);
}

template <class G> void sync(const G &g) { g.sync(); }
template <class G> unsigned long long thread_rank(const G &g) { return g.thread_rank(); }
template <class G> unsigned long long group_size(const G &g) { return g.size(); }
} // namespace cooperative_groups

#endif
