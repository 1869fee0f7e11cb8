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

constexpr uint32_t kThreads = 65536;
constexpr uint64_t kRound = 4ull * kThreads;  // outputs per counter of every thread

struct Words {
    uint32_t x, y, z, w;
};

inline Words round1(Words c, uint32_t k0, uint32_t k1) {
    uint64_t p0 = uint64_t(0xD2511F53u) * c.x;
    uint64_t p1 = uint64_t(0xCD9E8D57u) * c.z;
    return Words{uint32_t(p1 >> 32) ^ c.y ^ k0, uint32_t(p1), uint32_t(p0 >> 32) ^ c.w ^ k1, uint32_t(p0)};
}

// The ten rounds with the Weyl key schedule.
inline Words philox4x32_10(Words c, uint32_t k0, uint32_t k1) {
    for (int r = 0; r < 9; ++r) {
        c = round1(c, k0, k1);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return round1(c, k0, k1);
}

// The block of thread t at counter `ctr`; `extra` fills the counter's last
// word, which cuRAND leaves 0 (gpy uses it for rejection-sampling retries).
inline Words block(uint64_t seed, uint64_t ctr, uint32_t t, uint32_t extra = 0) {
    return philox4x32_10(Words{uint32_t(ctr), uint32_t(ctr >> 32), t, extra}, uint32_t(seed), uint32_t(seed >> 32));
}

inline uint32_t word(const Words& b, uint64_t k) { return k == 0 ? b.x : k == 1 ? b.y : k == 2 ? b.z : b.w; }

// Where output i of a draw starting at round `base` comes from: for 32-bit
// kinds one counter per group, for doubles two (`per_group`).
inline uint32_t thread_of(uint64_t i) { return uint32_t((i / 4) % kThreads); }
inline uint64_t counter_of(uint64_t base, uint64_t i, uint64_t per_group) {
    return base + per_group * ((i / 4) / kThreads) + (per_group == 2 ? (i % 4) / 2 : 0);
}

// cuRAND's conversions (curand_uniform.h, curand_normal.h).
constexpr float kInv32 = 2.3283064e-10f;    // CURAND_2POW32_INV
constexpr double kInv53 = 1.1102230246251565e-16;  // CURAND_2POW53_INV_DOUBLE

// curand_uniform: (0, 1]; the conversion rounds large words up to 1.0f.
inline float uniform_float(uint32_t x) { return float(x) * kInv32 + kInv32 / 2.0f; }
// _curand_uniform_double_hq: 53 bits from two words, (0, 1).
inline double uniform_double(uint32_t x, uint32_t y) {
    uint64_t z = uint64_t(x) ^ (uint64_t(y) << (53 - 32));
    return double(z) * kInv53 + kInv53 / 2.0;
}
// _curand_box_muller: two floats from two words. cuRAND's host generator
// calls glibc's logf, sqrtf and sincosf, as this does.
inline void box_muller_float(uint32_t x, uint32_t y, float* r0, float* r1) {
    constexpr float inv_2pi = kInv32 * 6.2831855f;  // CURAND_2POW32_INV_2PI
    float u = float(x) * kInv32 + kInv32 / 2.0f;
    float v = float(y) * inv_2pi + inv_2pi / 2.0f;
    float s = sqrtf(-2.0f * logf(u));
    *r0 = sinf(v) * s;
    *r1 = cosf(v) * s;
}
// _curand_box_muller_double: two doubles from four words.
inline void box_muller_double(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, double* r0, double* r1) {
    double u = uniform_double(x0, x1);
    uint64_t zy = uint64_t(y0) ^ (uint64_t(y1) << (53 - 32));
    double v = double(zy) * (kInv53 * 2.0) + kInv53;
    double s = sqrt(-2.0 * log(u));
    *r0 = sin(v * 3.1415926535897932) * s;
    *r1 = cos(v * 3.1415926535897932) * s;
}

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
