/*
 * runtime.cc — CPU mode: runs a lab file's kernels on the CPU and watches
 * every shared and global access they make.
 *
 * Execution. A launch runs its whole grid before it returns. Blocks are
 * spread over a pool of OS threads (one per core); a block runs on one OS
 * thread, each of its CUDA threads a fiber with its own stack. A fiber runs
 * until it reaches a barrier or ends; the scheduler (run_block) resumes them
 * in thread order (or a seeded shuffle of it), so a run is deterministic. __syncthreads is one switch
 * to the scheduler and one back (tlc_switch, cpu/switch_x86_64.S).
 *
 * Access hooks. The lab file is compiled with -fsanitize=thread and linked
 * without its runtime: the compiler calls __tsan_read4(addr) and friends
 * before each load and store, and this file defines them. The return
 * address of a hook is the access's own instruction, which addr2line turns
 * into the lab file's line (the judge does that, cpu/judge.c).
 *
 * Checks (each reported once per pair of lines, with a count and an example):
 *   races    a shadow word per 4 bytes of shared memory: last writer and
 *            reader with their barrier epoch; two accesses by different
 *            threads in one epoch, one of them a write, are a race (a
 *            __syncwarp between them orders lanes of one warp); a word
 *            accessed in parts (bytes, shorts) is tracked per byte from
 *            then on, so a race needs the bytes to overlap;
 *   barriers all threads waiting must wait at the same __syncthreads, and a
 *            barrier that threads exited without reaching is reported;
 *   bounds   a global access outside every cudaMalloc'd allocation, or a
 *            shared one outside every __shared__ array, stops the launch
 *            with cudaErrorIllegalAddress before it happens;
 *   alignment an access of a type's own size (a float4's 16 bytes, a float2's 8)
 *            at an address that is not a multiple of it stops the launch with
 *            cudaErrorMisalignedAddress, as on a GPU.
 *
 * Counters (when the request asks: the CPU check's counters case). Each thread's accesses are
 * recorded between barriers; the lanes of a warp are grouped by the
 * instruction that issued an access and how many times each lane had run it
 * before (lock-step at memory accesses). A group is one warp-level request:
 * global ones count their distinct 32-byte sectors, shared ones their
 * wavefronts (per phase of 32, 16 or 8 lanes for 4-, 8- or 16-byte
 * accesses: the most distinct 4-byte words any of the 32 banks is asked
 * for; one word read by many lanes is a broadcast). Bank conflicts =
 * wavefronts - requests, as ncu's l1tex__data_bank_conflicts counts them.
 * Per instruction it also keeps requests by their cost and one sample warp,
 * lane by lane, which the report page draws (grader/report_page.c).
 *
 * Branches (when the request asks: lab 7's branches case). A lab file built
 * with -fsanitize-coverage=trace-pc calls __sanitizer_cov_trace_pc at the
 * start of each basic block; each lane folds the blocks it ran into a hash of
 * its path. Wherever a warp's lanes meet (a __syncthreads, a shuffle, a vote,
 * a __syncwarp, the kernel's end) their hashes are compared and reset: lanes
 * that ran different blocks since they last met diverged. Kept per warp and
 * per stretch between barriers: the lowest block's, whole, and every block's
 * count.
 */
#include "cuda_runtime.h"
#include "runtime.h"
#include "protocol.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern "C" void tlc_switch(void **save_sp, void *to_sp);
extern "C" char __executable_start[];

thread_local uint3 threadIdx, blockIdx;
thread_local dim3 blockDim, gridDim;

namespace {

enum { MAX_THREADS = 1024, STACK_BYTES = 128 * 1024, GUARD_BYTES = 4096 };
/* A block's shared memory as an H100's: 48 KiB of static arrays, and with
 * dynamic memory up to 227 KiB once cudaFuncSetAttribute asks for it. */
enum { SHARED_LIMIT = 48 * 1024, SHARED_OPTIN = 227 * 1024, SHARED_ARENA = 256 * 1024, REDZONE = 32 };
enum { READY, WAIT_BLOCK, WAIT_WARP, WAIT_GRID, DONE, ABORTED };
enum : uint16_t { MANY = 0xffff };
enum { REC_WRITE = 1, REC_SHARED = 2 };

uint64_t mix64(uint64_t x)   /* splitmix64 */
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Code addresses as offsets into the file that holds the lab's code: the lab
 * file's library once the worker has mapped it (tlc_set_code), else this
 * program (a lab file linked in, as cpu/bench/ does). */
uintptr_t g_code_lo = (uintptr_t)__executable_start, g_code_hi = UINTPTR_MAX;
uint32_t pc_of(void *ret) { return (uint32_t)((uintptr_t)ret - g_code_lo); }

/* ---- device memory: one reserved region, allocations on page boundaries,
 * an unmapped page after each, never reused in a run ------------------- */
const size_t ARENA_BYTES = (size_t)16 << 30;
/* What cudaMalloc hands out in all: more is cudaErrorMemoryAllocation, as on a
 * full GPU, so a lab file cannot take the machine's memory. */
const size_t ALLOC_LIMIT = (size_t)4 << 30;
size_t g_allocated;
char *g_arena;
size_t g_arena_used;
struct Alloc { uintptr_t lo; size_t size; bool freed; };
std::vector<Alloc> g_allocs;
/* The allocations the worker made for the request's own buffers (tlc_mark_allocations):
 * the report counts the lab file's beyond them (lab 5: in place means none). */
static size_t g_worker_allocs, g_worker_allocated;
cudaError_t g_last_error = cudaSuccess, g_sticky = cudaSuccess;
bool g_counting = true;
bool g_branches;   /* lab 7's branches case: each lane's path hashed (Branches, above) */
unsigned g_pool_threads;
uint32_t g_order;   /* 0: thread order; else the seed of a shuffled order */
size_t g_dynamic_limit = SHARED_LIMIT;   /* raised by cudaFuncSetAttribute */
bool g_cooperative_next;   /* the next launch is a cooperative one (tlc::cooperative_next) */
enum { SM_COUNT = 132 };   /* an H100 SXM's, as cudaGetDeviceProperties says */

/* ---- findings, merged from every OS thread --------------------------- */
struct RaceKey {
    int writes;   /* 1: a read and a write, 2: two writes */
    uint32_t pc1, pc2;
    bool operator<(const RaceKey &o) const
    {
        return writes != o.writes ? writes < o.writes : pc1 != o.pc1 ? pc1 < o.pc1 : pc2 < o.pc2;
    }
};
struct RaceInfo {
    uint64_t count = 0, block = UINT64_MAX;
    unsigned t1 = 0, t2 = 0, offset = 0;
    std::string array;
};
struct BarrierKey {
    int kind;   /* 0: threads wait at different barriers, 1: some exited without reaching it */
    uint32_t pc1, pc2;
    bool operator<(const BarrierKey &o) const
    {
        return kind != o.kind ? kind < o.kind : pc1 != o.pc1 ? pc1 < o.pc1 : pc2 < o.pc2;
    }
};
struct BarrierInfo {
    uint64_t blocks = 0, block = UINT64_MAX;
    unsigned reached = 0, total = 0;
};
/* Lab 7's picture: one warp's stretch between two barriers, uniform or not. */
struct BranchCell {
    uint16_t warp, step;
    uint8_t divergent;
    uint32_t blocks;   /* the most basic blocks a lane of the warp ran in it */
};
enum { BRANCH_STEPS = 256 };   /* the stretches kept of the sampled block */
/* One warp-level request kept whole for the report page (grader/report_page.c):
 * the first the lowest block made at this instruction (deterministic: the
 * counters case runs in thread order). Lanes as byte offsets: global ones from
 * the lowest address rounded down to 128 bytes (sectors stay aligned), shared
 * ones from their array's start (a lane's bank is its offset / 4 % 32). */
struct Sample {
    uint64_t block = UINT64_MAX;
    unsigned warp = 0, size = 0, units = 0, ideal = 0;
    uint32_t mask = 0;
    uint64_t offset[32];
    std::string array;   /* shared: the array, as declared ("tile[32][33]") */
};
enum { HIST = 65 };   /* requests by their sectors or wavefronts: 0..63, and 64 or more */
struct Stat {
    int shared = 0, write = 0;
    uint64_t requests = 0, units = 0, ideal = 0, excess = 0;   /* excess: requests above their own ideal */
    uint64_t lanes = 0;   /* thread-level accesses: the lanes that made each request (ncu: sass_thread_inst_executed) */
    uint64_t hist[HIST] = {0};
    Sample sample;
};
/* One instruction's requests within one kernel (its launch site): the
 * counters judged per kernel (grader/counters.h), so a second kernel cannot
 * dilute the first's. Keyed by (site << 32 | pc). */
struct KernelStat {
    uint64_t requests = 0, units = 0, ideal = 0;
    uint64_t lanes = 0;
};
struct Findings {
    std::map<RaceKey, RaceInfo> races;
    std::map<BarrierKey, BarrierInfo> barriers;
    std::map<uint32_t, Stat> stats;
    std::map<uint64_t, KernelStat> kernel_stats;
    std::vector<BranchCell> branch_cells;   /* block 0's, of the first launch */
    uint64_t warp_steps = 0, divergent_steps = 0;   /* every block's */
    void merge(const Findings &o)
    {
        if (branch_cells.empty())
            branch_cells = o.branch_cells;
        warp_steps += o.warp_steps;
        divergent_steps += o.divergent_steps;
        for (auto &r : o.races) {
            RaceInfo &m = races[r.first];
            m.count += r.second.count;
            if (r.second.block < m.block) {
                uint64_t c = m.count;
                m = r.second;
                m.count = c;
            }
        }
        for (auto &b : o.barriers) {
            BarrierInfo &m = barriers[b.first];
            uint64_t n = m.blocks + b.second.blocks;
            if (b.second.block < m.block)
                m = b.second;
            m.blocks = n;
        }
        for (auto &k : o.kernel_stats) {
            KernelStat &m = kernel_stats[k.first];
            m.requests += k.second.requests;
            m.units += k.second.units;
            m.ideal += k.second.ideal;
            m.lanes += k.second.lanes;
        }
        for (auto &s : o.stats) {
            Stat &m = stats[s.first];
            m.shared = s.second.shared;
            m.write = s.second.write;
            m.requests += s.second.requests;
            m.units += s.second.units;
            m.ideal += s.second.ideal;
            m.excess += s.second.excess;
            m.lanes += s.second.lanes;
            for (int k = 0; k < HIST; k++)
                m.hist[k] += s.second.hist[k];
            if (s.second.sample.block < m.sample.block)
                m.sample = s.second.sample;
        }
    }
};
std::mutex g_mu;
Findings g_findings;
std::string g_fatal;   /* the first out-of-bounds access, or host code touching device memory */
std::map<uint32_t, int> g_host_access;
std::vector<std::string> g_launches;
/* Kernels by launch site ("file:line"), and the one the running grid's blocks belong to. */
std::vector<std::string> g_sites;
uint32_t g_site;

/* 1 when `line` is the run's first fatal finding, the one its launch reports. */
bool fatal_finding(const std::string &line)
{
    std::lock_guard<std::mutex> lock(g_mu);
    if (!g_fatal.empty())
        return false;
    g_fatal = line;
    return true;
}

/* ---- fibers and blocks --------------------------------------------------- */
struct Rec { uintptr_t addr; uint32_t pc; uint8_t size, flags; };
struct Fiber {
    void *sp;
    int state;
    unsigned tid, barriers;
    uint32_t wait_pc;
    uint32_t wait_mask;   /* WAIT_WARP: the lanes it waits for (__syncwarp's mask, a shuffle's) */
    uint64_t exchanged;   /* what it gives a shuffle or a vote of its warp */
    uint64_t path;        /* the basic blocks it ran since its warp last met, hashed (g_branches) */
    uint32_t blocks;      /* how many */
    bool fresh_exit;      /* it ended since its warp last met */
    uint3 idx;
    std::vector<Rec> recs;
};
/* Per 4-byte word of shared memory (and, for a word accessed in parts, per
 * byte: Worker::byte_shadow): its last writer, and its readers since
 * then in this barrier epoch: r_tid one reader or MANY, r_warp their one warp
 * or MANY, r_wep the warp epoch of the latest read; two readers (first,
 * latest other) kept to name in a report. */
struct Shadow {
    uint32_t w_epoch, r_epoch, w_pc, w_wep, r_wep, r_pc[2];
    uint16_t w_tid, r_tid, r_warp, r_who[2];
    uint8_t split;   /* 1: tracked per byte (Worker::byte_shadow) since an access took part of it */
};
struct Array {
    uintptr_t lo, hi;
    const void *key;
    std::string name;
    size_t element = 1;
    int rank = 0;
    size_t extents[4] = {0, 0, 0, 0};
};

/* "tile[3][5]" for the byte at `offset` into the array (its first byte's element). */
std::string element_name(const Array &a, size_t offset)
{
    std::string s = a.name;
    size_t index = offset / a.element;
    char buf[32];
    if (a.rank == 0) {
        if (a.key && a.element > 1 && offset)
            snprintf(buf, sizeof buf, " (byte %zu)", offset), s += buf;
        else if (!a.key)   /* dynamic shared memory: a flat array of its declared type */
            snprintf(buf, sizeof buf, "[%zu]", index), s += buf;
        return s;
    }
    size_t stride[4], total = 1;
    for (int d = a.rank - 1; d >= 0; d--)
        stride[d] = total, total *= a.extents[d];
    for (int d = 0; d < a.rank; d++)
        snprintf(buf, sizeof buf, "[%zu]", index / stride[d] % (d ? a.extents[d] : (size_t)-1)), s += buf;
    return s;
}

struct Job {
    dim3 grid, block;
    size_t dynamic_shared;
    tlc::block_entry entry;
    void *ctx;
    uint64_t nblocks;
    std::atomic<uint64_t> next;
    std::atomic<bool> abort;
    std::atomic<int> error;   /* why it stopped: cudaErrorIllegalAddress, or cudaErrorMisalignedAddress */
    bool cooperative;         /* every block live at once; this_grid().sync() waits for them all */
};
Job g_job;

struct Worker {
    char *stacks;
    Fiber fibers[MAX_THREADS];
    void *sched_sp;
    Fiber *cur = nullptr;
    unsigned nthreads;
    uint64_t block_id;
    /* shared memory: [redzone][dynamic][redzone][array][redzone]... */
    char *sh_region;
    uintptr_t sh_lo, sh_span, sh_base;
    size_t sh_used;
    std::vector<Array> arrays;
    Shadow *shadow;
    Shadow *byte_shadow;   /* 4 per word, used from a word's first access to part of it */
    uint32_t clock = 0, epoch = 0, wep[MAX_THREADS / 32];
    /* g_branches: per warp, whether its lanes diverged in this stretch between
     * barriers and the most blocks a lane ran; the stretch's number. */
    bool wdiv[MAX_THREADS / 32];
    uint32_t wblocks[MAX_THREADS / 32];
    unsigned step = 0;
    bool aborted = false;
    /* The running block's scheduling state, kept here so a block can be
     * parked at a grid barrier and resumed (cooperative launches). */
    bool barrier_reported = false;
    uint64_t rounds = 0;
    uint16_t order[MAX_THREADS];
    Findings found;
    std::unordered_map<uint32_t, uint32_t> occ;

