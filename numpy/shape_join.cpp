// Joining and splitting: concatenate, stack, vstack, hstack, dstack,
// column_stack (copies, one assignment kernel per input) and split,
// array_split, hsplit, vsplit, dsplit (lists of views).
#include "numpy/promote.h"
#include "numpy/np_args.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using dag::Shape;

namespace {

struct JoinOptions {
    const Value* out = nullptr;
    std::optional<DType> dtype;
    Casting casting = Casting::SameKind;
};

// out=, dtype= and casting= (keyword-only except concatenate's positional out).
JoinOptions join_options(Interp& in, CallArgs& a, size_t out_pos) {
    JoinOptions o;
    o.out = out_arg(a, out_pos, OutWording::Quoted);
    if (const Value* d = kwarg(a, "dtype"); d && !d->is_none()) o.dtype = to_dtype(in, *d);
    o.casting = casting_arg(kwarg(a, "casting"), Casting::SameKind);
    return o;
}

std::vector<Value> arrays_of(Interp& in, const Value& seq) {
    std::vector<Value> xs;
    for (auto& v : to_vector(in, seq)) xs.push_back(as_array_value(in, v));
    return xs;
}

// np.concatenate of arrays along `axis` (None: the flattened arrays).
Value concatenate(Interp& in, std::vector<Value> xs, const Value* axis, const JoinOptions& o) {
    if (xs.empty()) raise(types::ValueError, "need at least one array to concatenate");
    int64_t ax = 0;
    if (axis && !axis->is_none()) ax = to_index(*axis);
    else
        for (auto& x : xs) x = ravel_order(materialized(in, x).as<ArrayObj>(), 'C');
    const ArrayObj* first = xs[0].as<ArrayObj>();
    if (first->ndim() == 0) raise(types::ValueError, "zero-dimensional arrays cannot be concatenated");
    int nd = first->ndim();
    int d = normalize_axis(ax, nd);
    Shape shape = first->shape;
    shape[size_t(d)] = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
        const ArrayObj* x = xs[i].as<ArrayObj>();
        if (x->ndim() != nd)
            raise(types::ValueError, "all the input arrays must have same number of dimensions, but the array at index 0 has " +
                                         std::to_string(nd) + " dimension(s) and the array at index " + std::to_string(i) +
                                         " has " + std::to_string(x->ndim()) + " dimension(s)");
        for (int k = 0; k < nd; ++k)
            if (k != d && x->shape[size_t(k)] != first->shape[size_t(k)])
                raise(types::ValueError, "all the input array dimensions except for the concatenation axis must match exactly, but along dimension " +
                                             std::to_string(k) + ", the array at index 0 has size " + std::to_string(first->shape[size_t(k)]) +
                                             " and the array at index " + std::to_string(i) + " has size " + std::to_string(x->shape[size_t(k)]));
        shape[size_t(d)] += x->shape[size_t(d)];
    }
    if (o.out && o.dtype)
        raise(types::TypeError, "concatenate() only takes `out` or `dtype` as an argument, but both were provided.");
    ArrayObj* out = o.out ? as_array(*o.out) : nullptr;
    if (o.out && !out) raise(types::TypeError, "'out' must be an array");
    DType t;
    if (out) t = out->dtype;
    else if (o.dtype) t = *o.dtype;
    else {
        std::vector<Operand> ops;
        for (auto& x : xs) ops.push_back(Operand::array(x.as<ArrayObj>()->dtype));
        t = result_type(ops);
    }
    for (auto& x : xs) {
        DType from = x.as<ArrayObj>()->dtype;
        if (!can_cast(from, t, o.casting))
            raise(types::TypeError, std::string("Cannot cast array data from dtype('") + name(from) + "') to dtype('" + name(t) +
                                        "') according to the rule '" + casting_name(o.casting) + "'");
    }
    if (out && out->shape != shape) raise(types::ValueError, "Output array is the wrong shape");
    Value result = out ? *o.out : new_array(t, shape);
    ArrayObj* r = result.as<ArrayObj>();
    int64_t pos = 0;
    for (auto& x : xs) {
        int64_t n = x.as<ArrayObj>()->shape[size_t(d)];
        if (n > 0 && r->size() > 0) assign_array(in, slice_axis(r, d, pos, pos + n), x);
        pos += n;
    }
    return result;
}

