#include "runtime/cpu_backend.h"

#include <cfenv>

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/plan.h"
#include "codegen/prelude.h"
#include "runtime/backend.h"
#include "runtime/array_context.h"
#include "codegen/tier0.h"
#include "runtime/cpu_jit.h"
#include "runtime/nvrtc_shadow.h"
#include "runtime/thread_pool.h"

namespace gpy {

std::string cpu_kernel_source(const std::string& body) {
    return std::string(kCpuPrelude) + "#define GPY_REASSOC _Pragma(\"clang fp reassociate(on)\")\n" + kCommonPrelude + body;
}

using ElementFn = void (*)(char**, const int64_t*, const uint64_t*, int64_t, int64_t);
using PartFn = void (*)(char**, const int64_t*, const uint64_t*, int64_t, int64_t, int64_t, char*);
using FinishFn = void (*)(char**, const int64_t*, const uint64_t*, int64_t, char*);

namespace {

struct Entry {
    std::string body;  // confirms a hit: names are 64-bit hashes of bodies
    ElementFn fn = nullptr;
    PartFn part = nullptr;
    FinishFn finish = nullptr;
};

// Entry points by kernel name, so a launch of a known kernel neither rebuilds
// the prelude+body source nor hashes it again.
const Entry& entry_for(const KernelSource& k) {
    static std::mutex mu;
    static std::unordered_map<std::string, Entry> entries;
    {
        std::lock_guard<std::mutex> lock(mu);
        auto it = entries.find(k.name);
        if (it != entries.end() && it->second.body == k.body) return it->second;
    }
    shadow_compile_nvrtc(k);  // GPY_SHADOW_NVRTC=1 (CI): the CUDA backend must compile it too
    Entry e;
    e.body = k.body;
    std::string src = cpu_kernel_source(k.body);
    const ArrayContext* ctx = array_context();
    const std::string& dir = ctx ? ctx->cache_dir : std::string();  // the interpreter's cache folder
    CpuJit& jit = CpuJit::instance();
    e.fn = reinterpret_cast<ElementFn>(jit.lookup(src, k.name, dir));
    if (k.kind == KernelSource::ReduceFull) {
        e.part = reinterpret_cast<PartFn>(jit.lookup(src, k.name + "_part", dir));
        e.finish = reinterpret_cast<FinishFn>(jit.lookup(src, k.name + "_finish", dir));
    }
    std::lock_guard<std::mutex> lock(mu);
    return entries[k.name] = std::move(e);  // node-based map: references stay valid
}

// The [begin, end) ranges of a full reduction's parts. Pairwise sums
// (KernelSource::pairwise 1, and 6: an expression's) split as NumPy's
// recursion does, every range the same number of levels down, until they are
// near `chunk`: the finish kernel combines them level by level, so the
// result is NumPy's bits. Buffered ones take NumPy's buffers: as many whole
// innermost runs of `run` elements as fit in 8192, or for longer runs 8192
// elements at a time, a new buffer at each run (2: a cast), or the run (3).
// Others: fixed chunks, so the rounding does not depend on the thread count.
std::vector<std::pair<int64_t, int64_t>> reduce_parts(uint8_t pairwise, int64_t n, int64_t chunk, int64_t run) {
    std::vector<std::pair<int64_t, int64_t>> parts;
    if (pairwise == 1 || pairwise == 6) {
        parts.push_back({0, n});
        while (parts.size() < 4096 && (parts.back().second - parts.back().first) >= 2 * chunk) {
            std::vector<std::pair<int64_t, int64_t>> next;
            for (auto [b, e] : parts) {
                int64_t n2 = (e - b) / 2;
                n2 -= n2 % 8;
                next.push_back({b, b + n2});
                next.push_back({b + n2, e});
            }
            parts.swap(next);
        }
        return parts;
    }
    int64_t step = chunk;
    run = std::max<int64_t>(run, 1);
    if (pairwise == 2 && run > 8192) {
        // A cast's buffers of a run longer than 8192: 8192 at a time, each run
        // starting a new one.
        for (int64_t r = 0; r < n; r += run)
            for (int64_t b = r; b < std::min(n, r + run); b += 8192) parts.push_back({b, std::min({n, r + run, b + 8192})});
        if (parts.empty()) parts.push_back({0, 0});
        return parts;
    }
    if (pairwise == 2) step = run <= 8192 ? 8192 / run * run : 8192;
    if (pairwise == 3) step = run <= 8192 ? 8192 / run * run : run;
    for (int64_t b = 0; b < n; b += step) parts.push_back({b, std::min(n, b + step)});
    if (parts.empty()) parts.push_back({0, 0});
    return parts;
}

void run_entry(const Entry& k, KernelPlan& plan) {
    Launch& L = plan.launch;
    char** ptrs = L.ptrs.data();
    const int64_t* meta = L.meta.data();
    const uint64_t* scalars = L.scalars.data();
    ElementFn fn = k.fn;
    switch (plan.source->kind) {
        case KernelSource::Elementwise:
            parallel_for(L.outer, 1 << 14, [&](int64_t b, int64_t e) { fn(ptrs, meta, scalars, b, e); });
            return;
        case KernelSource::ReduceRows:
        case KernelSource::RowFused:
        case KernelSource::ReduceTiled: {
            int64_t grain = std::max<int64_t>(1, (1 << 15) / std::max<int64_t>(1, L.inner));
            if (plan.source->kind == KernelSource::ReduceTiled) grain = std::max<int64_t>(grain, kReduceTile);
            parallel_for(L.outer, grain, [&](int64_t b, int64_t e) { fn(ptrs, meta, scalars, b, e); });
            return;
        }
        case KernelSource::ReduceFull: {
            PartFn part = k.part;
            FinishFn finish = k.finish;
            // Fixed-size chunks: the partition (and so the rounding of float
            // sums) does not depend on the thread count.
            const int64_t chunk = 1 << 16;
            std::vector<std::pair<int64_t, int64_t>> parts = reduce_parts(plan.source->pairwise, L.inner, chunk, L.meta[size_t(plan.source->rank - 1)]);
            int64_t nparts = int64_t(parts.size());
            std::vector<char> partials(size_t(nparts) * 16);
            parallel_for(nparts, 1, [&](int64_t b, int64_t e) {
                for (int64_t p = b; p < e; ++p)
                    part(ptrs, meta, scalars, parts[size_t(p)].first, parts[size_t(p)].second, p, partials.data());
            });
            finish(ptrs, meta, scalars, nparts, partials.data());
            return;
        }
    }
}

}  // namespace

// Runs an elementwise kernel on the calling thread, ORing the floating-point
// flags it raises into the context's (np.errstate 'raise': the flags are per
// thread, so one thread runs it all).
static void run_watching_fp_flags(const Entry& k, KernelPlan& plan, ArrayContext& c) {
    Launch& L = plan.launch;
    std::feclearexcept(FE_ALL_EXCEPT);
    k.fn(L.ptrs.data(), L.meta.data(), L.scalars.data(), 0, L.outer);
    c.fp_flags |= std::fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
}

void run_kernel_cpu(KernelPlan& plan) {
    ArrayContext* c = array_context();
    const bool watch = c && c->fp_watch && plan.source->kind == KernelSource::Elementwise;
    // The CPU compiles each kernel before its first run; the interpreter
    // runs here only when asked (GPY_TIER0=always: tests of its programs).
    if (!plan.source->tier0.empty() && tier0_mode() == Tier0Mode::Always) {
        KernelPlan t = tier0_plan(plan);
        if (watch) run_watching_fp_flags(entry_for(*t.source), t, *c);
        else run_entry(entry_for(*t.source), t);
        return;
    }
    const Entry& k = entry_for(*plan.source);
    Launch& L = plan.launch;
    int error = 0;
    if (plan.source->may_fail) L.ptrs.back() = reinterpret_cast<char*>(&error);
    if (watch) run_watching_fp_flags(k, plan, *c);
    else run_entry(k, plan);
    L.error = error;
}

namespace {
class CpuBackend final : public Backend {
public:
    DeviceKind kind() const override { return DeviceKind::CPU; }
    void run(KernelPlan& plan) override { run_kernel_cpu(plan); }
    // The CPU compiles before launching; stand-ins only under tier 0's Always (tests).
    bool ready(const KernelPlan&, bool) override { return tier0_mode() != Tier0Mode::Always; }
};

}  // namespace

std::shared_ptr<Backend> make_cpu_backend() { return std::make_shared<CpuBackend>(); }

}  // namespace gpy
