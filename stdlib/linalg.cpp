// Matrix products. Today: a fused multiply-and-reduce kernel over broadcast
// views (correct for any dtype, not yet BLAS-fast); OpenBLAS / cuBLAS arrive
// with the linalg work.
#include "stdlib/array.h"
#include "stdlib/module_parts.h"
#include "stdlib/reduce.h"
#include "stdlib/ufuncs.h"

namespace gpy {

using namespace dag;

Value matmul(Interp& in, const Value& av, const Value& bv) {
    Value A = as_array_value(in, av), B = as_array_value(in, bv);
    ArrayObj* a = A.as<ArrayObj>();
    ArrayObj* b = B.as<ArrayObj>();
    if (a->ndim() == 0 || b->ndim() == 0)
        raise(types::ValueError, "matmul: Input operand " + std::string(a->ndim() == 0 ? "0" : "1") +
                                     " does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)");
    if (a->ndim() > 2 || b->ndim() > 2) raise(types::NotImplementedError, "matmul of stacked (3-D+) arrays is not supported yet");
    materialize(a);
    materialize(b);
    bool a1 = a->ndim() == 1, b1 = b->ndim() == 1;
    int64_t n = a1 ? 1 : a->shape[0], k = a->shape[size_t(a->ndim() - 1)];
    int64_t kb = b->shape[0], m = b1 ? 1 : b->shape[1];
    if (k != kb)
        raise(types::ValueError, "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size " +
                                     std::to_string(kb) + " is different from " + std::to_string(k) + ")");
    // a as (n, k, 1), b as (1, k, m): their product reduced over axis 1.
    int64_t as0 = a1 ? 0 : a->strides[0], as1 = a->strides[size_t(a->ndim() - 1)];
    int64_t bs0 = b->strides[0], bs1 = b1 ? 0 : b->strides[1];
    Value av3 = array_from_buffer(a->buffer, a->dtype, {n, k, 1}, {as0, as1, 0}, a->offset);
    Value bv3 = array_from_buffer(b->buffer, b->dtype, {1, k, m}, {0, bs0, bs1}, b->offset);
    Value prod = apply_ufunc(in, "multiply", {av3, bv3});
    Value axis = Value::integer(1);
    ReduceOptions o;
    o.axis = &axis;
    Value r = reduce(in, ReduceOp::Sum, prod, o);
    // Drop the dims that 1-D operands did not have.
    ArrayObj* ra = r.as<ArrayObj>();
    materialize(ra);
    Shape shape;
    std::vector<int64_t> strides;
    if (!a1) { shape.push_back(n); strides.push_back(ra->strides[0]); }
    if (!b1) { shape.push_back(m); strides.push_back(ra->strides[1]); }
    Value out = array_from_buffer(ra->buffer, ra->dtype, shape, strides, ra->offset);
    out.as<ArrayObj>()->numpy_scalar = shape.empty();
    return out;
}

void add_linalg_functions(Interp& in, ModuleObj* m) {}
void install_linalg_methods() {}

}  // namespace gpy