Value np_concatenate(Interp& in, CallArgs& a) {
    const Value& seq = required(a, 0, "arrays", "concatenate");
    const Value* axis = arg(a, 1, "axis");
    Value zero = Value::integer(0);
    return concatenate(in, arrays_of(in, seq), axis ? axis : &zero, join_options(in, a, 2));
}

Value np_stack(Interp& in, CallArgs& a) {
    std::vector<Value> xs = arrays_of(in, required(a, 0, "arrays", "stack"));
    if (xs.empty()) raise(types::ValueError, "need at least one array to stack");
    for (auto& x : xs)
        if (x.as<ArrayObj>()->shape != xs[0].as<ArrayObj>()->shape) raise(types::ValueError, "all input arrays must have the same shape");
    const Value* axis = arg(a, 1, "axis");
    int d = normalize_axis(axis ? to_index(*axis) : 0, xs[0].as<ArrayObj>()->ndim() + 1);
    for (auto& x : xs) x = insert_axis(materialized(in, x).as<ArrayObj>(), d);
    Value dv = Value::integer(d);
    return concatenate(in, xs, &dv, join_options(in, a, 2));
}

// vstack / hstack / dstack: atleast_nd of each input, then concatenate.
template <int N>
Value stack_nd(Interp& in, CallArgs& a, const char* fname) {
    std::vector<Value> xs;
    for (auto& v : to_vector(in, required(a, 0, "tup", fname))) xs.push_back(atleast_nd(in, v, N));
    int axis = N == 2 ? 0 : N == 3 ? 2 : (!xs.empty() && xs[0].as<ArrayObj>()->ndim() == 1 ? 0 : 1);
    Value av = Value::integer(axis);
    JoinOptions o = join_options(in, a, size_t(-1));
    return concatenate(in, xs, &av, o);
}

Value np_vstack(Interp& in, CallArgs& a) { return stack_nd<2>(in, a, "vstack"); }
Value np_hstack(Interp& in, CallArgs& a) { return stack_nd<1>(in, a, "hstack"); }
Value np_dstack(Interp& in, CallArgs& a) { return stack_nd<3>(in, a, "dstack"); }

Value np_column_stack(Interp& in, CallArgs& a) {
    std::vector<Value> xs;
    for (auto& v : to_vector(in, required(a, 0, "tup", "column_stack"))) {
        Value x = materialized(in, v);
        ArrayObj* xa = x.as<ArrayObj>();
        // 0-d and 1-d inputs become columns: (N,) -> (N, 1).
        if (xa->ndim() == 0) x = insert_axis(insert_axis(xa, 0).as<ArrayObj>(), 0);
        else if (xa->ndim() == 1) x = insert_axis(xa, 1);
        xs.push_back(x);
    }
    Value one = Value::integer(1);
    return concatenate(in, xs, &one, JoinOptions{});
}

// ---- splitting ----

// array_split: a list of views along `axis`.
Value split_views(Interp& in, const Value& ary, const Value& sections, const Value* axis_v, bool equal) {
    Value x = materialized(in, ary);
    ArrayObj* xa = x.as<ArrayObj>();
    int64_t axis = axis_v ? to_index(*axis_v) : 0;
    if (axis < -xa->ndim() || axis >= xa->ndim()) raise(types::IndexError, "tuple index out of range");
    int d = normalize_axis(axis, xa->ndim());
    int64_t n = xa->shape[size_t(d)];
    std::vector<int64_t> points;
    // NumPy tries len(): a NumPy scalar or 0-d array is a count of sections.
    if (is_kind(sections, OK::Tuple) || is_kind(sections, OK::List) || (as_array(sections) && as_array(sections)->ndim() > 0)) {
        points.push_back(0);
        for (auto& v : to_vector(in, sections)) points.push_back(to_index(v));
        points.push_back(n);
    } else {
        int64_t k = to_index(sections);
        if (equal && k != 0 && n % k != 0) raise(types::ValueError, "array split does not result in an equal division");
        if (k <= 0) raise(types::ValueError, "number sections must be larger than 0.");
        int64_t each = n / k, extras = n % k;
        // k sections are k list items: more than memory holds is a MemoryError
        // before allocating (NumPy's list of k section sizes fails the same way).
        constexpr uint64_t kPerSection = sizeof(int64_t) + sizeof(Value);
        check_host_bytes(in, uint64_t(k) > UINT64_MAX / kPerSection ? UINT64_MAX : uint64_t(k) * kPerSection);
        points.push_back(0);
        for (int64_t i = 0; i < k; ++i) points.push_back(points.back() + each + (i < extras ? 1 : 0));
    }
    std::vector<Value> out;
    for (size_t i = 0; i + 1 < points.size(); ++i) {
        int64_t b = clamp_index(points[i], n), e = clamp_index(points[i + 1], n);
        out.push_back(slice_axis(xa, d, b, std::max(b, e)));
    }
    return make_list(std::move(out));
}