    Worker()
    {
        size_t per = STACK_BYTES + GUARD_BYTES;
        stacks = (char *)mmap(nullptr, per * MAX_THREADS, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        sh_region = (char *)mmap(nullptr, SHARED_ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        shadow = (Shadow *)calloc(SHARED_ARENA / 4, sizeof(Shadow));
        byte_shadow = (Shadow *)calloc(SHARED_ARENA, sizeof(Shadow));   /* its pages mapped as used */
        if (stacks == MAP_FAILED || sh_region == MAP_FAILED || !shadow || !byte_shadow) {
            fprintf(stderr, "CPU mode: no memory for a block's stacks\n");
            for (;;)
                syscall(SYS_exit_group, 2);
        }
        for (int i = 0; i < MAX_THREADS; i++)
            mprotect(stacks + i * per, GUARD_BYTES, PROT_NONE);
        sh_lo = (uintptr_t)sh_region;
        sh_span = SHARED_ARENA;
    }
};
thread_local Worker *W;

/* Shared memory before any thread wrote it: a NaN of its own (TLC_UNWRITTEN_SHARED),
 * so reading it shows in the result, and the CPU check can say where it came from. */
void fill_unwritten(char *p, size_t bytes)
{
    /* 64 bytes a store where it can: every block fills its whole arena when it
     * declares no shared memory, and a word at a time this loop was most of a
     * launch's time (and its speed hung on where the linker put it). */
    uint32_t words[16];
    for (uint32_t &w : words)
        w = TLC_UNWRITTEN_SHARED;
    size_t i = 0;
    for (; i + sizeof words <= bytes; i += sizeof words)
        memcpy(p + i, words, sizeof words);
    for (; i + 4 <= bytes; i += 4)
        memcpy(p + i, words, 4);
}

void fiber_main()
{
    Worker *w = W;
    g_job.entry(g_job.ctx);
    w->cur->state = DONE;
    w->cur->fresh_exit = true;
    tlc_switch(&w->cur->sp, w->sched_sp);
    __builtin_unreachable();
}

void fiber_init(Worker *w, unsigned i)
{
    char *top = w->stacks + (size_t)(i + 1) * (STACK_BYTES + GUARD_BYTES);
    void **sp = (void **)(top - 64);
    for (int r = 0; r < 6; r++)
        sp[r] = nullptr;
    sp[6] = (void *)&fiber_main;
    sp[7] = nullptr;
    Fiber &f = w->fibers[i];
    f.sp = sp;
    f.state = READY;
    f.tid = i;
    f.barriers = 0;
    f.path = 0;
    f.blocks = 0;
    f.fresh_exit = false;
    f.recs.clear();
    unsigned bx = g_job.block.x, by = g_job.block.y;
    f.idx = uint3{i % bx, (i / bx) % by, i / (bx * by)};
}

/* Leaves the running fiber for good: the launch stops here. */
[[noreturn]] void abort_fiber(Worker *w)
{
    w->aborted = true;
    g_job.abort = true;
    w->cur->state = ABORTED;
    tlc_switch(&w->cur->sp, w->sched_sp);
    __builtin_unreachable();
}

std::string block_text(uint64_t b)
{
    char buf[64];
    unsigned gx = g_job.grid.x, gy = g_job.grid.y;
    snprintf(buf, sizeof buf, "%llu,%llu,%llu", (unsigned long long)(b % gx),
             (unsigned long long)(b / gx % gy), (unsigned long long)(b / ((uint64_t)gx * gy)));
    return buf;
}
std::string thread_text(unsigned t)
{
    char buf[48];
    unsigned bx = g_job.block.x, by = g_job.block.y;
    snprintf(buf, sizeof buf, "%u,%u,%u", t % bx, t / bx % by, t / (bx * by));
    return buf;
}

/* ---- counters: one warp's accesses since the last barrier ------------- */
/* The shared array holding `a`, or NULL. */
const Array *array_at(const Worker *w, uintptr_t a)
{
    for (const Array &x : w->arrays)
        if (a >= x.lo && a < x.hi)
            return &x;
    return nullptr;
}

/* An array as declared: "tile[32][33]". */
std::string array_decl(const Array *x)
{
    if (!x)
        return "shared memory";
    std::string s = x->name;
    char buf[32];
    for (int d = 0; d < x->rank; d++)
        snprintf(buf, sizeof buf, "[%zu]", x->extents[d]), s += buf;
    if (!x->key)
        s += "[]";
    return s;
}

/* Sectors (global) or wavefronts (shared) of one request, and its ideal. */
void request_cost(const Rec *const *group, int n, unsigned &units, unsigned &ideal)
{
    const Rec &first = *group[0];
    unsigned size = first.size;
    units = ideal = 0;
    if (!(first.flags & REC_SHARED)) {
        uintptr_t sectors[64];
        int k = 0;
        for (int i = 0; i < n; i++)
            for (uintptr_t x = group[i]->addr >> 5; x <= (group[i]->addr + group[i]->size - 1) >> 5 && k < 64; x++)
                sectors[k++] = x;
        std::sort(sectors, sectors + k);
        units = std::unique(sectors, sectors + k) - sectors;
        /* Ideal: the distinct bytes asked for, in as few sectors as hold them
         * (lanes reading one address are served once). */
        uintptr_t addrs[32];
        for (int i = 0; i < n; i++)
            addrs[i] = group[i]->addr;
        std::sort(addrs, addrs + n);
        ideal = ((std::unique(addrs, addrs + n) - addrs) * size + 31) / 32;
        return;
    }
    /* Shared: 8-byte accesses are served per half warp, 16-byte per quarter. */
    unsigned per_phase = size <= 4 ? 32 : size <= 8 ? 16 : 8;
    for (unsigned phase = 0; phase < 32 / per_phase; phase++) {
        uintptr_t words[128];
        int k = 0;
        for (int i = 0; i < n; i++) {
            const Rec &r = *group[i];
            unsigned lane = r.flags >> 3;
            if (lane / per_phase != phase)
                continue;
            for (uintptr_t x = r.addr >> 2; x <= (r.addr + r.size - 1) >> 2 && k < 128; x++)
                words[k++] = x;
        }
        if (!k)
            continue;
        std::sort(words, words + k);
        k = std::unique(words, words + k) - words;
        int per_bank[32] = {0}, most = 0;
        for (int i = 0; i < k; i++)
            most = std::max(most, ++per_bank[words[i] & 31]);
        units += most;
        ideal += 1;
    }
}

void account(Worker *w, const Rec *const *group, int n, unsigned warp)
{
    const Rec &first = *group[0];
    Stat &s = w->found.stats[first.pc];
    s.shared = (first.flags & REC_SHARED) != 0;
    s.write = (first.flags & REC_WRITE) != 0;
    unsigned units, ideal;
    request_cost(group, n, units, ideal);
    s.requests++;
    s.lanes += n;
    s.units += units;
    s.ideal += ideal;
    KernelStat &k = w->found.kernel_stats[(uint64_t)g_site << 32 | first.pc];
    k.requests++;
    k.lanes += n;
    k.units += units;
    k.ideal += ideal;
    s.excess += units > ideal;
    s.hist[std::min(units, (unsigned)HIST - 1)]++;
    if (w->block_id >= s.sample.block)
        return;
    Sample &m = s.sample;
    m.block = w->block_id, m.warp = warp, m.size = first.size, m.units = units, m.ideal = ideal, m.mask = 0;
    /* Shared: from the array's start, which a GPU places on a bank-0 boundary
     * (a shift of whole words moves every lane's bank alike: conflicts stay). */
    const Array *arr = s.shared ? array_at(w, first.addr) : nullptr;
    uintptr_t lo = UINTPTR_MAX;
    for (int i = 0; i < n; i++)
        lo = std::min(lo, group[i]->addr);
    lo = arr ? arr->lo : lo & ~(uintptr_t)127;
    for (int i = 0; i < n; i++) {
        unsigned lane = group[i]->flags >> 3;
        m.mask |= 1u << lane;
        m.offset[lane] = group[i]->addr - lo;
    }
    m.array = s.shared ? array_decl(arr) : "";
}

void count_warps(Worker *w)
{
    unsigned n = w->nthreads;
    for (unsigned base = 0; base < n; base += 32) {
        unsigned end = std::min(n, base + 32);
        /* Fast path: every lane that accessed memory ran the same instructions. */
        const std::vector<Rec> *tmpl = nullptr;
        bool same = true;
        for (unsigned t = base; t < end && same; t++) {
            const std::vector<Rec> &r = w->fibers[t].recs;
            if (r.empty())
                continue;
            if (!tmpl) {
                tmpl = &r;
                continue;
            }
            if (r.size() != tmpl->size())
                same = false;
            for (size_t i = 0; same && i < r.size(); i++)
                same = r[i].pc == (*tmpl)[i].pc;
        }
        if (!tmpl)
            continue;
        const Rec *group[32];
        if (same) {
            for (size_t i = 0; i < tmpl->size(); i++) {
                int k = 0;
                for (unsigned t = base; t < end; t++)
                    if (!w->fibers[t].recs.empty())
                        group[k++] = &w->fibers[t].recs[i];
                account(w, group, k, base / 32);
            }
        } else {
            struct Key { uint32_t pc, occ, lane; const Rec *r; };
            std::vector<Key> keys;
            for (unsigned t = base; t < end; t++) {
                w->occ.clear();
                for (const Rec &r : w->fibers[t].recs)
                    keys.push_back(Key{r.pc, w->occ[r.pc]++, t - base, &r});
            }
            std::sort(keys.begin(), keys.end(), [](const Key &a, const Key &b) {
                return a.pc != b.pc ? a.pc < b.pc : a.occ != b.occ ? a.occ < b.occ : a.lane < b.lane;
            });
            for (size_t i = 0; i < keys.size();) {
                int k = 0;
                size_t j = i;
                for (; j < keys.size() && keys[j].pc == keys[i].pc && keys[j].occ == keys[i].occ; j++)
                    group[k++] = keys[j].r;
                account(w, group, k, base / 32);
                i = j;
            }
        }
        for (unsigned t = base; t < end; t++)
            w->fibers[t].recs.clear();
    }
}

/* ---- the scheduler --------------------------------------------------------- */
void barrier_finding(Worker *w, int kind, uint32_t pc1, uint32_t pc2, unsigned reached)
{
    BarrierInfo &b = w->found.barriers[BarrierKey{kind, pc1, pc2}];
    b.blocks++;
    if (w->block_id < b.block) {
        b.block = w->block_id;
        b.reached = reached;
        b.total = w->nthreads;
    }
}

/* The lanes of warp `base / 32` meet (g_branches): those `meets` says, and any
 * that ended since the warp last met, compare their paths. */
template <class Meets> void meet(Worker *w, unsigned base, Meets meets)
{
    bool have = false, diverged = false;
    uint64_t first = 0;
    uint32_t most = 0;
    for (unsigned t = base; t < std::min(w->nthreads, base + 32); t++) {
        Fiber &f = w->fibers[t];
        if (f.state == DONE ? !f.fresh_exit : !meets(f))
            continue;
        diverged |= have && f.path != first;
        if (!have)
            first = f.path, have = true;
        most = std::max(most, f.blocks);
        f.path = 0, f.blocks = 0, f.fresh_exit = false;
    }
    w->wdiv[base / 32] |= diverged;
    w->wblocks[base / 32] += most;
}

/* A stretch between barriers ends for every warp of the block: kept. */
void end_step(Worker *w)
{
    for (unsigned base = 0; base < w->nthreads; base += 32) {
        meet(w, base, [](const Fiber &f) { return f.state != DONE; });
        unsigned warp = base / 32;
        if (w->wblocks[warp]) {   /* a warp that ran nothing here (all its lanes ended) is not counted */
            w->found.warp_steps++;
            w->found.divergent_steps += w->wdiv[warp];
            if (w->block_id == 0 && w->step < BRANCH_STEPS)
                w->found.branch_cells.push_back(BranchCell{(uint16_t)warp, (uint16_t)w->step, w->wdiv[warp], w->wblocks[warp]});
        }
        w->wdiv[warp] = false;
        w->wblocks[warp] = 0;
    }
    w->step++;
}

/* A block's grid position as the thread-locals the kernel reads. */
void enter_block(Worker *w, uint64_t b)
{
    dim3 g = g_job.grid;
    blockIdx = uint3{(unsigned)(b % g.x), (unsigned)(b / g.x % g.y), (unsigned)(b / ((uint64_t)g.x * g.y))};
    blockDim = g_job.block;
    gridDim = g;
    w->block_id = b;
    w->nthreads = g_job.block.x * g_job.block.y * g_job.block.z;
}

enum { BLOCK_DONE, BLOCK_AT_GRID_BARRIER };
int schedule_block(Worker *w);

/* Runs block b until it ends, or (a cooperative launch) until all its live threads wait at a grid barrier. */
int run_block(Worker *w, uint64_t b)
{
    enter_block(w, b);
    unsigned n = w->nthreads;
    for (unsigned i = 0; i < n; i++)
        fiber_init(w, i);
    /* Shared memory starts as NaN, so reading what no thread wrote shows in the result. */
    fill_unwritten(w->sh_region, w->sh_used ? w->sh_used : (size_t)SHARED_ARENA);
    w->epoch = ++w->clock;
    for (unsigned i = 0; i < (n + 31) / 32; i++)
        w->wep[i] = ++w->clock, w->wdiv[i] = false, w->wblocks[i] = 0;
    w->step = 0;
    w->barrier_reported = false;
    for (unsigned i = 0; i < n; i++)
        w->order[i] = (uint16_t)i;
    w->rounds = 0;
    return schedule_block(w);
}

int schedule_block(Worker *w)
{
    const uint64_t b = w->block_id;
    const unsigned n = w->nthreads;
    bool &barrier_reported = w->barrier_reported;
    uint16_t *order = w->order;
    uint64_t &rounds = w->rounds;
    for (;;) {
        if (g_order) {   /* a shuffled order, the same for this block and round in every run */
            uint64_t x = ((uint64_t)g_order << 32) ^ (b * 0x9e3779b97f4a7c15ull) ^ rounds++;
            for (unsigned i = n - 1; i > 0; i--) {
                x = mix64(x);
                std::swap(order[i], order[x % (i + 1)]);
            }
        }
        for (unsigned k = 0; k < n; k++) {
            Fiber &f = w->fibers[order[k]];
            if (f.state != READY)
                continue;
            w->cur = &f;
            threadIdx = f.idx;
            tlc_switch(&w->sched_sp, f.sp);
            if (w->aborted) {
                w->cur = nullptr;
                return BLOCK_DONE;
            }
        }
        w->cur = nullptr;
        /* A warp's lanes waiting at __syncwarp (or a shuffle, a vote) go on
         * once every live lane their masks name waits there too; no lane is
         * running now, so one that does not wait never will. */
        bool released = false;
        for (unsigned base = 0; base < n; base += 32) {
            uint32_t live = 0, waiting = 0, wanted = 0;
            for (unsigned t = base; t < std::min(n, base + 32); t++) {
                const Fiber &f = w->fibers[t];
                if (f.state == DONE)
                    continue;
                live |= 1u << (t - base);
                if (f.state == WAIT_WARP)
                    waiting |= 1u << (t - base), wanted |= f.wait_mask;
            }
            if (waiting && !(wanted & live & ~waiting)) {
                if (g_branches)
                    meet(w, base, [](const Fiber &f) { return f.state == WAIT_WARP; });
                for (unsigned t = base; t < std::min(n, base + 32); t++)
                    if (w->fibers[t].state == WAIT_WARP)
                        w->fibers[t].state = READY;
                w->wep[base / 32] = ++w->clock;
                released = true;
            }
        }
        if (released)
            continue;
        unsigned waiting = 0, done = 0, at_grid = 0;
        uint32_t pc = 0, other = 0;
        for (unsigned i = 0; i < n; i++) {
            Fiber &f = w->fibers[i];
            if (f.state == DONE) {
                done++;
                continue;
            }
            waiting++;
            at_grid += f.state == WAIT_GRID;
            if (waiting == 1)
                pc = f.wait_pc;
            else if (f.wait_pc != pc && !other)
                other = f.wait_pc;
        }
        if (!waiting)
            break;
        if (!barrier_reported && other) {
            barrier_finding(w, 0, std::min(pc, other), std::max(pc, other), waiting);
            barrier_reported = true;
        } else if (!barrier_reported && done) {
            barrier_finding(w, 1, pc, 0, waiting);
            barrier_reported = true;
        }
        if (g_counting)
            count_warps(w);
        if (g_branches)
            end_step(w);
        w->epoch = ++w->clock;
        for (unsigned i = 0; i < n; i++)
            if (w->fibers[i].state != DONE) {
                w->fibers[i].state = READY;
                w->fibers[i].barriers++;
            }
        /* Every live thread at a grid barrier (a block barrier too): the block
         * waits there until every block of the grid has come (run_cooperative). */
        if (at_grid == waiting)
            return BLOCK_AT_GRID_BARRIER;
    }
    if (g_counting)
        count_warps(w);
    if (g_branches)
        end_step(w);
    return BLOCK_DONE;
}

/* ---- cooperative launches: every block live at once -------------------------
 * An OS thread runs its blocks (b = its index, plus the pool's size, ...) in
 * turn; a block that reaches a grid barrier is parked: its threads' used
 * stacks (each at its own address, put back there), its shared memory and
 * its scheduling state are copied out, and the next block runs on the same
 * stacks. Once every OS thread has run or parked all its blocks, the grid
 * barrier is passed and the parked blocks resume. */
struct Parked {
    uint64_t block;
    std::vector<Fiber> fibers;
    std::vector<std::vector<char>> stacks;
    std::vector<char> shared;
    std::vector<Array> arrays;
    uintptr_t sh_base;
    size_t sh_used;
    unsigned step;
    bool barrier_reported;
    uint64_t rounds;
    std::vector<uint16_t> order;
};

char *stack_top(Worker *w, unsigned i) { return w->stacks + (size_t)(i + 1) * (STACK_BYTES + GUARD_BYTES); }

void park(Worker *w, Parked &p)
{
    unsigned n = w->nthreads;
    p.block = w->block_id;
    p.fibers.assign(w->fibers, w->fibers + n);
    p.stacks.resize(n);
    for (unsigned i = 0; i < n; i++)
        if (w->fibers[i].state != DONE)
            p.stacks[i].assign((char *)w->fibers[i].sp, stack_top(w, i));
        else
            p.stacks[i].clear();
    p.shared.assign(w->sh_region, w->sh_region + w->sh_used);
    p.arrays = w->arrays;
    p.sh_base = w->sh_base, p.sh_used = w->sh_used, p.step = w->step;
    p.barrier_reported = w->barrier_reported, p.rounds = w->rounds;
    p.order.assign(w->order, w->order + n);
}

void unpark(Worker *w, const Parked &p)
{
    enter_block(w, p.block);
    unsigned n = w->nthreads;
    std::copy(p.fibers.begin(), p.fibers.end(), w->fibers);
    for (unsigned i = 0; i < n; i++)
        if (!p.stacks[i].empty())
            memcpy(stack_top(w, i) - p.stacks[i].size(), p.stacks[i].data(), p.stacks[i].size());
    w->arrays = p.arrays;
    w->sh_base = p.sh_base, w->sh_used = p.sh_used, w->step = p.step;
    memcpy(w->sh_region, p.shared.data(), p.shared.size());
    w->barrier_reported = p.barrier_reported, w->rounds = p.rounds;
    std::copy(p.order.begin(), p.order.end(), w->order);
    /* A new barrier epoch: what other blocks left in the shadow is never this one's. */
    w->epoch = ++w->clock;
    for (unsigned i = 0; i < (n + 31) / 32; i++)
        w->wep[i] = ++w->clock, w->wdiv[i] = false, w->wblocks[i] = 0;
}

std::mutex coop_mu;
std::condition_variable &coop_cv = *new std::condition_variable;
unsigned coop_arrived;
uint64_t coop_gen, coop_sum, coop_total;

/* The pool's OS threads meet; each says how many of its blocks wait at the
 * grid barrier, and each learns how many do in all. */
uint64_t coop_meet(unsigned threads, uint64_t mine)
{
    std::unique_lock<std::mutex> lock(coop_mu);
    uint64_t gen = coop_gen;
    coop_sum += mine;
    if (++coop_arrived == threads) {
        coop_total = coop_sum;
        coop_sum = 0, coop_arrived = 0;
        coop_gen++;
        coop_cv.notify_all();
    } else {
        coop_cv.wait(lock, [&] { return coop_gen != gen; });
    }
    return coop_total;
}

void run_cooperative(Worker *w, unsigned index, unsigned threads)
{
    std::vector<Parked> parked, still;
    for (uint64_t b = index; b < g_job.nblocks && !g_job.abort; b += threads)
        if (run_block(w, b) == BLOCK_AT_GRID_BARRIER && !w->aborted) {
            parked.emplace_back();
            park(w, parked.back());
        }
    while (coop_meet(threads, parked.size()) && !g_job.abort) {
        still.clear();
        for (Parked &p : parked) {
            if (g_job.abort)
                break;
            unpark(w, p);
            if (schedule_block(w) == BLOCK_AT_GRID_BARRIER && !w->aborted) {
                still.emplace_back();
                park(w, still.back());
            }
        }
        parked.swap(still);
        if (g_job.abort)
            parked.clear();
    }
}


/* ---- the pool of OS threads ------------------------------------------------ */
std::mutex pool_mu;
/* Never destroyed: the parked pool threads still wait on them when the process exits. */
std::condition_variable &pool_cv = *new std::condition_variable, &pool_done = *new std::condition_variable;
uint64_t pool_gen;
unsigned pool_busy;
unsigned pool_size;   /* threads started, detached: they park between launches until the process ends */

std::atomic<unsigned> pool_started;

void worker_loop()
{
    const unsigned index = pool_started++;
    W = new Worker();
    /* A stack for signal handlers: a fiber that overflows its own still gets its fault reported. */
    stack_t ss = {malloc(64 * 1024), 0, 64 * 1024};
    sigaltstack(&ss, nullptr);
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(pool_mu);
            pool_cv.wait(lock, [&] { return pool_gen != seen; });
            seen = pool_gen;
        }
        Worker *w = W;
        w->arrays.clear();
        w->sh_used = 0;
        w->aborted = false;
        if (g_job.cooperative)
            run_cooperative(w, index, pool_size);
        else for (;;) {
            if (g_job.abort)
                break;
            uint64_t b = g_job.next++;
            if (b >= g_job.nblocks)
                break;
            run_block(w, b);
            if (w->aborted)
                break;
        }
        {
            std::lock_guard<std::mutex> lock(g_mu);
            g_findings.merge(w->found);
        }
        w->found = Findings();
        std::lock_guard<std::mutex> lock(pool_mu);
        if (--pool_busy == 0)
            pool_done.notify_all();
    }
}

/* ---- access hooks ---------------------------------------------------------- */
void shared_access(Worker *w, uintptr_t a, unsigned size, bool write, uint32_t pc, bool atomic = false)
{
    Fiber *f = w->cur;
    const Array *arr = nullptr;
    for (const Array &x : w->arrays)
        if (a >= x.lo && a + size <= x.hi) {
            arr = &x;
            break;
        }
    if (!arr) {
        char buf[256];
        const Array *near = nullptr;
        for (const Array &x : w->arrays)
            if (x.hi > x.lo && (!near || (a >= x.lo && x.lo > near->lo)))
                near = &x;
        snprintf(buf, sizeof buf, "oob\tshared\t%s\t%x\t%u\t%s%+lld bytes\tblock %s thread %s",
                 write ? "write" : "read", pc, size, near ? near->name.c_str() : "shared memory",
                 near ? (long long)(a - near->lo) : 0LL, block_text(w->block_id).c_str(),
                 thread_text(f->tid).c_str());
        fatal_finding(buf);
        abort_fiber(w);
    }
    if (atomic)   /* left out of the race check and the counters (cuda_runtime.h's atomics) */
        return;
    uint16_t tid = (uint16_t)f->tid;
    unsigned warp = f->tid / 32;
    uint32_t ep = w->epoch, wep = w->wep[warp];
    /* A __syncwarp of this warp since: lanes of one warp are ordered by it. */
    auto ordered = [&](uint16_t other_warp, uint32_t other_wep) {
        return other_warp == warp && other_wep != wep;
    };
    /* One shadow checked and updated: a word's, or one byte's of a split word;
     * `at` is its first byte's offset from sh_base. */
    auto track = [&](Shadow &s, uintptr_t at) __attribute__((always_inline)) {
        uint32_t prior_pc = 0;
        unsigned prior_tid = 0;
        int writes = 0;
        bool readers_ordered = s.r_epoch != ep || ordered(s.r_warp, s.r_wep);
        if (s.w_epoch == ep && s.w_tid != tid && !ordered(s.w_tid / 32, s.w_wep)) {
            prior_pc = s.w_pc, prior_tid = s.w_tid, writes = write ? 2 : 1;
        } else if (write && !readers_ordered && s.r_tid != tid) {
            int k = s.r_who[0] == tid;   /* a reader that is not this thread */
            prior_pc = s.r_pc[k], prior_tid = s.r_who[k], writes = 1;
        }
        if (writes) {
            RaceKey key{writes, std::min(prior_pc, pc), std::max(prior_pc, pc)};
            RaceInfo &r = w->found.races[key];
            if (r.count++ == 0 || w->block_id < r.block) {
                r.block = w->block_id;
                r.t1 = prior_tid;
                r.t2 = tid;
                r.offset = (unsigned)(at + w->sh_base - arr->lo);
                r.array = element_name(*arr, r.offset);
            }
        }
        if (write) {
            s.w_epoch = ep, s.w_tid = tid, s.w_pc = pc, s.w_wep = wep;
        } else if (readers_ordered) {   /* the first reader since the write, or since a __syncwarp */
            s.r_epoch = ep, s.r_tid = tid, s.r_warp = (uint16_t)warp, s.r_wep = wep;
            s.r_who[0] = s.r_who[1] = tid, s.r_pc[0] = s.r_pc[1] = pc;
        } else {
            if (s.r_tid != tid)
                s.r_tid = MANY, s.r_who[1] = tid, s.r_pc[1] = pc;
            if (s.r_warp != warp)
                s.r_warp = MANY;
            s.r_wep = wep;
        }
    };
    const uintptr_t lo = a - w->sh_base, hi = lo + size;   /* the bytes [lo, hi) */
    for (uintptr_t word = lo >> 2; word <= (hi - 1) >> 2; word++) {
        Shadow &s = w->shadow[word];
        const uintptr_t b0 = word * 4;
        if (!s.split && lo <= b0 && b0 + 4 <= hi) {   /* a whole word, as the labs' floats are */
            track(s, b0);
            continue;
        }
        /* Part of a word (a byte, a short), or a word some access split before:
         * byte by byte from here on, so threads storing different bytes of
         * one word do not race; each byte starts with the word's history. */
        Shadow *bytes = &w->byte_shadow[b0];
        if (!s.split) {
            s.split = 1;
            for (int i = 0; i < 4; i++)
                bytes[i] = s;
        }
        for (uintptr_t b = std::max(lo, b0); b < std::min(hi, b0 + 4); b++)
            track(bytes[b - b0], b);
    }
    if (g_counting)
        f->recs.push_back(Rec{a, pc, (uint8_t)size, (uint8_t)(REC_SHARED | (write ? REC_WRITE : 0) | ((f->tid % 32) << 3))});
}

const Alloc *find_alloc(uintptr_t a)
{
    auto it = std::upper_bound(g_allocs.begin(), g_allocs.end(), a,
                               [](uintptr_t x, const Alloc &al) { return x < al.lo; });
    if (it == g_allocs.begin())
        return nullptr;
    return &*(it - 1);
}

void global_access(Worker *w, uintptr_t a, unsigned size, bool write, uint32_t pc, bool atomic = false)
{
    Fiber *f = w->cur;
    const Alloc *al = find_alloc(a);
    if (!al || al->freed || a + size > al->lo + al->size) {
        char buf[256];
        if (al && al->freed)
            snprintf(buf, sizeof buf, "oob\tglobal\t%s\t%x\t%u\tfreed memory\tblock %s thread %s",
                     write ? "write" : "read", pc, size, block_text(w->block_id).c_str(), thread_text(f->tid).c_str());
        else if (al)
            snprintf(buf, sizeof buf, "oob\tglobal\t%s\t%x\t%u\t%llu bytes past the end of a %zu-byte allocation\tblock %s thread %s",
                     write ? "write" : "read", pc, size, (unsigned long long)(a + size - al->lo - al->size),
                     al->size, block_text(w->block_id).c_str(), thread_text(f->tid).c_str());
        else
            snprintf(buf, sizeof buf, "oob\tglobal\t%s\t%x\t%u\tbefore the first allocation\tblock %s thread %s",
                     write ? "write" : "read", pc, size, block_text(w->block_id).c_str(), thread_text(f->tid).c_str());
        fatal_finding(buf);
        abort_fiber(w);
    }
    if (g_counting && !atomic)
        f->recs.push_back(Rec{a, pc, (uint8_t)size, (uint8_t)((write ? REC_WRITE : 0) | ((f->tid % 32) << 3))});
}

/* An access the compiler issued as its type's own (float4: 16 bytes, float2
 * or double: 8), at an address that is not a multiple of its size: the GPU
 * stops the kernel with cudaErrorMisalignedAddress, so CPU mode does too,
 * before it happens. Only the typed hooks ask (__tsan_read16, not
 * __tsan_unaligned_read16): the compiler calls the unaligned ones where the
 * type promises no alignment (a struct of floats copied whole), which a
 * GPU would load piece by piece. */
[[noreturn]] void misaligned_access(Worker *w, uintptr_t a, unsigned size, bool write, uint32_t pc, bool shared)
{
    char buf[256];
    snprintf(buf, sizeof buf, "misaligned\t%s\t%s\t%x\t%u\t%u bytes past a %u-byte boundary\tblock %s thread %s",
             shared ? "shared" : "global", write ? "write" : "read", pc, size, (unsigned)(a % size), size,
             block_text(w->block_id).c_str(), thread_text(w->cur->tid).c_str());
    if (fatal_finding(buf))
        g_job.error = cudaErrorMisalignedAddress;
    abort_fiber(w);
}

inline void on_access(void *addr, unsigned size, bool write, void *ret, bool typed = false, bool atomic = false)
{
    uintptr_t a = (uintptr_t)addr;
    Worker *w = W;
    if (w && w->cur) {
        bool shared = a - w->sh_lo < w->sh_span;
        if (typed && size > 1 && a % size && (shared || a - (uintptr_t)g_arena < ARENA_BYTES))
            misaligned_access(w, a, size, write, pc_of(ret), shared);
        if (shared)
            shared_access(w, a, size, write, pc_of(ret), atomic);
        else if (a - (uintptr_t)g_arena < ARENA_BYTES)
            global_access(w, a, size, write, pc_of(ret), atomic);
    } else if (!w && a - (uintptr_t)g_arena < ARENA_BYTES) {
        std::lock_guard<std::mutex> lock(g_mu);
        g_host_access[pc_of(ret)] |= write ? 2 : 1;
    }
}

} // namespace

