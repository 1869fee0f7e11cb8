#include "base/experiments.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace gpy {

Experiments parse_experiments(const std::string& text, std::string* errors) {
    Experiments e;
    auto bad = [&](const std::string& entry, const char* why) {
        if (errors) *errors += "GPY_EXPERIMENTS: ignored '" + entry + "': " + why + "\n";
    };
    std::stringstream in(text);
    std::string entry;
    while (std::getline(in, entry, ',')) {
        if (entry.empty()) continue;
        size_t eq = entry.find('=');
        if (eq == std::string::npos) { bad(entry, "expected key=value"); continue; }
        std::string key = entry.substr(0, eq), value = entry.substr(eq + 1);
        if (key == "kernel_override_dir") e.kernel_override_dir = value;
        else if (key == "nvrtc_extra") e.nvrtc_extra = value;
        else if (key == "nvrtc_fast") {
            if (value == "min" || value == "mid" || value == "max") e.nvrtc_fast = value;
            else bad(entry, "expected min, mid or max");
        } else if (key == "cuda_vec4_grid") {
            if (value == "full") e.cuda_vec4_grid_full = true;
            else bad(entry, "expected full");
        } else if (key == "cuda_reduce_chunk") {
            char* end = nullptr;
            long long v = std::strtoll(value.c_str(), &end, 10);
            if (end && *end == '\0' && v > 0) e.cuda_reduce_chunk = v;
            else bad(entry, "expected a positive integer");
        } else if (key == "phase_times") {
            e.phase_times = value == "1";
        } else {
            bad(entry, "unknown key");
        }
    }
    return e;
}

const Experiments& experiments() {
    static const Experiments e = [] {
        const char* v = std::getenv("GPY_EXPERIMENTS");
        std::string errors;
        Experiments parsed = parse_experiments(v ? v : "", &errors);
        if (!errors.empty()) std::fputs(errors.c_str(), stderr);
        return parsed;
    }();
    return e;
}

}  // namespace gpy
