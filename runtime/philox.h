// Philox4x32-10 (Salmon et al., Random123) laid out exactly like cuRAND's
// host and device generator CURAND_RNG_PSEUDO_PHILOX4_32_10 (default
// ordering), so a CUDA kernel can later produce the same numbers for the same
// seed and offset.
//
// The core (this header) is plain functions on 32-bit words with no STL and no
// state, so the same text can be emitted into a CUDA kernel. Layout of
// cuRAND's generator (found by comparing with libcurand, checked in
// tests/unit/test_philox.cpp): it runs kThreads "threads"; thread t owns the
// Philox counters (c, 0, t, 0) under key (seed low, seed high). A draw of 32-bit
// outputs hands groups of 4 outputs round-robin to the threads: group g goes
// to thread g % kThreads, its (g / kThreads)-th counter. Doubles (uniform and
// normal) take 2 counters per group of 4 outputs.
//
// gpy's streams start every draw at a "round": an offset that is a multiple
// of kRound outputs, where all threads start at the same counter `base`.
// There cuRAND's curandSetGeneratorOffset(base * kRound) gives exactly these
// numbers for every output kind (at other offsets cuRAND's double draws reuse
// counters of earlier draws, which gpy avoids).
#pragma once

#include <cmath>
#include <cstdint>

// cuRAND's host code has no fused multiply-adds; keep them out here too (a
// CUDA kernel needs __fmul_rn/__fadd_rn for the same reason). GCC contracts
// only where the target has FMA, which the default x86-64 target lacks.
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

namespace gpy::philox {

#define GPY_PHILOX_FN inline
#include "runtime/philox_core.inc"
#undef GPY_PHILOX_FN

// ---- host fills (philox.cpp): outputs [begin, end) of one draw into out[0, end - begin) ----

// A draw: the key and the round (counter) every thread starts at.
struct Stream {
    uint64_t seed;
    uint64_t base;
};
// curandGenerate, curandGenerateUniform, curandGenerateUniformDouble,
// curandGenerateNormal, curandGenerateNormalDouble at offset base * kRound.
void fill_uint32(const Stream& s, uint64_t begin, uint64_t end, uint32_t* out);
void fill_uniform_float(const Stream& s, uint64_t begin, uint64_t end, float* out);
void fill_uniform_double(const Stream& s, uint64_t begin, uint64_t end, double* out);
void fill_normal_float(const Stream& s, uint64_t begin, uint64_t end, float mean, float stddev, float* out);
void fill_normal_double(const Stream& s, uint64_t begin, uint64_t end, double mean, double stddev, double* out);
// Unbiased integers in [0, max] (gpy's own; not a cuRAND function).
void fill_bounded(const Stream& s, uint64_t begin, uint64_t end, uint64_t max, uint64_t* out);
// How far `base` moves after a draw of n outputs taking per_group counters per
// group of 4 (1 for 32-bit kinds and bounded spans up to 2^32, else 2).
uint64_t rounds_used(uint64_t n, uint64_t per_group);

}  // namespace gpy::philox
