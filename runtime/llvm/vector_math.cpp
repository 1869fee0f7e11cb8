// See vector_math.h.
#include "runtime/llvm/vector_math.h"

#include <dlfcn.h>

#include <algorithm>
#include <map>

#include <llvm/IR/Attributes.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

namespace gpy::cpujit_backend {

namespace {

// libmvec's functions (glibc 2.35) that clang 16's libmvec table lacks, with
// their argument counts. sin, cos, exp, log and pow are in that table already.
struct Function {
    const char* name;
    unsigned args;
};
constexpr Function kFunctions[] = {{"acos", 1},  {"acosh", 1}, {"asin", 1},  {"asinh", 1}, {"atan", 1},  {"atanh", 1},
                                   {"cbrt", 1},  {"cosh", 1},  {"erf", 1},   {"erfc", 1},  {"exp10", 1}, {"exp2", 1},
                                   {"expm1", 1}, {"log10", 1}, {"log1p", 1}, {"log2", 1},  {"sinh", 1},  {"tan", 1},
                                   {"tanh", 1},  {"atan2", 2}, {"hypot", 2}};

bool has(const std::vector<std::string>& features, const char* f) {
    return std::find(features.begin(), features.end(), std::string("+") + f) != features.end();
}

}  // namespace

std::vector<VectorVariant> available_vector_variants(const std::vector<std::string>& features) {
    std::vector<VectorVariant> out;
    void* lib = dlopen("libmvec.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) lib = dlopen("libmvec.so.1", RTLD_NOW);
    if (!lib) return out;
    // ISA letter of the x86-64 vector function ABI, its register width in
    // bits, and whether the host can run it.
    struct Isa {
        char letter;
        unsigned bits;
        bool ok;
    };
    const Isa isas[] = {{'b', 128, has(features, "sse4.1")},
                        {'d', 256, has(features, "avx2") && has(features, "fma")}};
    // Not AVX-512's 'e' variants: with them log10 and exp2 loops ran 4-5x
    // slower than with 'd' (clang's own libmvec table offers 'b' and 'd' only).
    for (const Isa& isa : isas) {
        if (!isa.ok) continue;
        for (const Function& fn : kFunctions) {
            for (bool single : {false, true}) {
                VectorVariant v;
                v.scalar = std::string(fn.name) + (single ? "f" : "");
                v.lanes = isa.bits / (single ? 32 : 64);
                v.args = fn.args;
                // The x86-64 vector ABI's name: _ZGV<isa>N<lanes><'v' per argument>_<scalar>.
                v.vector = std::string("_ZGV") + isa.letter + "N" + std::to_string(v.lanes) + std::string(fn.args, 'v') + "_" + v.scalar;
                if (dlsym(lib, v.vector.c_str())) out.push_back(v);
            }
        }
    }
    return out;
}

std::string describe(const std::vector<VectorVariant>& variants) {
    std::string d;
    for (const auto& v : variants) d += (d.empty() ? "" : ",") + v.vector;
    return d;
}

namespace {
// Clang emits __builtin_exp2f & co. as LLVM intrinsics, not libm calls.
std::string libm_name(const llvm::Function& f) {
    std::string name = f.getName().str();
    for (const char* base : {"exp2", "log2", "log10"}) {
        std::string intrinsic = std::string("llvm.") + base + ".";
        if (name == intrinsic + "f32") return std::string(base) + "f";
        if (name == intrinsic + "f64") return base;
    }
    return name;
}
}  // namespace

void add_vector_variants(llvm::Module& m, const std::vector<VectorVariant>& variants) {
    std::map<std::string, std::vector<const VectorVariant*>> by_name;
    for (const auto& v : variants) by_name[v.scalar].push_back(&v);
    std::vector<llvm::GlobalValue*> keep;
    for (llvm::Function& f : m.functions()) {
        if (!f.isDeclaration() || f.use_empty()) continue;
        auto it = by_name.find(libm_name(f));
        if (it == by_name.end()) continue;
        llvm::Type* elem = f.getReturnType();
        if (!elem->isFloatingPointTy() || f.arg_size() != it->second.front()->args) continue;
        std::string mappings;
        for (const VectorVariant* v : it->second) {
            auto* vty = llvm::FixedVectorType::get(elem, v->lanes);
            auto* fty = llvm::FunctionType::get(vty, std::vector<llvm::Type*>(v->args, vty), false);
            auto* vf = llvm::cast<llvm::Function>(m.getOrInsertFunction(v->vector, fty).getCallee());
            vf->setDoesNotAccessMemory();
            vf->setDoesNotThrow();
            keep.push_back(vf);
            // The VFABI name LLVM's vectoriser reads: _ZGV_LLVM_N<lanes><v per arg>_<scalar>(<vector>).
            mappings += (mappings.empty() ? "" : ",") + std::string("_ZGV_LLVM_N") + std::to_string(v->lanes) +
                        std::string(v->args, 'v') + "_" + f.getName().str() + "(" + v->vector + ")";
        }
        for (llvm::User* u : f.users())
            if (auto* call = llvm::dyn_cast<llvm::CallInst>(u); call && call->getCalledFunction() == &f)
                call->addFnAttr(llvm::Attribute::get(m.getContext(), "vector-function-abi-variant", mappings));
    }
    // Unused declarations would be dropped before the vectoriser looks for them.
    if (!keep.empty()) llvm::appendToCompilerUsed(m, keep);
}

}  // namespace gpy::cpujit_backend
