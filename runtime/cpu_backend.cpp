#include "runtime/cpu_backend.h"

#include <algorithm>
#include <vector>

#include "codegen/prelude.h"
#include "runtime/cpu_jit.h"
#include "runtime/thread_pool.h"

namespace gpy {

std::string cpu_kernel_source(const std::string& body) {
    return std::string(kCpuPrelude) + "#define GPY_REASSOC _Pragma(\"clang fp reassociate(on)\")\n" + kCommonPrelude + body;
}

using ElementFn = void (*)(char**, const int64_t*, const uint64_t*, int64_t, int64_t);
using PartFn = void (*)(char**, const int64_t*, const uint64_t*, int64_t, int64_t, int64_t, char*);
using FinishFn = void (*)(char**, const int64_t*, const uint64_t*, int64_t, char*);

void run_kernel_cpu(KernelPlan& plan) {
    std::string src = cpu_kernel_source(plan.source.body);
    const std::string& name = plan.source.name;
    Launch& L = plan.launch;
    char** ptrs = L.ptrs.data();
    const int64_t* meta = L.meta.data();
    const uint64_t* scalars = L.scalars.data();
    auto fn = reinterpret_cast<ElementFn>(CpuJit::instance().lookup(src, name));
    switch (plan.source.kind) {
        case KernelSource::Elementwise:
            parallel_for(L.outer, 1 << 14, [&](int64_t b, int64_t e) { fn(ptrs, meta, scalars, b, e); });
            return;
        case KernelSource::ReduceRows: {
            int64_t grain = std::max<int64_t>(1, (1 << 15) / std::max<int64_t>(1, L.inner));
            parallel_for(L.outer, grain, [&](int64_t b, int64_t e) { fn(ptrs, meta, scalars, b, e); });
            return;
        }
        case KernelSource::ReduceFull: {
            auto part = reinterpret_cast<PartFn>(CpuJit::instance().lookup(src, name + "_part"));
            auto finish = reinterpret_cast<FinishFn>(CpuJit::instance().lookup(src, name + "_finish"));
            // Fixed-size chunks: the partition (and so the rounding of float
            // sums) does not depend on the thread count.
            const int64_t chunk = 1 << 16;
            int64_t nparts = std::max<int64_t>(1, (L.inner + chunk - 1) / chunk);
            std::vector<char> partials(size_t(nparts) * 16);
            parallel_for(nparts, 1, [&](int64_t b, int64_t e) {
                for (int64_t p = b; p < e; ++p)
                    part(ptrs, meta, scalars, p * chunk, std::min(L.inner, (p + 1) * chunk), p, partials.data());
            });
            finish(ptrs, meta, scalars, nparts, partials.data());
            return;
        }
    }
}

}  // namespace gpy