/* ---- the hooks the compiler calls (-fsanitize=thread) --------------------- */
#define TLC_HOOK(n)                                                                                     \
    extern "C" void __tsan_read##n(void *a) { on_access(a, n, false, __builtin_return_address(0), true); }     \
    extern "C" void __tsan_write##n(void *a) { on_access(a, n, true, __builtin_return_address(0), true); }     \
    extern "C" void __tsan_unaligned_read##n(void *a) { on_access(a, n, false, __builtin_return_address(0)); } \
    extern "C" void __tsan_unaligned_write##n(void *a) { on_access(a, n, true, __builtin_return_address(0)); } \
    extern "C" void __tsan_volatile_read##n(void *a) { on_access(a, n, false, __builtin_return_address(0)); }  \
    extern "C" void __tsan_volatile_write##n(void *a) { on_access(a, n, true, __builtin_return_address(0)); }
TLC_HOOK(1)
TLC_HOOK(2)
TLC_HOOK(4)
TLC_HOOK(8)
TLC_HOOK(16)
extern "C" void __tsan_read_range(void *a, size_t n) { on_access(a, (unsigned)std::min<size_t>(n, 255), false, __builtin_return_address(0)); }
extern "C" void __tsan_write_range(void *a, size_t n) { on_access(a, (unsigned)std::min<size_t>(n, 255), true, __builtin_return_address(0)); }
/* -fsanitize-coverage=trace-pc (lab 7's files): a basic block starts. Its
 * return address names the block; the lane folds it into its path. */
