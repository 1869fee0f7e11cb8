// Scans along an axis (cumsum, cumprod, ufunc.accumulate) and the parts of
// the array module built next to them (nan-reductions, statistics, ufunc
// objects), registered by add_scan_functions.
#pragma once

#include <optional>
#include <type_traits>

#include "lang/interp.h"
#include "base/dtype.h"

namespace gpy {

struct ArrayObj;

enum class ScanOp : uint8_t { Sum, Prod, Max, Min };

// One step of the scan with NumPy's semantics: integers wrap (computed
// unsigned: no C++ overflow), bool sums are `or` and products `and`, maximum
// and minimum propagate NaN.
// A complex element of a scan (cumsum/cumprod only).
template <class F>
struct ScanComplex {
    F re, im;
};

template <ScanOp OP, class T>
inline T scan_combine(T a, T b) {
    if constexpr (requires { a.im; }) {  // ScanComplex: NumPy's textbook complex sum and product
        if constexpr (OP == ScanOp::Sum) return T{a.re + b.re, a.im + b.im};
        else return T{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    } else if constexpr (std::is_same_v<T, bool>) {
        if constexpr (OP == ScanOp::Sum || OP == ScanOp::Max) return a || b;
        else return a && b;
    } else if constexpr (OP == ScanOp::Sum) {
        if constexpr (std::is_integral_v<T>) return T(uint64_t(a) + uint64_t(b));
        else return a + b;
    } else if constexpr (OP == ScanOp::Prod) {
        if constexpr (std::is_integral_v<T>) return T(uint64_t(a) * uint64_t(b));
        else return a * b;
    } else if constexpr (OP == ScanOp::Max) {
        return (a >= b || a != a) ? a : b;
    } else {
        return (a <= b || a != a) ? a : b;
    }
}

// The running `op` of x along `axis` (null or None: over x flattened). The
// accumulator and result dtype is `dtype`, else NumPy's default (sum/prod:
// bool and small ints widen to int64/uint64; max/min: x's dtype). With
// skip_nan, NaNs count as the identity (nancumsum, nancumprod).
Value scan(Interp& in, ScanOp op, const Value& x, const Value* axis, std::optional<DType> dtype, const Value* out,
           bool skip_nan = false);

// A fresh 1-D C-contiguous copy of x's elements in row-major order, cast to t.
Value flat_copy(ArrayObj* x, DType t);

// numpy/nan_reduce.cpp: nansum, nanprod, nanmean, nanvar, nanstd, nanmax, nanmin, nanargmax, nanargmin
void add_nan_reduce_functions(Interp& in, ModuleObj* m);
// numpy/statistics.cpp: median, nanmedian, average, percentile, quantile
void add_statistics_functions(Interp& in, ModuleObj* m);
// numpy/ufunc_object.cpp: the ufunc type and its methods (reduce, accumulate, outer, at)
void install_ufunc_type();

}  // namespace gpy
