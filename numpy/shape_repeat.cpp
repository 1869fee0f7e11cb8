// Copies that repeat or rotate their input: tile, repeat (function and
// method), roll. Each writes a new array through strided views of it, so a
// tile or a scalar repeat is one assignment kernel.
#include "numpy/indexing.h"
#include "numpy/np_args.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using dag::Shape;

namespace {

std::vector<int64_t> ints_of(Interp& in, const Value& v) {
    std::vector<int64_t> out;
    if (is_kind(v, OK::Tuple) || is_kind(v, OK::List) || (as_array(v) && as_array(v)->ndim() > 0))
        for (auto& x : to_vector(in, v)) out.push_back(to_index(x));
    else
        out.push_back(to_index(v));
    return out;
}

Value np_tile(Interp& in, CallArgs& a) {
    Value x = materialized(in, required(a, 0, "A", "tile"));
    std::vector<int64_t> reps = ints_of(in, required(a, 1, "reps", "tile"));
    ArrayObj* xa = x.as<ArrayObj>();
    // Both padded with leading ones to the same length.
    size_t nd = std::max(reps.size(), size_t(xa->ndim()));
    reps.insert(reps.begin(), nd - reps.size(), 1);
    while (size_t(xa->ndim()) < nd) {
        x = insert_axis(xa, 0);
        xa = x.as<ArrayObj>();
    }
    for (int64_t r : reps)
        if (r < 0) raise(types::ValueError, "negative dimensions are not allowed");
    // NumPy's tile repeats one axis at a time: each intermediate must fit,
    // even when a later repeat is 0 (tile(x, (2**62, 0)) raises).
    if (xa->size() > 0) {
        __int128 bytes = __int128(xa->size()) * int64_t(itemsize(xa->dtype));
        for (int64_t r : reps) {
            if (r == 1) continue;
            bytes *= r;
            if (bytes > INT64_MAX)
                raise(types::ValueError, "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
        }
    }
    Shape shape;
    for (size_t d = 0; d < nd; ++d) shape.push_back(size_mul(xa->shape[d], reps[d]));
    Value out = new_array(xa->dtype, shape);
    ArrayObj* o = out.as<ArrayObj>();
    if (o->size() == 0) return out;
    // Output dim d of length r*s seen as (r, s); the source repeats along r (stride 0).
    Shape split;
    std::vector<int64_t> out_strides, src_strides;
    for (size_t d = 0; d < nd; ++d) {
        split.push_back(reps[d]);
        split.push_back(xa->shape[d]);
        out_strides.push_back(xa->shape[d] * o->strides[d]);
        out_strides.push_back(o->strides[d]);
        src_strides.push_back(0);
        src_strides.push_back(xa->strides[d]);
    }
    assign_array(in, view_of(o, split, out_strides, 0), view_of(xa, split, src_strides, xa->offset));
    return out;
}

Value repeat(Interp& in, const Value& input, const Value& repeats, const Value* axis_v) {
    Value x = materialized(in, input);
    int axis = 0;
    if (axis_v && !axis_v->is_none()) axis = normalize_axis(to_index(*axis_v), x.as<ArrayObj>()->ndim());
    else x = ravel_order(x.as<ArrayObj>(), 'C');
    ArrayObj* xa = x.as<ArrayObj>();
    int64_t n = xa->shape[size_t(axis)];
    std::vector<int64_t> reps = ints_of(in, repeats);
    if (reps.size() != 1 && int64_t(reps.size()) != n)
        raise(types::ValueError, "operands could not be broadcast together with shape (" + std::to_string(n) + ",) (" +
                                     std::to_string(reps.size()) + ",)");
    for (int64_t r : reps)
        if (r < 0) raise(types::ValueError, "negative dimensions are not allowed");
    Shape shape = xa->shape;
    if (reps.size() == 1) {
        int64_t r = reps[0];
        shape[size_t(axis)] = size_mul(n, r);  // 4 * 2**62 wraps (NumPy itself crashes there)
        Value out = new_array(xa->dtype, shape);
        ArrayObj* o = out.as<ArrayObj>();
        if (o->size() == 0) return out;
        // The output axis seen as (n, r); the source is constant along r.
        Shape split = xa->shape;
        split.insert(split.begin() + axis + 1, r);
        auto out_strides = o->strides;
        out_strides[size_t(axis)] *= r;
        out_strides.insert(out_strides.begin() + axis + 1, o->strides[size_t(axis)]);
        auto src_strides = xa->strides;
        src_strides.insert(src_strides.begin() + axis + 1, 0);
        assign_array(in, view_of(o, split, out_strides, 0), view_of(xa, split, src_strides, xa->offset));
        return out;
    }
    // Per-element counts: gather the rows (the axis moved first) by an index list.
    int64_t total = 0;
    for (int64_t r : reps) total = size_add(total, r);
    Value idx = new_array(DType::Int64, {total});
    auto* p = reinterpret_cast<int64_t*>(idx.as<ArrayObj>()->buffer.bytes());
    for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < reps[size_t(i)]; ++k) *p++ = i;
    shape[size_t(axis)] = total;
    Value out = new_array(xa->dtype, shape);
    if (out.as<ArrayObj>()->size() == 0) return out;
    Value rows = array_getitem(in, moveaxis_view(xa, axis, 0), idx);
    assign_array(in, moveaxis_view(out.as<ArrayObj>(), axis, 0), rows);
    return out;
}

Value np_repeat(Interp& in, CallArgs& a) {
    return repeat(in, required(a, 0, "a", "repeat"), required(a, 1, "repeats", "repeat"), arg(a, 2, "axis"));
}

Value m_repeat(Interp& in, CallArgs& a) {
    return repeat(in, a.pos[0], required(a, 1, "repeats", "repeat"), arg(a, 2, "axis"));
}

// Copies each block of a roll: per axis, [0, n-s) -> [s, n) and [n-s, n) -> [0, s).
void roll_blocks(Interp& in, ArrayObj* src, ArrayObj* dst, const std::vector<int64_t>& shifts, int axis) {
    if (axis == src->ndim()) {
        assign_array(in, Value::object(dst), Value::object(src));
        return;
    }
    int64_t n = src->shape[size_t(axis)], s = shifts[size_t(axis)];
    if (s == 0) {
        roll_blocks(in, src, dst, shifts, axis + 1);
        return;
    }
    Value s1 = slice_axis(src, axis, 0, n - s), d1 = slice_axis(dst, axis, s, n);
    roll_blocks(in, s1.as<ArrayObj>(), d1.as<ArrayObj>(), shifts, axis + 1);
    Value s2 = slice_axis(src, axis, n - s, n), d2 = slice_axis(dst, axis, 0, s);
    roll_blocks(in, s2.as<ArrayObj>(), d2.as<ArrayObj>(), shifts, axis + 1);
}

Value np_roll(Interp& in, CallArgs& a) {
    Value x = materialized(in, required(a, 0, "a", "roll"));
    const Value& shift = required(a, 1, "shift", "roll");
    const Value* axis_v = arg_not_none(a, 2, "axis");
    ArrayObj* xa = x.as<ArrayObj>();
    Shape original = xa->shape;
    if (!axis_v) {  // roll the flattened array, then restore the shape
        x = ravel_order(xa, 'C');
        xa = x.as<ArrayObj>();
    }
    Value zero = Value::integer(0);
    std::vector<int64_t> sh = ints_of(in, shift);
    std::vector<int64_t> ax = ints_of(in, axis_v ? *axis_v : zero);
    if (sh.size() != ax.size() && sh.size() != 1 && ax.size() != 1)
        raise(types::ValueError, "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (" +
                                     std::to_string(sh.size()) + ",) and arg 1 with shape (" + std::to_string(ax.size()) + ",).");
    // Broadcast as NumPy does: a size-1 side repeats, so an empty side means no roll at all.
    size_t count = sh.size() == 1 ? ax.size() : sh.size();
    // NumPy sums the shifts of an axis as Python ints, then takes them
    // modulo its length: summed modulo the length here (two shifts of -2**63
    // on one axis must not wrap to 0).
    std::vector<int64_t> shifts(size_t(xa->ndim()), 0);
    auto py_mod = [](int64_t v, int64_t n) { return ((v % n) + n) % n; };
    for (size_t k = 0; k < count; ++k) {
        int d = normalize_axis(ax[ax.size() == 1 ? 0 : k], xa->ndim());
        int64_t n = std::max<int64_t>(xa->shape[size_t(d)], 1);
        shifts[size_t(d)] = py_mod(shifts[size_t(d)] + py_mod(sh[sh.size() == 1 ? 0 : k], n), n);
    }
    Value out = new_array_order(xa->dtype, xa->shape, 'K', xa);
    if (xa->size() > 0) roll_blocks(in, xa, out.as<ArrayObj>(), shifts, 0);
    if (!axis_v) return reshape_order(out.as<ArrayObj>(), original, 'C');
    return out;
}

}  // namespace

void add_repeat_functions(Interp&, ModuleObj* m) {
    m->set("tile", make_builtin("tile", np_tile, "tile(A, reps)", "Construct an array by repeating A the number of times given by reps."));
    m->set("repeat", make_builtin("repeat", np_repeat, "repeat(a, repeats, axis=None)", "Repeat each element of an array after themselves."));
    m->set("roll", make_builtin("roll", np_roll, "roll(a, shift, axis=None)", "Roll array elements along a given axis."));
}

void install_repeat_methods() {
    def_method(types::ndarray, "repeat", m_repeat, "ndarray.repeat(repeats, axis=None)", "Repeat elements of an array.");
}

}  // namespace gpy