extern "C" void __sanitizer_cov_trace_pc(void)
{
    if (!g_branches)
        return;
    Worker *w = W;
    if (!w || !w->cur)
        return;
    Fiber *f = w->cur;
    f->path = (f->path ^ pc_of(__builtin_return_address(0))) * 0x100000001b3ull;   /* FNV-1a's step: order counts */
    f->blocks++;
}
extern "C" void __tsan_init(void) {}
extern "C" void __tsan_func_entry(void *) {}
extern "C" void __tsan_func_exit(void) {}
extern "C" void __tsan_vptr_update(void **, void *) {}
extern "C" void __tsan_vptr_read(void **) {}
extern "C" void __tsan_ignore_thread_begin(void) {}
extern "C" void __tsan_ignore_thread_end(void) {}

/* ---- launches and shared memory (what cudafe's rewrites call) ------------- */
void tlc::run_grid(dim3 grid, dim3 block, size_t dynamic_shared, block_entry entry, void *ctx,
                   const char *file, int line)
{
    if (W)
        tlc_unsupported("a kernel launch inside a kernel", file, line);
    char buf[512];
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    uint64_t nblocks = (uint64_t)grid.x * grid.y * grid.z;
    bool bad = threads == 0 || threads > MAX_THREADS || block.z > 64 ||
               grid.y > 65535 || grid.z > 65535 || grid.x > 0x7fffffffu;
    /* An empty grid, or more dynamic shared memory than the kernel may have
     * (48 KiB, or what cudaFuncSetAttribute allowed): the GPU refuses the
     * launch with cudaErrorInvalidValue (an empty grid so on an H200, CUDA 13). */
    cudaError_t refused = bad ? cudaErrorInvalidConfiguration
                          : nblocks == 0 || dynamic_shared > g_dynamic_limit ? cudaErrorInvalidValue : cudaSuccess;
    /* A cooperative grid must fit on the device at once: as many blocks as its
     * SMs hold, by the limits CPU mode reports (cudaOccupancy...). */
    bool cooperative = g_cooperative_next;
    g_cooperative_next = false;
    if (!refused && cooperative && nblocks > (uint64_t)SM_COUNT * tlc_blocks_per_sm((int)threads, dynamic_shared))
        refused = cudaErrorCooperativeLaunchTooLarge;
    snprintf(buf, sizeof buf, "launch\t%s\t%d\t%u,%u,%u\t%u,%u,%u\t%s", file, line, grid.x, grid.y, grid.z,
             block.x, block.y, block.z, cudaGetErrorName(refused));
    {
        std::lock_guard<std::mutex> lock(g_mu);
        if (g_launches.size() < 64)
            g_launches.push_back(buf);
    }
    if (g_sticky)
        return;
    if (refused) {
        g_last_error = refused;
        return;
    }
    if (!pool_size)
        tlc_start();
    {   /* the kernel this grid's requests count for (no block runs yet) */
        std::lock_guard<std::mutex> lock(g_mu);
        char site[512];
        snprintf(site, sizeof site, "%s:%d", file, line);
        size_t i = 0;
        while (i < g_sites.size() && g_sites[i] != site)
            i++;
        if (i == g_sites.size())
            g_sites.push_back(site);
        g_site = (uint32_t)i;
    }
    g_job.grid = grid;
    g_job.block = block;
    g_job.dynamic_shared = dynamic_shared;
    g_job.entry = entry;
    g_job.ctx = ctx;
    g_job.nblocks = nblocks;
    g_job.next = 0;
    g_job.abort = false;
    g_job.error = cudaErrorIllegalAddress;
    g_job.cooperative = cooperative;
    {
        std::unique_lock<std::mutex> lock(pool_mu);
        pool_busy = pool_size;
        pool_gen++;
        pool_cv.notify_all();
        pool_done.wait(lock, [] { return pool_busy == 0; });
    }
    if (g_job.abort)
        g_last_error = g_sticky = (cudaError_t)g_job.error.load();
}

