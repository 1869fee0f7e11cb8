// Reads runtime/llvm/raw_analysis_backend.cpp's description of a CUDA source:
// tab-separated lines "kernel ...", "param ..." (of the kernel above) and
// "global NAME".
#include "runtime/raw_analysis.h"

#include <sstream>

namespace gpy {

namespace {

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t tab; (tab = line.find('\t', from)) != std::string::npos; from = tab + 1) out.push_back(line.substr(from, tab - from));
    out.push_back(line.substr(from));
    return out;
}

}  // namespace

const RawKernelInfo* RawModuleInfo::find(const std::string& name) const {
    for (const RawKernelInfo& k : kernels)
        if (k.name == name && k.name_expression) return &k;  // a name expression's kernel first
    for (const RawKernelInfo& k : kernels)
        if (k.name == name && k.extern_c) return &k;
    return nullptr;
}

RawModuleInfo parse_raw_analysis(const std::string& text, const std::vector<std::string>& name_expressions) {
    RawModuleInfo info;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const std::vector<std::string> f = fields(line);
        if (f[0] == "kernel" && f.size() == 10) {
            RawKernelInfo k;
            k.name = f[1];
            k.extern_c = f[2] == "1";
            if (k.name.size() > 1 && k.name[0] == '#') {
                const size_t i = std::stoul(k.name.substr(1));
                k.name = i < name_expressions.size() ? name_expressions[i] : std::string();
                k.extern_c = false;
                k.name_expression = true;
            }
            k.barriers = f[3] == "1";
            k.shared = f[4] == "1";
            k.callee_state = f[5] == "1";
            k.params_open = std::stol(f[6]);
            k.params_close = std::stol(f[7]);
            k.body_open = std::stol(f[8]);
            k.body_close = std::stol(f[9]);
            info.kernels.push_back(std::move(k));
        } else if (f[0] == "param" && f.size() == 7 && !info.kernels.empty()) {
            RawParam p;
            p.pointer = f[1] == "1";
            p.const_pointee = f[2] == "1";
            p.kind = f[3].empty() ? 'o' : f[3][0];
            p.size = std::stoi(f[4]);
            p.written = f[5] == "1";
            info.kernels.back().params.push_back(p);
            info.kernels.back().param_names.push_back(f[6]);
        } else if (f[0] == "global" && f.size() == 2) {
            info.globals.push_back(f[1]);
        }
    }
    return info;
}

}  // namespace gpy
