// Range fills over cuRAND's Philox layout (runtime/philox.h). Each fills
// outputs [begin, end) of a draw into out[0, end - begin); output i depends
// only on (seed, base, i), so disjoint ranges can run on different threads.
#include "runtime/philox.h"

namespace gpy::philox {

namespace {

// Calls fn(i, block) once per output, computing each counter's block once.
template <class Fn>
void for_each_output(const Stream& s, uint64_t begin, uint64_t end, uint64_t per_group, Fn fn) {
    uint64_t i = begin;
    while (i < end) {
        uint64_t ctr = counter_of(s.base, i, per_group);
        Words b = block(s.seed, ctr, thread_of(i));
        // Outputs sharing this block: the rest of its group (32-bit kinds) or
        // of its half group (doubles).
        uint64_t span = per_group == 1 ? 4 : 2;
        uint64_t stop = (i / span + 1) * span;
        for (; i < stop && i < end; ++i) fn(i, b);
    }
}

}  // namespace

void fill_uint32(const Stream& s, uint64_t begin, uint64_t end, uint32_t* out) {
    for_each_output(s, begin, end, 1, [&](uint64_t i, const Words& b) { out[i - begin] = word(b, i % 4); });
}

void fill_uniform_float(const Stream& s, uint64_t begin, uint64_t end, float* out) {
    for_each_output(s, begin, end, 1, [&](uint64_t i, const Words& b) { out[i - begin] = uniform_float(word(b, i % 4)); });
}

void fill_uniform_double(const Stream& s, uint64_t begin, uint64_t end, double* out) {
    for_each_output(s, begin, end, 2, [&](uint64_t i, const Words& b) {
        out[i - begin] = i % 2 == 0 ? uniform_double(b.x, b.y) : uniform_double(b.z, b.w);
    });
}

// curandGenerateNormal: each pair of outputs (2j, 2j+1) is one Box-Muller
// pair, scaled as cuRAND does (value * stddev + mean, in float).
void fill_normal_float(const Stream& s, uint64_t begin, uint64_t end, float mean, float stddev, float* out) {
    for_each_output(s, begin, end, 1, [&](uint64_t i, const Words& b) {
        float r[2];
        if (i % 4 < 2) box_muller_float(b.x, b.y, &r[0], &r[1]);
        else box_muller_float(b.z, b.w, &r[0], &r[1]);
        out[i - begin] = r[i % 2] * stddev + mean;
    });
}

void fill_normal_double(const Stream& s, uint64_t begin, uint64_t end, double mean, double stddev, double* out) {
    for_each_output(s, begin, end, 2, [&](uint64_t i, const Words& b) {
        double r[2];
        box_muller_double(b.x, b.y, b.z, b.w, &r[0], &r[1]);
        out[i - begin] = r[i % 2] * stddev + mean;
    });
}

uint64_t rounds_used(uint64_t n, uint64_t per_group) {
    uint64_t rounds = (n + kRound - 1) / kRound;
    return per_group * (rounds == 0 ? 1 : rounds);
}

// Lemire's multiply-shift with rejection (unbiased). The first try uses
// output i's word of the 32-bit stream (two words of the double layout for
// spans above 32 bits); retry r uses the same counter with the last counter
// word set to r, so every output's retries are its own.
void fill_bounded(const Stream& s, uint64_t begin, uint64_t end, uint64_t max, uint64_t* out) {
    if (max <= 0xFFFFFFFFull) {
        uint32_t range = uint32_t(max) + 1;  // 0 means 2^32: every word is fine
        uint32_t threshold = range == 0 ? 0 : uint32_t(-range) % range;
        for_each_output(s, begin, end, 1, [&](uint64_t i, const Words& first) {
            uint32_t x = word(first, i % 4);
            for (uint32_t retry = 1;; ++retry) {
                if (range == 0) { out[i - begin] = x; return; }
                uint64_t m = uint64_t(x) * range;
                if (uint32_t(m) >= threshold) { out[i - begin] = m >> 32; return; }
                x = word(block(s.seed, counter_of(s.base, i, 1), thread_of(i), retry), i % 4);
            }
        });
        return;
    }
    uint64_t range = max + 1;  // 0 means 2^64
    uint64_t threshold = range == 0 ? 0 : uint64_t(-range) % range;
    for_each_output(s, begin, end, 2, [&](uint64_t i, const Words& first) {
        Words b = first;
        for (uint32_t retry = 1;; ++retry) {
            uint64_t x = i % 2 == 0 ? (uint64_t(b.y) << 32 | b.x) : (uint64_t(b.w) << 32 | b.z);
            if (range == 0) { out[i - begin] = x; return; }
            unsigned __int128 m = (unsigned __int128)x * range;
            if (uint64_t(m) >= threshold) { out[i - begin] = uint64_t(m >> 64); return; }
            b = block(s.seed, counter_of(s.base, i, 2), thread_of(i), retry);
        }
    });
}

}  // namespace gpy::philox