/* The block's copy of the array declared at `key`: laid out by the first
 * thread that reaches the declaration, found again by every other. */
void *tlc::shared_static(const void *key, size_t bytes, size_t align, const char *name, const char *file, int line,
                         size_t element, int rank, const size_t *extents)
{
    Worker *w = W;
    if (!w || !w->cur)
        tlc_unsupported("__shared__ outside a kernel", file, line);
    for (const Array &a : w->arrays)
        if (a.key == key)
            return (void *)a.lo;
    if (w->arrays.empty()) {   /* the dynamic part comes first */
        w->sh_base = (uintptr_t)w->sh_region + REDZONE;
        w->arrays.push_back(Array{w->sh_base, w->sh_base + g_job.dynamic_shared, nullptr, "dynamic shared memory"});
        w->sh_used = REDZONE + g_job.dynamic_shared + REDZONE;
    }
    align = std::max<size_t>(align, 16);
    size_t off = (w->sh_used + align - 1) / align * align;
    size_t declared = bytes + g_job.dynamic_shared;
    for (const Array &x : w->arrays)
        declared += x.key ? x.hi - x.lo : 0;
    if (declared - g_job.dynamic_shared > SHARED_LIMIT)
        tlc_unsupported("more than 48 KiB of static shared memory in one block", file, line);
    if (declared > SHARED_OPTIN || off + bytes + REDZONE > SHARED_ARENA)
        tlc_unsupported("more than 227 KiB of shared memory in one block", file, line);
    uintptr_t lo = (uintptr_t)w->sh_region + off;
    Array arr{lo, lo + bytes, key, name};
    arr.element = element ? element : 1;
    arr.rank = rank;
    for (int d = 0; d < rank && d < 4; d++)
        arr.extents[d] = extents[d];
    w->arrays.push_back(arr);
    w->sh_used = off + bytes + REDZONE;
    fill_unwritten((char *)lo, bytes);
    return (void *)lo;
}

