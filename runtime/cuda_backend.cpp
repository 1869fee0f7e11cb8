#include "runtime/cuda_backend.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "base/experiments.h"
#include "base/interrupt.h"
#include "codegen/cuda_source.h"
#include "codegen/stand_in.h"
#include "codegen/tier0.h"
#include "runtime/array_context.h"
#include "runtime/array_memory.h"
#include "runtime/backend.h"
#include "runtime/cublas.h"
#include "runtime/cusolver.h"
#include "runtime/cufft.h"
#include "runtime/compile_queue.h"
#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/gather_cuda.h"
#include "runtime/histogram_cuda.h"
#include "runtime/kth_cuda.h"
#include "runtime/select_cuda.h"
#include "runtime/sort_cuda.h"
#include "runtime/device_pool.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc.h"
#include "base/phase_times.h"

namespace gpy {

namespace {

struct Compiled {
    std::string body, gpu_body;  // confirm a hit: names are 64-bit hashes of them
    std::unique_ptr<cuda::Module> module;
    cuda::CUfunction grid = nullptr, part = nullptr, merge = nullptr, finish = nullptr;
    cuda::CUfunction pwslots = nullptr;   // NumPy's pairwise full sums (KernelSource::pairwise 1)
    cuda::CUfunction pwslots4 = nullptr;  // the same by vector loads (KernelSource::pairwise_vec_align)
    cuda::CUfunction vec4 = nullptr;                                     // KernelSource::vec4_align
    cuda::CUfunction reduce = nullptr;                                   // KernelSource::cooperative
    cuda::CUfunction rows = nullptr, rows_vec = nullptr;                 // KernelSource::RowFused, row_vec_align
    cuda::LaunchShape grid_shape, part_shape, vec4_shape, reduce_shape, rows_shape;
};

// A block size of whole warps, at most `cap` threads (the cooperative
// wrappers shuffle across full warps).
cuda::LaunchShape whole_warps(cuda::CUfunction fn, int cap) {
    cuda::LaunchShape s = cuda::occupancy_shape(fn, 0, cap);
    s.block = std::max(32, s.block / 32 * 32);
    return s;
}

// The bound interpreter's cubin cache (its Config::cache_dir); background
// compiles take it along from the thread that queued them.
DiskCache& disk() {
    const ArrayContext* c = array_context();
    return shared_disk_cache(c ? c->cache_dir : std::string(), "cuda", ".cubin");
}

// The disk cache key of `source`'s cubin: it covers what shapes the output
// (source, NVRTC version, architecture and options).
std::string cubin_key(const std::string& source, const std::string& arch, bool fast_math) {
    return strong_hash_hex({"nvrtc-cubin-v1", source, nvrtc::version(), arch, "-std=c++17", nvrtc::math_option(fast_math),
                            nvrtc::minimal_option(), nvrtc::launch_compile_level()});
}

bool cubin_on_disk(const std::string& key, std::string& cubin) {
    phase::Scope timed(phase::CubinDiskHit);  // counts misses' lookups too
    return disk().load(key, cubin) == DiskCache::Load::Hit;
}

// NVRTC's cubin for `source`, stored under `key` (thread-safe: background
// compiles run it too).
std::string compile_and_store(const std::string& source, const std::string& key, const std::string& name,
                              const std::string& arch, bool fast_math, DiskCache& cache) {
    std::string cubin;
    try {
        phase::Scope timed(phase::NvrtcCompile);
        cubin = nvrtc::compile(source, name + ".cu", arch, fast_math);
    } catch (const nvrtc::CompileError& e) {
        throw std::runtime_error(nvrtc::rejected_kernel_message(name, arch, e, source));
    }
    cache.store(key, cubin);
    return cubin;
}

// The cubin for `source`, from the disk cache or NVRTC.
std::string cubin_for(const std::string& source, const std::string& name, const std::string& arch, bool fast_math) {
    std::string key = cubin_key(source, arch, fast_math), cubin;
    if (cubin_on_disk(key, cubin)) return cubin;
    return compile_and_store(source, key, name, arch, fast_math, disk());
}

// `source`'s compile queued on a background thread (its disk entry known missing).
std::shared_future<std::string> compile_later(std::string source, std::string key, const std::string& name,
                                              const std::string& arch, bool fast_math, CompilePriority priority) {
    return compile_in_background([source = std::move(source), key = std::move(key), name, arch, fast_math, cache = &disk()] {
        return compile_and_store(source, key, name, arch, fast_math, *cache);
    }, priority);
}

// Where a kernel is compiled for: a device, with or without fast math (an
// interpreter's Config::fast_math: interpreters of one process may differ,
// so the same source is compiled and loaded once each way).
struct CompileTarget {
    int dev;
    bool fast_math;
    auto operator<=>(const CompileTarget&) const = default;
};

// The bound interpreter's target for kernels on `dev`.
CompileTarget target_on(int dev) {
    const ArrayContext* c = array_context();
    return CompileTarget{dev, c && c->fast_math};
}

// Compiled kernels by (target, name). Built on first use, after the device
// state it uses: destroyed at exit before it, so its modules unload while
// the driver is still there.
std::mutex loaded_mu;
std::map<std::pair<CompileTarget, std::string>, Compiled>& loaded_kernels() {
    static std::map<std::pair<CompileTarget, std::string>, Compiled> loaded;
    return loaded;
}

const Compiled* find_loaded(CompileTarget t, const KernelSource& k) {
    std::lock_guard<std::mutex> lock(loaded_mu);
    auto& loaded = loaded_kernels();
    auto it = loaded.find({t, k.name});
    if (it != loaded.end() && it->second.body == k.body && it->second.gpu_body == k.gpu_body) return &it->second;
    return nullptr;
}

// `k` loaded on the device: from memory, else from `cubin` when given, else
// from the disk cache or a compile now.
const Compiled& compiled_for(CompileTarget t, const KernelSource& k, const std::string* cubin_given = nullptr) {
    if (const Compiled* hit = find_loaded(t, k)) return *hit;
    auto key = std::make_pair(t, k.name);
    cuda::Device& d = cuda::device(t.dev);
    d.make_current();
    Compiled c;
    c.body = k.body;
    c.gpu_body = k.gpu_body;
    std::string cubin = cubin_given ? *cubin_given : cubin_for(cuda_kernel_source(k), k.name, d.arch(), t.fast_math);
    {
        phase::Scope timed(phase::ModuleLoad);
        c.module = cuda::module_from_cubin(cubin);
    }
    // The entry points cuda_kernel_text emitted for this kernel.
    if (k.kind == KernelSource::RowFused) {
        c.rows = c.module->function((k.name + "_rows").c_str());
        c.rows_shape = whole_warps(c.rows, 512);
        if (!k.row_vec_align.empty()) c.rows_vec = c.module->function((k.name + "_rows_vec").c_str());
    } else if (!k.vec4_align.empty()) {
        c.vec4 = c.module->function((k.name + "_vec4_grid").c_str());
        c.vec4_shape = cuda::occupancy_shape(c.vec4);
    } else if (k.cooperative) {
        c.reduce = c.module->function((k.name + "_reduce").c_str());
        c.reduce_shape = whole_warps(c.reduce, 512);
        if (k.kind == KernelSource::ReduceTiled) {
            c.grid = c.module->function((k.name + "_grid").c_str());
            c.grid_shape = cuda::occupancy_shape(c.grid);
        }
    } else {
        c.grid = c.module->function((k.name + "_grid").c_str());
        c.grid_shape = cuda::occupancy_shape(c.grid);
        if (k.kind == KernelSource::ReduceFull) {
            c.part = c.module->function((k.name + "_part_grid").c_str());
            c.merge = c.module->function((k.name + "_merge_grid").c_str());
            c.finish = c.module->function((k.name + "_finish_grid").c_str());
            c.part_shape = cuda::occupancy_shape(c.part);
        }
    }
    if (k.kind == KernelSource::ReduceFull && k.pairwise == 1 && !k.may_fail) {
        c.pwslots = c.module->function((k.name + "_pwslots").c_str());
        if (!k.pairwise_vec_align.empty()) c.pwslots4 = c.module->function((k.name + "_pwslots4").c_str());
        c.merge = c.module->function((k.name + "_merge_grid").c_str());
        c.finish = c.module->function((k.name + "_finish_grid").c_str());
    }
    std::lock_guard<std::mutex> lock(loaded_mu);
    // Another thread may have built it meanwhile: keep the first (references
    // to it are held); a different body under the same name (a 64-bit hash
    // collision) replaces the entry.
    auto [it, inserted] = loaded_kernels().try_emplace(key, std::move(c));
    if (!inserted && (it->second.body != k.body || it->second.gpu_body != k.gpu_body)) it->second = std::move(c);
    return it->second;  // node-based map: references stay valid
}

// The launch's ptrs, meta and scalars laid out as the wrappers' args struct,
// in a buffer of the calling thread reused by its next launch.
char* pack_args(const Launch& L, const KernelSource& k) {
    auto len = [](int n) { return size_t(std::max(n, 1)); };
    thread_local std::vector<char> args;
    args.assign((len(k.n_ptrs) + len(k.n_meta) + len(k.n_scalars)) * 8, 0);
    char* p = args.data();
    std::copy_n(reinterpret_cast<const char*>(L.ptrs.data()), L.ptrs.size() * 8, p);
    p += len(k.n_ptrs) * 8;
    std::copy_n(reinterpret_cast<const char*>(L.meta.data()), L.meta.size() * 8, p);
    p += len(k.n_meta) * 8;
    std::copy_n(reinterpret_cast<const char*>(L.scalars.data()), L.scalars.size() * 8, p);
    return args.data();
}

// Enough blocks to fill the GPU (the occupancy minimum), fewer for small n;
// the wrappers' grid-stride loops cover the rest.
unsigned grid_for(int64_t n, const cuda::LaunchShape& s) {
    int64_t blocks = (n + s.block - 1) / s.block;
    return unsigned(std::max<int64_t>(1, std::min<int64_t>(blocks, s.min_grid)));
}

// Where kernels that can fail report: one pinned word, device-visible.
int* error_word() {
    static int* word = [] {
        void* p = nullptr;
        GPY_CU(cuMemAllocHost(&p, sizeof(int)));
        return static_cast<int*>(p);
    }();
    return word;
}

}  // namespace

cuda::CUfunction library_kernel(int device, const std::string& source, const std::string& name, const std::string& entry) {
    static std::mutex mu;
    static std::map<std::tuple<int, std::string, std::string>, cuda::CUfunction> functions;
    static std::map<std::pair<int, std::string>, std::unique_ptr<cuda::Module>> modules;
    std::lock_guard<std::mutex> lock(mu);
    auto key = std::make_tuple(device, name, entry);
    if (auto it = functions.find(key); it != functions.end()) return it->second;
    cuda::Device& d = cuda::device(device);
    d.make_current();
    auto& module = modules[{device, name}];
    if (!module) module = cuda::module_from_cubin(cubin_for(source, name, d.arch(), false));  // never fast math: exact fills
    return functions[key] = module->function(entry.c_str());
}

namespace {

// Every row of every operand the vector path reads or writes starts on a
// vector boundary: its base and its strides over the outer dims.
// `align`: KernelSource::vec4_align or reduce_vec_align.
bool rows_aligned(const Launch& L, const KernelSource& k, const std::vector<uint8_t>& align) {
    const int D = k.rank;
    for (size_t i = 0; i < align.size(); ++i) {
        const int64_t a = align[i];
        if (!a) continue;
        if (reinterpret_cast<uintptr_t>(L.ptrs[i]) % a != 0) return false;
        for (int d = 0; d + 1 < D; ++d)
            if (L.meta[D + i * D + d] % a != 0) return false;
    }
    return true;
}

// Reductions whose threads share rows (KernelSource::cooperative, the
// wrapper NAME_reduce). Many rows, or short ones: a team of G lanes per row
// (a power of two up to a warp, about a quarter of the row's length; 1 is a
// thread per row). Few long rows (or one: a full reduction): block-wide
// teams, enough per row to fill the GPU twice over, writing partials that a
// second launch combines with a block per row. Returns false to leave a
// column reduction with many outputs to the thread-per-output grid kernel.
bool launch_cooperative(const Compiled& c, const Launch& L, const KernelSource& k, void* argp, int dev,
                        cuda::CUstream stream) {
    const KernelSource::Kind kind = k.kind;
    const cuda::LaunchShape& s = c.reduce_shape;
    int64_t nrows = L.outer, inner = L.inner, nsplit = 1, in_split = 0;
    int vec = !k.reduce_vec_align.empty() && rows_aligned(L, k, k.reduce_vec_align);
    char* out_parts = nullptr;
    char* in_parts = nullptr;
    auto run = [&](int G, int64_t blocks) {
        void* params[] = {argp, &nrows, &inner, &G, &nsplit, &out_parts, &in_parts, &in_split, &vec};
        blocks = std::max<int64_t>(1, std::min<int64_t>(blocks, int64_t(s.min_grid) * 8));
        cuda::launch(c.reduce, {unsigned(blocks)}, {unsigned(s.block)}, 0, stream, params);
    };
    int64_t resident_threads = int64_t(s.min_grid) * s.block, resident_warps = resident_threads / 32;
    // Column reductions with outputs for a quarter of the GPU: a thread per
    // output (the caller's grid launch), adjacent threads reading adjacent memory.
    if (kind == KernelSource::ReduceTiled && nrows * 4 >= resident_threads) return false;
    if (kind != KernelSource::ReduceFull && (nrows >= resident_warps || inner <= 1024)) {
        // Lanes of a team read neighbours only when the reduced dim is
        // contiguous; otherwise, with rows for every thread, a thread per row.
        int G = 1;
        if (k.reduce_unit || nrows < resident_threads)
            while (G < 32 && G * 4 < inner) G *= 2;
        run(G, (nrows + s.block / G - 1) / (s.block / G));
        return true;
    }
    // Parts per row: about two waves of blocks in all, at least four elements per thread.
    int64_t want = (2 * int64_t(s.min_grid) + nrows - 1) / nrows;
    int64_t most = std::max<int64_t>(1, inner / (int64_t(s.block) * 4));
    nsplit = std::max<int64_t>(1, std::min(want, most));
    if (nsplit == 1) {
        run(s.block, nrows);
        return true;
    }
    // Back to the pool on this stream after the launches: stream order keeps it alive.
    BufferRef partials(allocate_cuda_buffer(dev, size_t(nrows * nsplit) * 32, false));
    out_parts = reinterpret_cast<char*>(partials.device_bytes());
    run(s.block, nrows * nsplit);
    in_parts = out_parts;
    in_split = nsplit;
    out_parts = nullptr;
    nsplit = 1;
    run(s.block, nrows);
    return true;
}

// ---- tier 0: new elementwise kernels run on the interpreter (codegen/tier0.h)
// while NVRTC compiles them in the background ----

std::mutex tier0_mu;
// Background compiles by (device, kernel name); `ahead`: queued before any
// need, behind every other compile (a launch compiles it now rather than wait).
struct Background {
    std::shared_future<std::string> cubin;
    bool ahead = false;
};
std::map<std::pair<CompileTarget, std::string>, Background> compiling;
// The interpreter's own compile per device, and whether it is loaded.
struct Interpreter {
    std::shared_future<std::string> cubin;
    bool loaded = false, failed = false;
};
std::map<CompileTarget, Interpreter> interpreters;

// Whether the interpreter is loaded on the device. Its first need starts its
// compile (once per machine: ~3 s, then the disk cache serves it), without
// waiting unless `wait`.
bool interpreter_ready(CompileTarget t, bool wait) {
    const KernelSource& k = *tier0_interpreter();
    std::shared_future<std::string> pending;
    bool cold = false;
    {
        std::lock_guard<std::mutex> lock(tier0_mu);
        Interpreter& in = interpreters[t];
        if (in.loaded || in.failed) return in.loaded;
        if (!in.cubin.valid()) {
            std::string source = cuda_kernel_source(k), arch = cuda::device(t.dev).arch(), cubin;
            std::string key = cubin_key(source, arch, t.fast_math);
            if (cubin_on_disk(key, cubin)) {
                std::promise<std::string> ready;
                ready.set_value(std::move(cubin));
                in.cubin = ready.get_future().share();
            } else {
                in.cubin = compile_later(std::move(source), std::move(key), k.name, arch, t.fast_math, CompilePriority::Urgent);
                cold = true;
            }
        }
        pending = in.cubin;
    }
    static std::once_flag cold_once;
    if (cold) std::call_once(cold_once, compile_generic_reductions_ahead);
    if (!wait && pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
    std::string cubin;
    bool ok = true;
    try {
        cubin = pending.get();
        compiled_for(t, k, &cubin);
    } catch (const std::exception& e) {
        ok = false;  // kernels compile before their first launch, as without tier 0
        if (const ArrayContext* c = array_context(); c && c->debug > 0)
            std::fprintf(stderr, "gpy: tier-0 interpreter unavailable: %s\n", e.what());
    }
    std::lock_guard<std::mutex> lock(tier0_mu);
    Interpreter& in = interpreters[t];
    in.loaded = ok;
    in.failed = !ok;
    return ok;
}

// The background compile of `k` on the device, taken from the table once it
// has finished, or to wait for (`ready_only` false) unless queued ahead of
// need; invalid when none is queued or it is not to be waited for.
std::shared_future<std::string> take_compiling(CompileTarget t, const KernelSource& k, bool ready_only, bool* queued = nullptr) {
    std::lock_guard<std::mutex> lock(tier0_mu);
    auto it = compiling.find({t, k.name});
    if (queued) *queued = it != compiling.end();
    if (it == compiling.end()) return {};
    const bool ready = it->second.cubin.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    if (!ready && (ready_only || it->second.ahead)) return {};
    std::shared_future<std::string> pending = std::move(it->second.cubin);
    compiling.erase(it);
    return pending;
}

// Waits for a background compile, polling the interpreter's Ctrl-C flag:
// an interrupted wait throws Interrupted and the compile goes on into the
// cache for the next launch.
void await_compile(const std::shared_future<std::string>& pending) {
    if (!t_interrupt_flag) return;
    while (pending.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready)
        if (interrupt_requested()) throw Interrupted();
}

// `k` loaded from its background compile's cubin (waiting for it), or, when
// the queue dropped it at exit or none was queued, from disk or NVRTC now.
const Compiled& load_compiled(CompileTarget t, const KernelSource& k, std::shared_future<std::string> pending) {
    if (pending.valid()) {
        await_compile(pending);
        try {
            std::string cubin = pending.get();  // a compile error surfaces here, as it would have at the first launch
            return compiled_for(t, k, &cubin);
        } catch (const std::future_error&) {
            // dropped: compile now
        }
    }
    return compiled_for(t, k);
}

// Queues `k`'s compile at `priority` (true) unless its cubin is on disk
// (false; then loaded if `load`).
bool queue_compile(CompileTarget t, const KernelSource& k, CompilePriority priority, bool load) {
    std::string source = cuda_kernel_source(k), arch = cuda::device(t.dev).arch(), cubin;
    std::string key = cubin_key(source, arch, t.fast_math);
    if (cubin_on_disk(key, cubin)) {
        if (load) compiled_for(t, k, &cubin);
        return false;
    }
    auto pending = compile_later(std::move(source), std::move(key), k.name, arch, t.fast_math, priority);
    std::lock_guard<std::mutex> lock(tier0_mu);
    compiling.emplace(std::make_pair(t, k.name), Background{pending, priority == CompilePriority::Idle});
    return true;
}

// A kernel not loaded yet: true while its compile runs in the background
// (queued now or before) and the interpreter can stand in; false once it is
// loaded (its compile finished, or it was on disk), or when it must compile
// before its launch (the interpreter is not ready yet).
bool compiling_in_background(CompileTarget t, const KernelSource& k) {
    bool queued = false;
    std::shared_future<std::string> done = take_compiling(t, k, true, &queued);
    if (done.valid()) {
        load_compiled(t, k, done);
        return false;
    }
    if (queued) return true;
    if (!interpreter_ready(t, false)) return false;  // compile now (or load from disk), as without tier 0
    return queue_compile(t, k, CompilePriority::Normal, true);
}

// Queues `k`'s compile behind every other unless it is loaded, queued or on disk.
void compile_ahead(CompileTarget t, const KernelSource& k) {
    if (find_loaded(t, k)) return;
    {
        std::lock_guard<std::mutex> lock(tier0_mu);
        if (compiling.count({t, k.name})) return;
    }
    queue_compile(t, k, CompilePriority::Idle, false);
}

// The interpreter costs a few ps per instruction and element on an H100:
// past kTier0MostWork instruction-elements a call costs about a compile.
bool cheap_to_interpret(const KernelPlan& plan) {
    return double(plan.launch.outer) * double(plan.source->tier0.size()) <= kTier0MostWork;
}

// Runs `plan` on the interpreter: always (GPY_TIER0=always), or when its
// kernel is not loaded and cannot be without NVRTC (Auto: then that compile
// starts in the background). False: the caller launches the compiled kernel.
bool ran_on_tier0(KernelPlan& plan, CompileTarget t, Tier0Mode mode) {
    const KernelSource& k = *plan.source;
    if (mode == Tier0Mode::Always) {
        if (!interpreter_ready(t, true)) return false;
    } else {
        if (!cheap_to_interpret(plan) || !compiling_in_background(t, k)) return false;
    }
    KernelPlan program = tier0_plan(plan);
    run_kernel_cuda(program);
    return true;
}

// A statement that repeats (through the kernel memo) brings the same source
// object: the runner remembers the last one, holding it alive so its
// address stays unique, and skips the lookup.
thread_local std::shared_ptr<const KernelSource> t_last_source;
thread_local CompileTarget t_last_target{-1, false};
thread_local const Compiled* t_last_compiled = nullptr;

}  // namespace

bool cuda_kernel_ready(const KernelPlan& plan, bool ahead) {
    const KernelSource& k = *plan.source;
    const CompileTarget t = target_on(array_device_index());
    if (ahead) {
        compile_ahead(t, k);
        return true;
    }
    switch (tier0_mode()) {
        case Tier0Mode::Off: return true;
        case Tier0Mode::Always: return !interpreter_ready(t, true);
        case Tier0Mode::Auto: break;
    }
    if (plan.source == t_last_source && t == t_last_target) return true;  // the runner's repeat
    if (find_loaded(t, k)) return true;
    return !compiling_in_background(t, k);
}

// A float sum of one run in NumPy's pairwise order (KernelSource::pairwise
// 1): the recursion's leaves (at most 128 elements) as slots `depth` levels
// down, eight lanes a leaf, a block's 32 slots combined into one partial
// (codegen/cuda_source.cpp NAME_pwslots); merges of 32 aligned partials,
// each a subtree, level by level; the finish adds NumPy's identity first.
// Every addition is the one NumPy makes, in float32 for float32: NumPy's bits.
void run_pairwise_sum(const Compiled& c, const Launch& L, const KernelSource& k, void* argp, int dev, cuda::CUstream stream) {
    constexpr int64_t kMergeGroup = 32;
    // By vector loads (a block's 128 slots) where every operand is aligned.
    const bool vec = c.pwslots4 && rows_aligned(L, k, k.pairwise_vec_align);
    const int64_t kSlotsPerBlock = vec ? 128 : 32;
    int64_t inner = L.inner, largest = inner;
    int depth = 0;
    // The rightmost node is the largest of its level (the right half takes
    // the remainder), so the deepest leaf is on that path.
    while (largest > 128) {
        int64_t h = largest / 2;
        largest -= h - h % 8;
        ++depth;
    }
    int64_t nslots = int64_t(1) << depth;
    int64_t nparts = (nslots + kSlotsPerBlock - 1) / kSlotsPerBlock;
    int64_t merged_cap = (nparts + kMergeGroup - 1) / kMergeGroup;
    BufferRef partials(allocate_cuda_buffer(dev, size_t(nparts) * 16, false));
    BufferRef merged(allocate_cuda_buffer(dev, size_t(std::max<int64_t>(1, merged_cap)) * 16, false));
    char* in = reinterpret_cast<char*>(partials.device_bytes());
    char* out = reinterpret_cast<char*>(merged.device_bytes());
    void* slot_params[] = {argp, &inner, &depth, &nslots, &in};
    cuda::launch(vec ? c.pwslots4 : c.pwslots, {unsigned(std::min<int64_t>(nparts, 0x7fffffff))}, {256}, 0, stream, slot_params);
    while (nparts > kMergeGroup) {
        int64_t group = kMergeGroup, nout = (nparts + group - 1) / group;
        void* merge_params[] = {&nparts, &group, &nout, &in, &out};
        unsigned block = 256, blocks = unsigned((nout + block - 1) / block);
        cuda::launch(c.merge, {blocks}, {block}, 0, stream, merge_params);
        std::swap(in, out);
        nparts = nout;
    }
    void* finish_params[] = {argp, &nparts, &in};
    cuda::launch(c.finish, {1}, {1}, 0, stream, finish_params);
}

void run_kernel_cuda(KernelPlan& plan) {
    Launch& L = plan.launch;
    const KernelSource& k = *plan.source;
    const CompileTarget t = target_on(array_device_index());
    const int dev = t.dev;
    if (L.outer == 0) return;
    const bool repeat = plan.source == t_last_source && t == t_last_target;
    const Compiled* found = nullptr;
    {
        phase::Scope lookup(phase::Lookup);
        found = repeat ? t_last_compiled : find_loaded(t, k);
    }
    // Tier 0 only for kernels not loaded yet (or every program under
    // GPY_TIER0=always); a stand-in's part never compiles (codegen/stand_in.h).
    const Tier0Mode mode = k.tier0.empty() ? Tier0Mode::Off : tier0_mode();
    if (!found && plan.stand_in && mode != Tier0Mode::Off && cheap_to_interpret(plan) && interpreter_ready(t, false)) {
        KernelPlan program = tier0_plan(plan);
        run_kernel_cuda(program);
        return;
    }
    if ((mode == Tier0Mode::Always || (mode == Tier0Mode::Auto && !found)) && ran_on_tier0(plan, t, mode)) return;
    if (!repeat) {
        if (!found) found = &load_compiled(t, k, take_compiling(t, k, false));
        t_last_source = plan.source;
        t_last_target = t;
        t_last_compiled = found;
    }
    const Compiled& c = *found;
    cuda::device(dev).make_current();
    cuda::CUstream stream = current_stream();
    if (k.may_fail) {
        wait_for_device_work();  // an earlier failing kernel may still write the word
        *error_word() = 0;
        L.ptrs.back() = reinterpret_cast<char*>(error_word());
    }
    void* argp = pack_args(L, k);
    if (k.kind == KernelSource::RowFused) {
        // A block per row: about eight elements per thread, at most 512 threads
        // (the wrapper's launch bounds; GPY_ROW_CACHE = 16 caches rows up to
        // 8192). The grid has a block for every row rather than only as many
        // as are resident (H200, softmax 8192^2: 0.204 -> 0.184 ms), and the
        // cache moves four elements per load and store where rows allow.
        int64_t nrows = L.outer, cols = L.inner;
        const cuda::LaunchShape& s = c.rows_shape;
        int block = int(std::min<int64_t>({s.block, 512, std::max<int64_t>(32, (cols / 8 + 31) / 32 * 32)}));
        bool vec = c.rows_vec && cols % 4 == 0 && rows_aligned(L, k, k.row_vec_align);
        void* params[] = {argp, &nrows};
        cuda::launch(vec ? c.rows_vec : c.rows, {unsigned(std::clamp<int64_t>(nrows, 1, 0x7fffffff))}, {unsigned(block)}, 0, stream, params);
    } else if (c.pwslots) {
        run_pairwise_sum(c, L, k, argp, dev, stream);
    } else if (k.cooperative && launch_cooperative(c, L, k, argp, dev, stream)) {
        // launched
    } else if (c.vec4) {
        int64_t cols = L.meta[k.rank - 1], rows = L.outer / cols;
        int aligned = rows_aligned(L, k, k.vec4_align);
        void* params[] = {argp, &rows, &cols, &aligned};
        int64_t vectors = rows * ((cols + 3) / 4);
        // Light kernels: a thread per vector (KernelSource::light).
        // GPY_EXPERIMENTS=cuda_vec4_grid=full: every kernel so (base/experiments.h).
        unsigned grid = k.light || experiments().cuda_vec4_grid_full ? unsigned(std::min<int64_t>((vectors + c.vec4_shape.block - 1) / c.vec4_shape.block, 0x7fffffff))
                                : grid_for(vectors, c.vec4_shape);
        cuda::launch(c.vec4, {grid}, {unsigned(c.vec4_shape.block)}, 0, stream, params);
    } else if (k.kind != KernelSource::ReduceFull) {
        int64_t n = L.outer;
        void* params[] = {argp, &n};
        cuda::launch(c.grid, {grid_for(n, c.grid_shape)}, {unsigned(c.grid_shape.block)}, 0, stream, params);
    } else {
        // One partial per thread over a contiguous chunk of the reduced
        // elements, merged in parallel rounds of kMergeGroup until few are
        // left, which one thread combines with the epilogue. The chunk
        // (at least 64 elements per thread; an experiment knob, base/experiments.h)
        // trades coalescing against the number of partials.
        constexpr int64_t kMergeGroup = 32;
        const int64_t min_chunk = experiments().cuda_reduce_chunk;
        int64_t inner = L.inner;
        int64_t threads = int64_t(c.part_shape.block) * c.part_shape.min_grid;
        int64_t chunk = std::max<int64_t>(min_chunk, (inner + threads * 64 - 1) / (threads * 64));
        int64_t nparts = std::max<int64_t>(1, (inner + chunk - 1) / chunk);
        int64_t merged_cap = (nparts + kMergeGroup - 1) / kMergeGroup;
        BufferRef partials(allocate_cuda_buffer(dev, size_t(nparts) * 16, false));
        BufferRef merged(allocate_cuda_buffer(dev, size_t(std::max<int64_t>(1, merged_cap)) * 16, false));
        char* in = reinterpret_cast<char*>(partials.device_bytes());
        char* out = reinterpret_cast<char*>(merged.device_bytes());
        void* part_params[] = {argp, &inner, &chunk, &nparts, &in};
        cuda::launch(c.part, {grid_for(nparts, c.part_shape)}, {unsigned(c.part_shape.block)}, 0, stream, part_params);
        while (nparts > kMergeGroup) {
            int64_t group = kMergeGroup, nout = (nparts + group - 1) / group;
            void* merge_params[] = {&nparts, &group, &nout, &in, &out};
            unsigned block = 256, blocks = unsigned((nout + block - 1) / block);
            cuda::launch(c.merge, {blocks}, {block}, 0, stream, merge_params);
            std::swap(in, out);  // both buffers hold at least nout partials
            nparts = nout;
        }
        void* finish_params[] = {argp, &nparts, &in};
        cuda::launch(c.finish, {1}, {1}, 0, stream, finish_params);
    }
    note_device_work(dev);
    if (k.may_fail) {
        wait_for_device_work();
        L.error = *error_word();
    }
}

namespace {

// Driver and library failures as DeviceError.
template <class F>
auto device_call(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const cuda::Error& e) {
        throw DeviceError(std::string("CUDA error: ") + e.what());
    }
}

class CudaBackend final : public Backend {
public:
    DeviceKind kind() const override { return DeviceKind::CUDA; }
    void run(KernelPlan& plan) override { device_call([&] { run_kernel_cuda(plan); }); }
    // Stand-ins (codegen/stand_in.h): the GPU's fused reductions run unfused while they compile.
    bool ready(const KernelPlan& plan, bool ahead) override {
        try {
            return cuda_kernel_ready(plan, ahead);
        } catch (const std::exception&) {
            return true;  // the launch reports what is wrong
        }
    }
    void synchronize() override { device_call([] { wait_for_device_work(); }); }
    bool has_gemm() const override { return cublas::available(); }
    void gemm(bool ta, bool tb, int n, int m, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc) override {
        device_call([&] { cublas::sgemm(array_device_index(), ta, tb, n, m, k, a, lda, b, ldb, c, ldc); });
    }
    void gemm(bool ta, bool tb, int n, int m, int k, const double* a, int lda, const double* b, int ldb, double* c, int ldc) override {
        device_call([&] { cublas::dgemm(array_device_index(), ta, tb, n, m, k, a, lda, b, ldb, c, ldc); });
    }
    bool fft(int kind, int64_t n, int64_t batch, void* in, void* out) override {
        if (!cufft::available()) return false;
        device_call([&] { cufft::execute(array_device_index(), cufft::Kind(kind), n, batch, in, out); });
        return true;
    }
    bool fill_random(philox::DeviceFill kind, const philox::Stream& stream, uint64_t n, double a, double b, void* out) override {
        device_call([&] { philox::fill_on_device(array_device_index(), kind, stream, n, a, b, out); });
        return true;
    }
    bool range_fill(RangeFill kind, const void* first, int64_t n, void* out) override {
        device_call([&] { range_fill_on_device(array_device_index(), kind, first, n, out); });
        return true;
    }
    bool scan(DeviceScanOp op, DeviceScanType type, const void* src, void* dst, int64_t outer, int64_t len, int64_t inner) override {
        device_call([&] { scan_on_device(array_device_index(), op, type, src, dst, outer, len, inner); });
        return true;
    }
    bool histogram(DeviceSearchType type, bool edges_double, const void* data, int64_t n, const void* edges, int64_t bins, double first,
                   double norm, int64_t* counts) override {
        device_call([&] { histogram_on_device(array_device_index(), type, edges_double, data, n, edges, bins, first, norm, counts); });
        return true;
    }
    bool searchsorted(DeviceSearchType type, bool right, const void* a, int64_t n, const void* v, int64_t m, int64_t* out) override {
        device_call([&] { searchsorted_on_device(array_device_index(), type, right, a, n, v, m, out); });
        return true;
    }
    bool kth(DeviceSearchType type, const void* x, int64_t n, const int64_t* ranks, int count, void* out, bool* negative_zero,
             bool* nan) override {
        device_call([&] {
            KthResult r = kth_on_device(array_device_index(), type, x, n, ranks, count, out);
            *negative_zero = r.negative_zero;
            *nan = r.nan;
        });
        return true;
    }
    bool sort(DeviceSearchType type, const void* x, int64_t rows, int64_t len, void* out_values, int64_t* out_index) override {
        device_call([&] { sort_on_device(array_device_index(), type, x, rows, len, out_values, out_index); });
        return true;
    }
    bool gesv(bool dbl, int64_t n, int64_t nrhs, void* a, void* b, int* info) override {
        if (!cusolver::available() || n > INT32_MAX || nrhs > INT32_MAX || n * n > INT32_MAX) return false;
        device_call([&] { *info = cusolver::gesv(array_device_index(), dbl, int(n), int(nrhs), a, b); });
        return true;
    }
    bool getrf(bool dbl, int64_t n, void* a, int* ipiv, int* info) override {
        if (!cusolver::available() || n * n > INT32_MAX) return false;
        device_call([&] { *info = cusolver::getrf(array_device_index(), dbl, int(n), a, ipiv); });
        return true;
    }
    bool potrf(bool dbl, bool lower, int64_t n, void* a, int* info) override {
        if (!cusolver::available() || n * n > INT32_MAX) return false;
        device_call([&] { *info = cusolver::potrf(array_device_index(), dbl, lower, int(n), a); });
        return true;
    }
    bool syevd(bool dbl, bool vectors, bool lower, int64_t n, void* a, void* w, int* info) override {
        if (!cusolver::available() || n * n > INT32_MAX) return false;
        device_call([&] { *info = cusolver::syevd(array_device_index(), dbl, vectors, lower, int(n), a, w); });
        return true;
    }
    bool qr_apply(bool dbl, int64_t m, int64_t n, void* a, int64_t nrhs, void* b, int* info) override {
        if (!cusolver::available() || m * n > INT32_MAX || m * nrhs > INT32_MAX) return false;
        device_call([&] { *info = cusolver::qr_apply(array_device_index(), dbl, int(m), int(n), a, int(nrhs), b); });
        return true;
    }
    bool qr(bool dbl, int64_t m, int64_t n, void* a, int64_t qcols, void* q, int* info) override {
        if (!cusolver::available() || m * n > INT32_MAX || m * qcols > INT32_MAX) return false;
        device_call([&] { *info = cusolver::qr(array_device_index(), dbl, int(m), int(n), a, int(qcols), q); });
        return true;
    }
    bool gesvd(bool dbl, char jobu, char jobvt, int64_t m, int64_t n, void* a, void* s, void* u, int64_t ldu, void* vt, int64_t ldvt,
               int* info) override {
        if (!cusolver::available() || m * n > INT32_MAX || m * m > INT32_MAX) return false;
        device_call([&] {
            *info = cusolver::gesvd(array_device_index(), dbl, jobu, jobvt, int(m), int(n), a, s, u, int(ldu), vt, int(ldvt));
        });
        return true;
    }
    bool geev(bool dbl, bool vectors, int64_t n, void* a, void* w, void* vr, int* info) override {
        if (!cusolver::geev_available()) return false;
        device_call([&] { *info = cusolver::geev(array_device_index(), dbl, vectors, n, a, w, vr); });
        return true;
    }
    bool unique(DeviceSearchType type, const void* x, int64_t n, bool equal_nan, const std::function<void*(int64_t)>& alloc) override {
        device_call([&] { unique_on_device(array_device_index(), type, x, n, equal_nan, alloc); });
        return true;
    }
    bool select(const void* mask, size_t mask_elem, bool mask_float, int64_t n, const void* src, size_t elem,
                const std::function<void*(int64_t)>& alloc, int64_t* count) override {
        device_call([&] { *count = select_on_device(array_device_index(), mask, mask_elem, mask_float, n, src, elem, alloc); });
        return true;
    }
    bool unravel(const int64_t* flat, int64_t count, int64_t inner, int64_t len, int64_t* out) override {
        device_call([&] { unravel_on_device(array_device_index(), flat, count, inner, len, out); });
        return true;
    }
    bool scatter(const int64_t* idx, int64_t count, char* dst, int64_t n, int64_t stride, size_t elem, const char* src, bool uniform,
                 int64_t* first_bad) override {
        device_call([&] { *first_bad = scatter_on_device(array_device_index(), idx, count, dst, n, stride, elem, src, uniform); });
        return true;
    }
    bool ufunc_at(int op, DeviceSearchType type, const int64_t* idx, int64_t count, char* dst, int64_t n, int64_t stride,
                  const void* values, bool uniform, int64_t* first_bad) override {
        device_call([&] { *first_bad = ufunc_at_on_device(array_device_index(), op, type, idx, count, dst, n, stride, values, uniform); });
        return true;
    }
    std::shared_ptr<RawFunction> raw_function(const RawSource& source, const std::string& expr) override {
        const ArrayContext* c = array_context();
        return device_call([&] { return cuda_raw_function(array_device_index(), source, expr, c ? c->cache_dir : std::string()); });
    }
    void raw_launch(RawFunction& f, RawDims grid, RawDims block, size_t shared_bytes, std::span<void* const> args,
                    std::span<const RawBounds> = {}) override {
        device_call([&] { cuda_raw_launch(f, grid, block, shared_bytes, args); });
    }
    void raw_set_attribute(RawFunction& f, const std::string& name, int value) override {
        device_call([&] { cuda_raw_set_attribute(f, name, value); });
    }
    bool gather(const int64_t* idx, int64_t count, const char* src, int64_t n, int64_t stride, size_t elem, char* dst,
                int64_t* first_bad) override {
        device_call([&] { *first_bad = gather_on_device(array_device_index(), idx, count, src, n, stride, elem, dst); });
        return true;
    }
};

}  // namespace

std::shared_ptr<Backend> make_cuda_backend() { return std::make_shared<CudaBackend>(); }

}  // namespace gpy
