// GPY_EXPERIMENTS parsing (base/experiments.h): the one entry point of the
// bench/ harnesses' knobs.
#include <catch2/catch.hpp>

#include "base/experiments.h"

using namespace gpy;

TEST_CASE("experiments: defaults when unset") {
    Experiments e = parse_experiments("");
    CHECK(e.kernel_override_dir.empty());
    CHECK(e.nvrtc_extra.empty());
    CHECK(e.nvrtc_fast.empty());
    CHECK_FALSE(e.cuda_vec4_grid_full);
    CHECK(e.cuda_reduce_chunk == 64);
    CHECK_FALSE(e.phase_times);
}

TEST_CASE("experiments: every key, values holding '='") {
    std::string errors;
    Experiments e = parse_experiments(
        "kernel_override_dir=/tmp/k,nvrtc_extra=--fmad=true --extra-device-vectorization,nvrtc_fast=max,"
        "cuda_vec4_grid=full,cuda_reduce_chunk=256,phase_times=1",
        &errors);
    CHECK(errors.empty());
    CHECK(e.kernel_override_dir == "/tmp/k");
    CHECK(e.nvrtc_extra == "--fmad=true --extra-device-vectorization");
    CHECK(e.nvrtc_fast == "max");
    CHECK(e.cuda_vec4_grid_full);
    CHECK(e.cuda_reduce_chunk == 256);
    CHECK(e.phase_times);
}

TEST_CASE("experiments: bad entries are reported and ignored") {
    std::string errors;
    Experiments e = parse_experiments("phase_times,nvrtc_fast=fastest,cuda_reduce_chunk=-3,cuda_reduce_chunk=12x,colour=red,,cuda_vec4_grid=full", &errors);
    CHECK(e.cuda_vec4_grid_full);
    CHECK(e.nvrtc_fast.empty());
    CHECK(e.cuda_reduce_chunk == 64);
    CHECK_FALSE(e.phase_times);
    CHECK(errors.find("'phase_times': expected key=value") != std::string::npos);
    CHECK(errors.find("'nvrtc_fast=fastest': expected min, mid or max") != std::string::npos);
    CHECK(errors.find("'cuda_reduce_chunk=-3': expected a positive integer") != std::string::npos);
    CHECK(errors.find("'cuda_reduce_chunk=12x'") != std::string::npos);
    CHECK(errors.find("'colour=red': unknown key") != std::string::npos);
}