void *tlc::shared_dynamic(const char *name, const char *file, int line, size_t element)
{
    Worker *w = W;
    if (!w || !w->cur)
        tlc_unsupported("extern __shared__ outside a kernel", file, line);
    if (w->arrays.empty())
        shared_static(&w->arrays, 0, 16, "(start)", file, line);
    w->arrays[0].name = name;
    w->arrays[0].element = element ? element : 1;
    return (void *)w->arrays[0].lo;
}

extern "C" void __syncthreads(void)
{
    Worker *w = W;
    if (!w || !w->cur)
        tlc_unsupported("__syncthreads outside a kernel", "?", 0);
    Fiber *f = w->cur;
    f->wait_pc = pc_of(__builtin_return_address(0));
    f->state = WAIT_BLOCK;
    tlc_switch(&f->sp, w->sched_sp);
}

void tlc::cooperative_next() { g_cooperative_next = true; }
bool tlc::grid_is_cooperative() { return W && W->cur && g_job.cooperative; }

/* this_grid().sync(): this thread waits until every thread of every block of
 * the grid has come (run_cooperative). Only a cooperative launch has its
 * blocks all live: elsewhere a GPU cannot keep the promise either. */
void tlc::grid_sync()
{
    Worker *w = W;
    if (!w || !w->cur)
        tlc_unsupported("a grid sync outside a kernel", "?", 0);
    if (!g_job.cooperative)
        tlc_unsupported("this_grid().sync() in a kernel not launched with cudaLaunchCooperativeKernel "
                        "(its blocks are not all live at once)", "?", 0);
    Fiber *f = w->cur;
    f->wait_pc = pc_of(__builtin_return_address(0));
    f->state = WAIT_GRID;
    tlc_switch(&f->sp, w->sched_sp);
}

/* Waits until every live lane of `mask` in this warp waits too (run_block). */
static void warp_wait(Worker *w, unsigned mask, uint32_t pc)
{
    Fiber *f = w->cur;
    f->wait_pc = pc;
    f->wait_mask = mask | 1u << (f->tid % 32);
    f->state = WAIT_WARP;
    tlc_switch(&f->sp, w->sched_sp);
}

extern "C" void __syncwarp(unsigned mask)
{
    Worker *w = W;
    if (!w || !w->cur)
        tlc_unsupported("__syncwarp outside a kernel", "?", 0);
    warp_wait(w, mask, pc_of(__builtin_return_address(0)));
}

/* A shuffle or a vote: every lane of `mask` gives `value`, waits for the
 * others, takes what its op says, and waits again before a lane may give
 * the next. A lane that is not live (exited, or past the block's end)
 * gives nothing: a shuffle from it returns the lane's own value. */
