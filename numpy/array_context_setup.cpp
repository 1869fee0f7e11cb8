// The interpreter's array context, made by its `import numpy`: the backend
// (runtime/backend.h) in its ArrayState, with the array module's parts:
// launch errors become Python exceptions, and Config::debug (GPY_DEBUG) and
// --dump-kernels observe its kernels.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <unordered_set>

#include "codegen/cuda_source.h"
#include "codegen/profile.h"
#include "numpy/array.h"
#include "numpy/array_state.h"
#include "runtime/array_memory.h"
#include "runtime/backend.h"
#include "runtime/nvrtc_shadow.h"

namespace gpy {

namespace {

// " (lines 3-5, 9)": the statements that built the nodes a kernel computes
// (Node::origin, set from the interpreter's current statement), for the plan
// report; "" when none is known.
std::string source_lines_of(const KernelPlan& k) {
    std::set<int> lines;
    std::unordered_set<const dag::Node*> seen;
    std::vector<const dag::Node*> todo{k.root.get()};
    for (const dag::NodeP& r : k.extra_roots) todo.push_back(r.get());
    while (!todo.empty()) {
        const dag::Node* n = todo.back();
        todo.pop_back();
        if (!n || n->result || n->op == dag::Op::Input || n->op == dag::Op::Scalar || !seen.insert(n).second) continue;
        if (n->origin) lines.insert(n->origin->source_line());
        for (const dag::NodeP& c : n->in) todo.push_back(c.get());
    }
    lines.erase(0);
    if (lines.empty()) return "";
    std::string out;
    for (auto it = lines.begin(); it != lines.end();) {
        int first = *it, last = first;
        for (++it; it != lines.end() && *it == last + 1; ++it) last = *it;
        out += (out.empty() ? "" : ", ") + std::to_string(first) + (last > first ? "-" + std::to_string(last) : "");
    }
    return (lines.size() > 1 ? " (lines " : " (line ") + out + ")";
}

}  // namespace

void make_array_context(Interp& in) {
    ArrayState& st = array_state(in);
    BackendOptions o;
    o.backend = in.cfg.backend;
    // (--check-kernels runs raw kernels on the CPU: an embedder's "auto" means the CPU then.)
    if (in.cfg.check_kernels && o.backend == "auto") o.backend = "cpu";
    o.device = in.cfg.device;
    o.cache_dir = in.cfg.cache_dir;
    o.max_array_bytes = in.cfg.max_array_bytes;
    o.max_memory_bytes = in.cfg.max_memory_bytes;
    o.fast_math = in.cfg.fast_math;
    o.debug = in.cfg.debug;
    install_backend(st, o);
    st.check_kernels = in.cfg.check_kernels;
    st.lazy = in.cfg.lazy;
    st.runner = [run = std::move(st.runner)](KernelPlan& plan) {
        if (!plan.device_error.empty()) raise(types::ValueError, plan.device_error);
        try {
            run(plan);
        } catch (const ShadowCompileError& e) {
            raise(types::RuntimeError, e.what());
        } catch (const std::bad_alloc&) {
            throw;
        } catch (const std::runtime_error& e) {  // a DeviceError, or NVRTC rejected a kernel (a gpy bug)
            raise(types::RuntimeError, e.what());
        }
        if (plan.launch.error == kErrNegativeIntPower)
            raise(types::ValueError, "Integers to negative integer powers are not allowed.");
    };
    if (in.cfg.profile) {
        Backend* device = st.backend.get();
        st.profile = std::make_unique<profile::Table>([device] {
            try {
                device->synchronize();
            } catch (const DeviceError& e) {
                raise(types::RuntimeError, e.what());
            }
        });
    }
    int level = in.cfg.debug;
    std::string dump = in.cfg.dump_kernels_dir;
    if (level <= 0 && dump.empty()) return;
    if (!dump.empty()) std::filesystem::create_directories(dump);
    st.observer = [level, dump](const KernelPlan& k) {
        if (level >= 1) {
            // The plan report: each kernel, what it computes and what forced it.
            const char* why = materialize_reason();
            std::fprintf(stderr, "gpy: kernel %s: %s [%s]%s\n", k.source->name.c_str(), k.source->summary.c_str(),
                         *why ? why : "an operation needs it", source_lines_of(k).c_str());
        }
        if (level >= 3) std::fprintf(stderr, "%s\n", k.source->body.c_str());
        if (!dump.empty()) {
            // The CPU body, and the CUDA text (body, GPU-only entry points, wrappers; no prelude).
            std::string path = dump + "/" + k.source->name + ".cpp";
            if (!std::filesystem::exists(path)) {
                std::ofstream f(path);
                f << "// " << k.source->summary << "\n" << k.source->body;
                std::ofstream g(dump + "/" + k.source->name + ".cu");
                g << "// " << k.source->summary << "\n" << cuda_kernel_text(*k.source);
            }
        }
    };
}

}  // namespace gpy
