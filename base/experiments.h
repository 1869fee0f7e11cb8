// Experiment knobs: settings for measuring variants of generated kernels and
// their launches (bench/gpu/kernel_lab.py, bench/README.md), not for users.
// They all come from one environment variable, read once per process:
//
//   GPY_EXPERIMENTS="key=value,key=value"
//     kernel_override_dir=DIR  DIR/NAME.cu replaces kernel NAME's text (the format --dump-kernels writes)
//     nvrtc_extra=OPTIONS      NVRTC options appended after gpy's (space-separated, e.g. --fmad=true)
//     nvrtc_fast=min|mid|max   --Ofast-compile= for compiles a launch waits for
//     cuda_vec4_grid=full      every vector kernel gets a thread per vector (no grid-stride loop)
//     cuda_reduce_chunk=N      at least N elements per thread in full reductions (default 64)
//     phase_times=1            host time per phase of each statement's kernels, printed at exit
//
// A malformed entry is reported on stderr once and ignored.
#pragma once

#include <cstdint>
#include <string>

namespace gpy {

struct Experiments {
    std::string kernel_override_dir;
    std::string nvrtc_extra;
    std::string nvrtc_fast;
    bool cuda_vec4_grid_full = false;
    int64_t cuda_reduce_chunk = 64;
    bool phase_times = false;
};

// The process's knobs, parsed from $GPY_EXPERIMENTS on first use.
const Experiments& experiments();
// Parses a GPY_EXPERIMENTS value (exposed for the unit tests); bad entries
// are appended to `errors`, one line each.
Experiments parse_experiments(const std::string& text, std::string* errors = nullptr);

}  // namespace gpy