unsigned long long tlc::warp_exchange(unsigned mask, int op, unsigned long long value, int arg, int width)
{
    Worker *w = W;
    if (!w || !w->cur)
        tlc_unsupported(op == VOTE ? "a warp vote outside a kernel" : "a warp shuffle outside a kernel", "?", 0);
    if (width < 1 || width > 32 || (width & (width - 1)))
        width = 32;   /* the GPU's answer to a width that is not a power of 2 is undefined */
    uint32_t pc = pc_of(__builtin_return_address(0));
    Fiber *f = w->cur;
    f->exchanged = value;
    warp_wait(w, mask, pc);
    unsigned lane = f->tid % 32, base = f->tid - lane;
    uint32_t live = 0;
    for (unsigned t = base; t < std::min(w->nthreads, base + 32); t++)
        if (w->fibers[t].state != DONE)
            live |= 1u << (t - base);
    unsigned long long got = value;
    if (op == VOTE) {
        uint32_t ballot = 0;
        for (unsigned l = 0; l < 32; l++)
            if ((mask & live) >> l & 1 && w->fibers[base + l].exchanged)
                ballot |= 1u << l;
        got = (unsigned long long)(mask & live) << 32 | ballot;
    } else {
        unsigned first = lane & ~(unsigned)(width - 1), last = first + width - 1, src = lane;
        switch (op) {
        case SHFL_IDX: src = first + ((unsigned)arg & (width - 1)); break;
        case SHFL_UP: src = lane - first >= (unsigned)arg ? lane - arg : lane; break;
        case SHFL_DOWN: src = lane + (unsigned)arg <= last ? lane + arg : lane; break;
        case SHFL_XOR: src = (lane ^ (unsigned)arg) <= last ? lane ^ (unsigned)arg : lane; break;
        }
        if (src < 32 && live >> src & 1)
            got = w->fibers[base + src].exchanged;
    }
    warp_wait(w, mask, pc);
    return got;
}

/* ---- atomics: checked as a write of their size where the caller made them,
 * then done with the host's atomics (blocks run on several OS threads) ---- */
namespace {
template <class T> inline T *atomic_at(T *address, void *ret)
{
    on_access(address, sizeof(T), true, ret, true, true);
    return address;
}
/* A read-modify-write the host has no instruction for: a compare-and-swap loop on the bits. */
template <class T, class F> inline T atomic_update(T *p, F next)
{
    typedef typename std::conditional<sizeof(T) == 8, uint64_t,
            typename std::conditional<sizeof(T) == 4, uint32_t, uint16_t>::type>::type Bits;
    Bits *b = (Bits *)p, seen = __atomic_load_n(b, __ATOMIC_RELAXED);
    for (;;) {
        T old, now;
        memcpy(&old, &seen, sizeof old);
        now = next(old);
        Bits want;
        memcpy(&want, &now, sizeof want);
        if (__atomic_compare_exchange_n(b, &seen, want, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            return old;
    }
}
} // namespace
#define TLC_RET __builtin_return_address(0)
#define TLC_FETCH(name, T, builtin) \
    T name(T *address, T val) { return builtin(atomic_at(address, TLC_RET), val, __ATOMIC_SEQ_CST); }
#define TLC_UPDATE(name, T, expr) \
    T name(T *address, T val) { return atomic_update(atomic_at(address, TLC_RET), [val](T old) { return (T)(expr); }); }
TLC_FETCH(atomicAdd, int, __atomic_fetch_add)
TLC_FETCH(atomicAdd, unsigned, __atomic_fetch_add)
TLC_FETCH(atomicAdd, unsigned long long, __atomic_fetch_add)
TLC_UPDATE(atomicAdd, float, old + val)
TLC_UPDATE(atomicAdd, double, old + val)
TLC_FETCH(atomicSub, int, __atomic_fetch_sub)
TLC_FETCH(atomicSub, unsigned, __atomic_fetch_sub)
TLC_FETCH(atomicExch, int, __atomic_exchange_n)
TLC_FETCH(atomicExch, unsigned, __atomic_exchange_n)
TLC_FETCH(atomicExch, unsigned long long, __atomic_exchange_n)
TLC_UPDATE(atomicExch, float, val)
TLC_UPDATE(atomicMin, int, old < val ? old : val)
TLC_UPDATE(atomicMin, unsigned, old < val ? old : val)
TLC_UPDATE(atomicMin, long long, old < val ? old : val)
TLC_UPDATE(atomicMin, unsigned long long, old < val ? old : val)
TLC_UPDATE(atomicMax, int, old > val ? old : val)
TLC_UPDATE(atomicMax, unsigned, old > val ? old : val)
TLC_UPDATE(atomicMax, long long, old > val ? old : val)
TLC_UPDATE(atomicMax, unsigned long long, old > val ? old : val)
/* As CUDA defines them: Inc wraps to 0 past val, Dec to val below 0 or above val. */
TLC_UPDATE(atomicInc, unsigned, old >= val ? 0u : old + 1)
TLC_UPDATE(atomicDec, unsigned, old == 0 || old > val ? val : old - 1)
TLC_FETCH(atomicAnd, int, __atomic_fetch_and)
TLC_FETCH(atomicAnd, unsigned, __atomic_fetch_and)
TLC_FETCH(atomicAnd, unsigned long long, __atomic_fetch_and)
TLC_FETCH(atomicOr, int, __atomic_fetch_or)
TLC_FETCH(atomicOr, unsigned, __atomic_fetch_or)
TLC_FETCH(atomicOr, unsigned long long, __atomic_fetch_or)
TLC_FETCH(atomicXor, int, __atomic_fetch_xor)
TLC_FETCH(atomicXor, unsigned, __atomic_fetch_xor)
TLC_FETCH(atomicXor, unsigned long long, __atomic_fetch_xor)
#define TLC_CAS(T) \
    T atomicCAS(T *address, T compare, T val) \
    { \
        __atomic_compare_exchange_n(atomic_at(address, TLC_RET), &compare, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        return compare; \
    }
TLC_CAS(unsigned short)
TLC_CAS(int)
TLC_CAS(unsigned)
TLC_CAS(unsigned long long)
#undef TLC_CAS
#undef TLC_UPDATE
#undef TLC_FETCH
#undef TLC_RET
extern "C" void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" void __threadfence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

extern "C" [[noreturn]] void tlc_unsupported(const char *what, const char *file, int line)
{
    if (line > 0)
        fprintf(stderr, "not supported in CPU mode: %s at %s:%d\n", what, file, line);
    else
        fprintf(stderr, "not supported in CPU mode: %s\n", what);
    fflush(stderr);
    /* The runtime's own end, not _exit: the worker binds that to kit/lab_exits.c once the
     * lab file is mapped, which would report it as the file's own exit. */
    for (;;)
        syscall(SYS_exit_group, TLC_EXIT_UNSUPPORTED);
}

/* ---- the CUDA runtime calls ------------------------------------------------ */
static bool device_range(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    const Alloc *al = find_alloc(a);
    return al && !al->freed && a + n <= al->lo + al->size && a >= al->lo;
}

static cudaError_t fail(cudaError_t e)
{
    g_last_error = e;
    return e;
}

extern "C" cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    if (g_sticky)
        return g_sticky;
    if (!g_arena) {
        g_arena = (char *)mmap(nullptr, ARENA_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (g_arena == MAP_FAILED) {
            g_arena = nullptr;
            return fail(cudaErrorMemoryAllocation);
        }
    }
    size_t page = 4096, span = (std::max<size_t>(bytes, 1) + page - 1) / page * page;
    if (g_arena_used + span + page > ARENA_BYTES || g_allocated + span > ALLOC_LIMIT ||
        mprotect(g_arena + g_arena_used, span, PROT_READ | PROT_WRITE) != 0)
        return fail(cudaErrorMemoryAllocation);
    char *p = g_arena + g_arena_used;
    g_allocs.push_back(Alloc{(uintptr_t)p, bytes, false});
    g_arena_used += span + page;   /* an unmapped page after each allocation */
    g_allocated += span;
    *ptr = p;
    return cudaSuccess;
}

extern "C" cudaError_t cudaFree(void *ptr)
{
    if (!ptr)
        return cudaSuccess;
    for (Alloc &a : g_allocs)
        if (a.lo == (uintptr_t)ptr && !a.freed) {
            a.freed = true;
            mprotect(ptr, (std::max<size_t>(a.size, 1) + 4095) / 4096 * 4096, PROT_NONE);
            return g_sticky ? g_sticky : cudaSuccess;
        }
    return fail(cudaErrorInvalidDevicePointer);
}

extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    if (g_sticky)
        return g_sticky;
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (kind == cudaMemcpyDefault)
        dst_dev = device_range(dst, bytes), src_dev = device_range(src, bytes);
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection);
    if ((dst_dev && !device_range(dst, bytes)) || (src_dev && !device_range(src, bytes)))
        return fail(cudaErrorInvalidValue);
    memmove(dst, src, bytes);
    return cudaSuccess;
}

extern "C" cudaError_t cudaMemset(void *ptr, int value, size_t bytes)
{
    if (g_sticky)
        return g_sticky;
    if (!device_range(ptr, bytes))
        return fail(cudaErrorInvalidValue);
    memset(ptr, value, bytes);
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSynchronize(void) { return g_sticky; }
extern "C" cudaError_t cudaGetLastError(void)
{
    cudaError_t e = g_last_error;
    g_last_error = g_sticky;
    return e;
}
extern "C" cudaError_t cudaPeekAtLastError(void) { return g_last_error; }

extern "C" const char *cudaGetErrorName(cudaError_t err)
{
    switch (err) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    default: return "cudaErrorUnknown";
    }
}
extern "C" const char *cudaGetErrorString(cudaError_t err)
{
    switch (err) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    default: return "invalid argument";
    }
}