Value np_split(Interp& in, CallArgs& a) {
    return split_views(in, required(a, 0, "ary", "split"), required(a, 1, "indices_or_sections", "split"), arg(a, 2, "axis"), true);
}

Value np_array_split(Interp& in, CallArgs& a) {
    return split_views(in, required(a, 0, "ary", "array_split"), required(a, 1, "indices_or_sections", "array_split"),
                       arg(a, 2, "axis"), false);
}

// hsplit / vsplit / dsplit: split along a fixed axis of arrays of at least `min_nd` dims.
Value split_along(Interp& in, CallArgs& a, const char* fname, int min_nd, int axis) {
    Value x = materialized(in, required(a, 0, "ary", fname));
    int nd = x.as<ArrayObj>()->ndim();
    if (nd < min_nd) {
        static const char* words[] = {"", "1 or more", "2 or more", "3 or more"};
        raise(types::ValueError, std::string(fname) + " only works on arrays of " + words[min_nd] + " dimensions");
    }
    if (min_nd == 1 && nd == 1) axis = 0;  // hsplit of a 1-D array
    Value av = Value::integer(axis);
    return split_views(in, x, required(a, 1, "indices_or_sections", fname), &av, true);
}

Value np_hsplit(Interp& in, CallArgs& a) { return split_along(in, a, "hsplit", 1, 1); }
Value np_vsplit(Interp& in, CallArgs& a) { return split_along(in, a, "vsplit", 2, 0); }
Value np_dsplit(Interp& in, CallArgs& a) { return split_along(in, a, "dsplit", 3, 2); }

const FunctionSpec kFunctions[] = {
    {"concatenate", np_concatenate, "concatenate(arrays, axis=0, out=None, *, dtype=None, casting='same_kind')", "Join a sequence of arrays along an existing axis."},
    {"stack", np_stack, "stack(arrays, axis=0, out=None, *, dtype=None, casting='same_kind')", "Join a sequence of arrays along a new axis."},
    {"vstack", np_vstack, "vstack(tup, *, dtype=None, casting='same_kind')", "Stack arrays in sequence vertically (row wise)."},
    {"hstack", np_hstack, "hstack(tup, *, dtype=None, casting='same_kind')", "Stack arrays in sequence horizontally (column wise)."},
    {"dstack", np_dstack, "dstack(tup)", "Stack arrays in sequence depth wise (along the third axis)."},
    {"column_stack", np_column_stack, "column_stack(tup)", "Stack 1-D arrays as columns into a 2-D array."},
    {"split", np_split, "split(ary, indices_or_sections, axis=0)", "Split an array into multiple sub-arrays as views."},
    {"array_split", np_array_split, "array_split(ary, indices_or_sections, axis=0)", "Split an array into multiple sub-arrays (unequal sizes allowed)."},
    {"hsplit", np_hsplit, "hsplit(ary, indices_or_sections)", "Split an array horizontally (column-wise)."},
    {"vsplit", np_vsplit, "vsplit(ary, indices_or_sections)", "Split an array vertically (row-wise)."},
    {"dsplit", np_dsplit, "dsplit(ary, indices_or_sections)", "Split an array along the third axis (depth)."},
};

}  // namespace

void add_join_functions(Interp&, ModuleObj* m) {
    add_functions(m, kFunctions);
}

}  // namespace gpy
