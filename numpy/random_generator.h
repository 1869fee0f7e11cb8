// What np.random's two files share: the generator object (random.cpp owns
// the basic draws, integers, permutations and seeding; random_dists.cpp the
// other distributions) and the parameter helpers both use.
#pragma once

#include <initializer_list>
#include <optional>
#include <vector>

#include "runtime/philox.h"
#include "numpy/array.h"
#include "numpy/np_args.h"

namespace gpy::rng {

// A generator is (seed, base): each draw takes whole rounds of Philox
// counters from `base`, so output i of a draw is a function of (seed, base, i).
struct GeneratorObj : Object {
    uint64_t seed = 0;
    uint64_t base = 0;  // the next free round of counters
    explicit GeneratorObj(TypeObject* t, uint64_t s) : Object(t), seed(s) {}

    // Reserves the counters of a draw of n outputs.
    philox::Stream take(uint64_t n, uint64_t per_group) {
        philox::Stream s{seed, base};
        base += philox::rounds_used(n, per_group);
        return s;
    }
};

TypeObject* generator_type();
Value new_generator(uint64_t seed);
inline GeneratorObj* self_of(CallArgs& a) { return a.pos[0].as<GeneratorObj>(); }
// The arguments after self.
inline CallArgs rest(CallArgs& a) { return CallArgs{a.pos + 1, a.npos - 1, a.kw}; }

// Host scratch of n 8-byte values: NumPy's ValueError past int64, the
// interpreter's array limit, then the allocator.
void check_scratch(Interp& in, int64_t n);
// size=: a shape whose samples (8 bytes at most) fit.
std::optional<dag::Shape> size_arg(Interp& in, CallArgs& a, size_t pos);

// A distribution parameter: a Python number, or an array (float64) to broadcast.
struct DrawParam {
    Value value;
    bool is_array;
    double number;
};
DrawParam param(Interp& in, CallArgs& a, size_t pos, const char* name, double dflt);
// The values of an array as float64, C order.
std::vector<double> doubles_of(const Value& v);
// The output shape of a draw with array parameters: size, or their broadcast shape.
dag::Shape draw_shape(const std::optional<dag::Shape>& size, std::initializer_list<const DrawParam*> params);

// Standard normal float64s of `shape` (the GPU fills them on a CUDA backend).
Value normal_doubles(GeneratorObj* g, const dag::Shape& shape, double loc, double scale);

// One method of Generator that is also a legacy np.random function (bound
// to the interpreter's global generator) unless `legacy` is false.
struct MethodSpec {
    const char* name;
    NativeFn fn;
    const char* sig;
    const char* doc;
    bool generator = true;  // a Generator method
    bool legacy = true;     // a np.random function
};
// The distributions of random_dists.cpp.
const std::vector<MethodSpec>& distribution_methods();
// The key of a legacy seed (None: fresh entropy; an int or a sequence of
// ints in [0, 2**32), with NumPy's errors).
uint64_t legacy_seed(Interp& in, const Value* seed);
// RandomState: instances are GeneratorObj with the legacy functions as methods.
TypeObject* random_state_type();

}  // namespace gpy::rng