/* The device: one, answering as an H100 SXM would (cuda_runtime.h). */
extern "C" cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return fail(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}
extern "C" cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return fail(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}
extern "C" cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice); }
extern "C" cudaError_t cudaDeviceReset(void) { return g_sticky; }
extern "C" cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device)
{
    if (!p)
        return fail(cudaErrorInvalidValue);
    if (device != 0)
        return fail(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "CPU mode (as an NVIDIA H100 80GB HBM3)");
    p->totalGlobalMem = ALLOC_LIMIT;
    p->sharedMemPerBlock = SHARED_LIMIT;
    p->sharedMemPerBlockOptin = SHARED_OPTIN;
    p->sharedMemPerMultiprocessor = 228 * 1024;
    p->totalConstMem = 64 * 1024;
    p->memPitch = 0x7fffffff;
    p->textureAlignment = 512;
    p->regsPerBlock = p->regsPerMultiprocessor = 65536;
    p->warpSize = 32;
    p->maxThreadsPerBlock = MAX_THREADS;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024, p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff, p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->major = 9, p->minor = 0;
    p->multiProcessorCount = SM_COUNT;
    p->maxThreadsPerMultiProcessor = 2048;
    p->maxBlocksPerMultiProcessor = 32;
    p->l2CacheSize = 50 * 1024 * 1024;
    p->persistingL2CacheMaxSize = p->l2CacheSize * 3 / 4;
    p->memoryBusWidth = 5120;
    p->clockRate = 1980000;
    p->memoryClockRate = 2619000;
    p->concurrentKernels = p->unifiedAddressing = p->ECCEnabled = p->canMapHostMemory = p->cooperativeLaunch = 1;
    p->asyncEngineCount = 3;
    return cudaSuccess;
}
extern "C" cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    cudaDeviceProp p;
    if (!value)
        return fail(cudaErrorInvalidValue);
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e)
        return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: case cudaDevAttrMaxBlockDimZ:
        *value = p.maxThreadsDim[attr - cudaDevAttrMaxBlockDimX]; break;
    case cudaDevAttrMaxGridDimX: case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ:
        *value = p.maxGridSize[attr - cudaDevAttrMaxGridDimX]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    default: return fail(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}
extern "C" cudaError_t tlc_func_set_attribute(enum cudaFuncAttribute attr, int value)
{
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || value > SHARED_OPTIN)
            return fail(cudaErrorInvalidValue);
        g_dynamic_limit = std::max<size_t>(g_dynamic_limit, (size_t)value);
    } else if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
        if (value < -1 || value > 100)
            return fail(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}
/* An H100's SM: 2048 threads, 32 blocks, 228 KiB of shared memory (1 KiB of it per block reserved). */
extern "C" int tlc_blocks_per_sm(int threads, size_t dynamic_shared)
{
    int warps = (threads + 31) / 32, by_threads = 64 / std::max(warps, 1);
    int by_shared = (int)((228 * 1024) / (dynamic_shared + 1024));
    return std::max(0, std::min(std::min(by_threads, by_shared), 32));
}

/* Events time nothing on the CPU: they exist so lab files that use them run. */
struct tlc_event { int recorded; };
extern "C" cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    *e = new tlc_event{0};
    return cudaSuccess;
}
extern "C" cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) { e->recorded = 1; return g_sticky; }
extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t) { return g_sticky; }
extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t)
{
    *ms = 0;
    return g_sticky;
}
extern "C" cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    delete e;
    return cudaSuccess;
}

/* ---- what the worker reports ---------------------------------------------- */
extern "C" void tlc_configure(int counting, unsigned threads, uint32_t order)
{
    g_order = order;
    g_counting = (counting & TLC_COUNT_ACCESSES) != 0;
    g_branches = (counting & TLC_TRACE_BRANCHES) != 0;
    g_pool_threads = threads;
}

extern "C" void tlc_mark_allocations(void)
{
    g_worker_allocs = g_allocs.size();
    g_worker_allocated = g_allocated;
}

extern "C" void tlc_write_report(FILE *out)
{
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_allocs.size() > g_worker_allocs)
        fprintf(out, "allocated\t%zu\t%zu\n", g_allocs.size() - g_worker_allocs, g_allocated - g_worker_allocated);
    for (const std::string &l : g_launches)
        fprintf(out, "%s\n", l.c_str());
    if (!g_fatal.empty())
        fprintf(out, "%s\n", g_fatal.c_str());
    for (auto &h : g_host_access)
        fprintf(out, "host\t%s\t%x\n", h.second & 2 ? "write" : "read", h.first);
    for (auto &r : g_findings.races)
        fprintf(out, "race\t%s\t%x\t%x\t%llu\t%s\t%u\tblock %s threads %s and %s\n",
                r.first.writes == 2 ? "write-write" : "read-write", r.first.pc1, r.first.pc2,
                (unsigned long long)r.second.count, r.second.array.c_str(), r.second.offset,
                block_text(r.second.block).c_str(), thread_text(r.second.t1).c_str(), thread_text(r.second.t2).c_str());
    for (auto &b : g_findings.barriers)
        fprintf(out, "barrier\t%s\t%x\t%x\t%llu\t%u\t%u\tblock %s\n", b.first.kind ? "exited" : "divergent",
                b.first.pc1, b.first.pc2, (unsigned long long)b.second.blocks, b.second.reached, b.second.total,
                block_text(b.second.block).c_str());
    for (auto &s : g_findings.stats)
        fprintf(out, "counter\t%x\t%s\t%s\t%llu\t%llu\t%llu\t%llu\n", s.first, s.second.shared ? "shared" : "global",
                s.second.write ? "st" : "ld", (unsigned long long)s.second.requests,
                (unsigned long long)s.second.units, (unsigned long long)s.second.ideal, (unsigned long long)s.second.lanes);
    /* Per kernel (launch site), when more than one kernel made requests. */
    if (g_sites.size() > 1) {
        for (size_t i = 0; i < g_sites.size(); i++)
            fprintf(out, "ksite\t%zu\t%s\n", i, g_sites[i].c_str());
        for (auto &k : g_findings.kernel_stats)
            fprintf(out, "kcounter\t%u\t%x\t%llu\t%llu\t%llu\t%llu\n", (unsigned)(k.first >> 32), (unsigned)k.first,
                    (unsigned long long)k.second.requests, (unsigned long long)k.second.units,
                    (unsigned long long)k.second.ideal, (unsigned long long)k.second.lanes);
    }
    /* Lab 7's branches case: every block's stretches, how many diverged, and
     * block 0's warp by warp ("step:divergent:blocks,..."). */
    if (g_branches) {
        fprintf(out, "branches\t%llu\t%llu\n", (unsigned long long)g_findings.warp_steps,
                (unsigned long long)g_findings.divergent_steps);
        std::map<unsigned, std::string> by_warp;
        for (const BranchCell &c : g_findings.branch_cells) {
            char buf[48];
            std::string &s = by_warp[c.warp];
            snprintf(buf, sizeof buf, "%s%u:%u:%u", s.empty() ? "" : ",", c.step, c.divergent, c.blocks);
            s += buf;
        }
        for (auto &x : by_warp)
            fprintf(out, "branchwarp\t%u\t%s\n", x.first, x.second.c_str());
    }
    /* One line per instruction for the report page: requests above their ideal,
     * requests by cost ("cost:count,..."), and its sample warp, lane by lane
     * (a byte offset, "-" for a lane that made no access). */
    for (auto &s : g_findings.stats) {
        const Stat &t = s.second;
        const Sample &m = t.sample;
        if (m.block == UINT64_MAX)
            continue;
        std::string hist, lanes;
        char buf[48];
        for (int k = 0; k < HIST; k++)
            if (t.hist[k])
                snprintf(buf, sizeof buf, "%s%d:%llu", hist.empty() ? "" : ",", k, (unsigned long long)t.hist[k]), hist += buf;
        for (int l = 0; l < 32; l++) {
            if (m.mask >> l & 1)
                snprintf(buf, sizeof buf, "%s%llu", l ? "," : "", (unsigned long long)m.offset[l]);
            else
                snprintf(buf, sizeof buf, "%s-", l ? "," : "");
            lanes += buf;
        }
        fprintf(out, "access\t%x\t%s\t%s\t%u\t%llu\t%u\t%u\t%u\t%llu\t%s\t%s\t%s\n", s.first, t.shared ? "shared" : "global",
                t.write ? "st" : "ld", m.size, (unsigned long long)m.block, m.warp, m.units, m.ideal,
                (unsigned long long)t.excess, hist.c_str(), lanes.c_str(), m.array.empty() ? "-" : m.array.c_str());
    }
}

/* For the fault handler: the running fiber's state, without locks. */
extern "C" int tlc_in_kernel(void) { return W && W->cur; }
extern "C" unsigned tlc_pc_offset(uintptr_t pc) { return pc - g_code_lo < g_code_hi - g_code_lo ? pc_of((void *)pc) : 0; }
extern "C" void tlc_set_code(uintptr_t lo, uintptr_t hi) { g_code_lo = lo, g_code_hi = hi; }

/* The pool's OS threads, started before the worker enters its sandbox
 * (which lets no new thread be made with clone3). */
extern "C" void tlc_start(void)
{
    if (pool_size)
        return;
    unsigned n = g_pool_threads ? g_pool_threads : std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < n; i++)
        std::thread(worker_loop).detach();
    pool_size = n;
}

/* 1 when `addr` lies in this OS thread's fiber stacks: a CUDA thread's stack overflowed. */
extern "C" int tlc_is_stack(uintptr_t addr)
{
    return W && addr - (uintptr_t)W->stacks < (uintptr_t)(STACK_BYTES + GUARD_BYTES) * MAX_THREADS;
}
