// Functions built on indexing: take, put, take_along_axis, put_along_axis,
// choose, compress, extract, place, putmask (and the take / put / compress
// methods). Most are an index tuple handed to getitem / setitem, so they
// share its checks and error messages; put, place and putmask cycle their
// values over the flat order, which has no index form, and run on the host.
#include <cstring>

#include "numpy/promote.h"
#include "numpy/indexing.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/sort_keys.h"  // flat_nonzero, int64_array
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

namespace {

enum class Mode { Raise, Wrap, Clip };

Mode mode_arg(Interp& in, CallArgs& a, size_t pos) {
    const Value* m = arg(a, pos, "mode");
    if (!m) return Mode::Raise;
    std::string s = is_kind(*m, OK::Str) ? m->as<StrObj>()->s : repr(in, *m);
    if (s == "raise") return Mode::Raise;
    if (s == "wrap") return Mode::Wrap;
    if (s == "clip") return Mode::Clip;
    raise(types::ValueError, "clipmode must be one of 'clip', 'raise', or 'wrap' (got " + repr(in, *m) + ")");
}

ArrayObj* arr(const Value& v) { return v.as<ArrayObj>(); }

// x flattened to 1-D (a view when x is contiguous).
Value ravel(const Value& x) {
    Value c = contiguous_as(arr(x), arr(x)->dtype);
    ArrayObj* a = arr(c);
    return array_from_buffer(a->buffer, a->dtype, {a->size()}, {int64_t(itemsize(a->dtype))}, a->offset);
}

// Indices as a materialised int64 array; with wrap / clip, mapped into [0, n).
Value index_array(Interp& in, const Value& indices, Mode mode, int64_t n) {
    Value ix = contiguous_as(arr(as_array_value(in, indices)), DType::Int64);
    if (mode == Mode::Raise) return ix;
    ArrayObj* x = arr(ix);
    if (n == 0 && x->size() > 0) raise(types::IndexError, "cannot do a non-empty take from an empty axes.");
    Value out = new_array(DType::Int64, x->shape);
    const int64_t* src = reinterpret_cast<const int64_t*>(x->buffer.bytes() + x->offset);
    int64_t* dst = reinterpret_cast<int64_t*>(arr(out)->buffer.bytes());
    for (int64_t k = 0; k < x->size(); ++k) {
        int64_t i = src[k];
        dst[k] = mode == Mode::Wrap ? ((i % n) + n) % n : std::min(std::max<int64_t>(i, 0), n - 1);
    }
    return out;
}

// (slice(None),) * axis + (ix,)
Value along(int axis, const Value& ix) {
    std::vector<Value> items(size_t(axis), make_slice(Value::none(), Value::none(), Value::none()));
    items.push_back(ix);
    return make_tuple(std::move(items));
}

// The result of x[index] as a fresh array (basic indices give views).
Value getitem_copy(Interp& in, const Value& x, const Value& index) {
    Value r = array_getitem(in, x, index);
    ArrayObj* o = arr(r);
    if (o->buffer.get() != arr(x)->buffer.get()) return r;
    Value c = compute_into_new(array_node(o), o->dtype, o->shape);
    set_numpy_scalar(arr(c), o->numpy_scalar);
    return c;
}

Value with_out(Interp& in, CallArgs& a, size_t pos, Value result) {
    const Value* out = out_arg(a, pos, OutWording::CApi);
    if (!out) return result;
    assign_array(in, *out, result);
    return *out;
}

int axis_of(const Value& v, int ndim) { return normalize_axis(to_index(v, "axis"), ndim); }

// np.take(a, indices, axis=None, out=None, mode='raise'); also ndarray.take.
Value np_take(Interp& in, CallArgs& a) {
    const Value* av = arg(a, 0, "a");
    const Value* iv = arg(a, 1, "indices");
    if (!av || !iv) raise(types::TypeError, "take() missing required argument 'indices' (pos 1)");
    Value x = as_array_value(in, *av);
    const Value* axis = arg_not_none(a, 2, "axis");
    int ax = 0;
    if (axis) ax = axis_of(*axis, arr(x)->ndim());
    else x = ravel(x);
    Mode mode = mode_arg(in, a, 4);
    Value ix = index_array(in, *iv, mode, arr(x)->ndim() ? arr(x)->shape[size_t(ax)] : 0);
    return with_out(in, a, 3, getitem_copy(in, x, along(ax, ix)));
}

ArrayObj* target_arg(CallArgs& a, const char* fname, const char* name) {
    const Value* v = arg(a, 0, name);
    if (!v) raise(types::TypeError, std::string(fname) + "() missing required argument '" + name + "' (pos 0)");
    if (!as_array(*v)) raise(types::TypeError, std::string("argument 1 must be numpy.ndarray, not <class '") + type_name(*v) + "'>");
    return as_array(*v);
}

// `values` as a contiguous array of dtype t (cast unsafely, as NumPy's put).
// The values to store, C-contiguous in dtype t, and never the target's own
// memory: a put or place whose values are the target reads them as they were
// (NumPy copies values that overlap a; v0.put(ind, v0)).
Value values_as(Interp& in, const Value& values, DType t) {
    Value v = contiguous_as(arr(as_array_value(in, values)), t);
    if (ArrayObj* src = as_array(values); src && arr(v) == src) return fresh_copy(src);
    return v;
}

// Writes vals[k % nvals] to the element at byte offset offs[k], after the
// pending readers of a's memory have been computed.
void cyclic_store(ArrayObj* a, const std::vector<int64_t>& offs, const Value& vals) {
    int64_t nv = arr(vals)->size();
    if (offs.empty() || nv == 0) return;
    flush_readers(a->buffer.get());
    size_t isz = itemsize(a->dtype);
    const uint8_t* src = arr(vals)->buffer.bytes();
    for (size_t k = 0; k < offs.size(); ++k) std::memcpy(a->buffer.bytes() + offs[k], src + (int64_t(k) % nv) * int64_t(isz), isz);
}

// The byte offsets of t's elements at flat positions.
std::vector<int64_t> offsets_at(ArrayObj* t, const std::vector<int64_t>& positions) {
    std::vector<int64_t> all = flat_offsets(t), offs;
    for (int64_t k : positions) offs.push_back(all[size_t(k)]);
    return offs;
}

// np.put(a, ind, v, mode='raise'); also ndarray.put.
Value np_put(Interp& in, CallArgs& a) {
    ArrayObj* t = target_arg(a, "put", "a");
    // A NumPy scalar is immutable: its put works on a temporary copy.
    Value scratch;
    if (t->numpy_scalar) {
        scratch = compute_into_new(array_node(t), t->dtype, t->shape);
        t = scratch.as<ArrayObj>();
    }
    const Value* iv = arg(a, 1, "ind");
    const Value* vv = arg(a, 2, "v");
    if (!iv || !vv) raise(types::TypeError, "put() missing required argument 'v' (pos 2)");
    materialize(t);
    Mode mode = mode_arg(in, a, 3);
    int64_t n = t->size();
    Value ix = index_array(in, *iv, mode, n);
    Value vals = values_as(in, *vv, t->dtype);
    if (arr(vals)->size() == 0) return Value::none();
    std::vector<int64_t> positions;
    const int64_t* p = reinterpret_cast<const int64_t*>(arr(ix)->buffer.bytes() + arr(ix)->offset);
    for (int64_t k = 0; k < arr(ix)->size(); ++k) {
        int64_t j = p[k] < 0 ? p[k] + n : p[k];
        if (j < 0 || j >= n)
            raise(types::IndexError, "index " + std::to_string(p[k]) + " is out of bounds for axis 0 with size " + std::to_string(n));
        positions.push_back(j);
    }
    cyclic_store(t, offsets_at(t, positions), vals);
    return Value::none();
}

// The fancy index NumPy's take_along_axis / put_along_axis build: `indices`
// on `axis`, and on every other axis an arange shaped to broadcast along it.
// With axis=None, x becomes x flattened.
Value along_axis_index(Interp& in, Value& x, const Value& indices, const Value& axis) {
    Value ind = as_array_value(in, indices);
    if (!is_integer(arr(ind)->dtype)) raise(types::IndexError, "`indices` must be an integer array");
    int ax = 0;
    if (axis.is_none()) {
        if (arr(ind)->ndim() != 1) raise(types::ValueError, "when axis=None, `indices` must have a single dimension.");
        x = ravel(x);
    } else {
        ax = axis_of(axis, arr(x)->ndim());
    }
    int nd = arr(x)->ndim();
    if (arr(ind)->ndim() != nd) raise(types::ValueError, "`indices` and `arr` must have the same number of dimensions");
    std::vector<Value> items;
    for (int d = 0; d < nd; ++d) {
        if (d == ax) {
            items.push_back(ind);
            continue;
        }
        int64_t n = arr(x)->shape[size_t(d)];
        Shape s(size_t(nd), 1);
        s[size_t(d)] = n;
        Value r = new_array(DType::Int64, s);
        int64_t* p = reinterpret_cast<int64_t*>(arr(r)->buffer.bytes());
        for (int64_t i = 0; i < n; ++i) p[i] = i;
        items.push_back(r);
    }
    return make_tuple(std::move(items));
}

// np.take_along_axis(arr, indices, axis)
Value np_take_along_axis(Interp& in, CallArgs& a) {
    const Value* xv = arg(a, 0, "arr");
    const Value* iv = arg(a, 1, "indices");
    const Value* axis = arg(a, 2, "axis");
    if (!xv || !iv || !axis) raise(types::TypeError, "take_along_axis() missing required argument 'axis' (pos 2)");
    Value x = as_array_value(in, *xv);
    Value index = along_axis_index(in, x, *iv, *axis);
    return array_getitem(in, x, index);
}

// np.put_along_axis(arr, indices, values, axis)
Value np_put_along_axis(Interp& in, CallArgs& a) {
    ArrayObj* t = target_arg(a, "put_along_axis", "arr");
    const Value* iv = arg(a, 1, "indices");
    const Value* vals = arg(a, 2, "values");
    const Value* axis = arg(a, 3, "axis");
    if (!iv || !vals || !axis) raise(types::TypeError, "put_along_axis() missing required argument 'axis' (pos 3)");
    Value x = Value::object(t);
    Value index = along_axis_index(in, x, *iv, *axis);
    // axis=None writes through a flat view; NumPy's flat copy of a
    // non-contiguous array is read-only.
    if (arr(x)->buffer.get() != t->buffer.get()) raise(types::ValueError, "assignment destination is read-only");
    array_setitem(in, x, index, *vals);
    return Value::none();
}

// The flat indices of the nonzero entries of `condition`, as int64.
Value nonzero_flat(Interp& in, const Value& condition) {
    return flat_nonzero_array(arr(as_array_value(in, condition)));
}

Value compress(Interp& in, const Value& condition, const Value& a, const Value* axis, CallArgs& args, size_t out_pos) {
    Value c = as_array_value(in, condition);
    if (arr(c)->ndim() != 1) raise(types::ValueError, "condition must be a 1-d array");
    Value x = as_array_value(in, a);
    int ax = 0;
    if (axis) ax = axis_of(*axis, arr(x)->ndim());
    else x = ravel(x);
    return with_out(in, args, out_pos, getitem_copy(in, x, along(ax, nonzero_flat(in, c))));
}

// np.compress(condition, a, axis=None, out=None)
Value np_compress(Interp& in, CallArgs& a) {
    const Value* c = arg(a, 0, "condition");
    const Value* x = arg(a, 1, "a");
    if (!c || !x) raise(types::TypeError, "compress() missing required argument 'a' (pos 1)");
    return compress(in, *c, *x, arg_not_none(a, 2, "axis"), a, 3);
}

// ndarray.compress(condition, axis=None, out=None)
Value m_compress(Interp& in, CallArgs& a) {
    const Value* c = arg(a, 1, "condition");
    if (!c) raise(types::TypeError, "compress() missing required argument 'condition' (pos 1)");
    return compress(in, *c, a.pos[0], arg_not_none(a, 2, "axis"), a, 3);
}

// np.extract(condition, arr): arr's elements where condition (both flattened).
Value np_extract(Interp& in, CallArgs& a) {
    const Value* c = arg(a, 0, "condition");
    const Value* x = arg(a, 1, "arr");
    if (!c || !x) raise(types::TypeError, "extract() missing required argument 'arr' (pos 1)");
    Value flat = ravel(as_array_value(in, *x));
    return getitem_copy(in, flat, nonzero_flat(in, ravel(as_array_value(in, *c))));
}

// The flat positions of the elements of t where mask is true.
std::vector<int64_t> masked_positions(Interp& in, ArrayObj* t, const Value& mask, const char* fname) {
    Value m = as_array_value(in, mask);
    if (arr(m)->size() != t->size()) raise(types::ValueError, std::string(fname) + ": mask and data must be the same size");
    return flat_nonzero(arr(m));
}

// np.place(arr, mask, vals): the k-th True place gets vals[k % len(vals)].
Value np_place(Interp& in, CallArgs& a) {
    ArrayObj* t = target_arg(a, "place", "arr");
    const Value* m = arg(a, 1, "mask");
    const Value* v = arg(a, 2, "vals");
    if (!m || !v) raise(types::TypeError, "place() missing required argument 'vals' (pos 2)");
    materialize(t);
    std::vector<int64_t> offs = offsets_at(t, masked_positions(in, t, *m, "place"));
    Value vals = values_as(in, *v, t->dtype);
    if (!offs.empty() && arr(vals)->size() == 0) raise(types::ValueError, "Cannot insert from an empty array!");
    cyclic_store(t, offs, vals);
    return Value::none();
}

// np.putmask(a, mask, values): a True at flat position i gets values[i % len(values)].
Value np_putmask(Interp& in, CallArgs& a) {
    ArrayObj* t = target_arg(a, "putmask", "a");
    const Value* m = arg(a, 1, "mask");
    const Value* v = arg(a, 2, "values");
    if (!m || !v) raise(types::TypeError, "putmask() missing required argument 'values' (pos 2)");
    materialize(t);
    std::vector<int64_t> positions = masked_positions(in, t, *m, "putmask");
    std::vector<int64_t> offs = offsets_at(t, positions);
    Value vals = values_as(in, *v, t->dtype);
    int64_t nv = arr(vals)->size();
    if (offs.empty() || nv == 0) return Value::none();
    // Reorder the values so that cyclic_store's k-th store takes values[position % nv].
    Value picked = new_array(t->dtype, {int64_t(offs.size())});
    size_t isz = itemsize(t->dtype);
    for (size_t k = 0; k < offs.size(); ++k)
        std::memcpy(arr(picked)->buffer.bytes() + k * isz, arr(vals)->buffer.bytes() + (positions[k] % nv) * int64_t(isz), isz);
    cyclic_store(t, offs, picked);
    return Value::none();
}

// np.choose(a, choices, out=None, mode='raise')
Value np_choose(Interp& in, CallArgs& a) {
    const Value* av = arg(a, 0, "a");
    const Value* cv = arg(a, 1, "choices");
    if (!av || !cv) raise(types::TypeError, "choose() missing required argument 'choices' (pos 1)");
    Value idx = as_array_value(in, *av);
    std::vector<Value> choices;
    std::vector<Operand> ops;
    if (ArrayObj* c = as_array(*cv)) {
        for (int64_t k = 0; k < (c->ndim() ? c->shape[0] : 0); ++k) choices.push_back(array_getitem(in, *cv, Value::integer(k)));
        for (auto& ch : choices) ops.push_back(Operand::array(arr(ch)->dtype));
    } else {
        // Python numbers among the choices are weak (NumPy's common type of
        // [np.float32(1), 2.5] is float32).
        for (auto& c : to_vector(in, *cv)) {
            choices.push_back(as_array_value(in, c));
            ops.push_back(c.is_number() || as_complex(c) ? operand_of(c) : Operand::array(arr(choices.back())->dtype));
        }
    }
    if (choices.empty()) raise(types::ValueError, "0-length sequence.");
    if (!is_integer(arr(idx)->dtype) && arr(idx)->dtype != DType::Bool)
        raise(types::TypeError, "Cannot cast array data from dtype('" + std::string(name(arr(idx)->dtype)) +
                                    "') to dtype('int64') according to the rule 'safe'");
    std::vector<const Shape*> shapes{&arr(idx)->shape};
    for (auto& c : choices) shapes.push_back(&arr(c)->shape);
    DType t = result_type(ops);
    Shape shape = broadcast_shapes(shapes);
    Mode mode = mode_arg(in, a, 3);
    int64_t n = int64_t(choices.size());
    Value ix = index_array(in, compute_into_new(make_cast(array_node(arr(idx)), DType::Int64), DType::Int64, shape), mode, n);
    std::vector<Value> full;
    for (auto& c : choices) full.push_back(compute_into_new(make_cast(array_node(arr(c)), t), t, shape));
    Value out = new_array(t, shape);
    const int64_t* ip = reinterpret_cast<const int64_t*>(arr(ix)->buffer.bytes() + arr(ix)->offset);
    size_t isz = itemsize(t);
    for (int64_t k = 0; k < arr(out)->size(); ++k) {
        int64_t j = ip[k];
        if (j < 0 || j >= n) raise(types::ValueError, "invalid entry in choice array");
        std::memcpy(arr(out)->buffer.bytes() + k * int64_t(isz), arr(full[size_t(j)])->buffer.bytes() + k * int64_t(isz), isz);
    }
    set_numpy_scalar(arr(out), shape.empty());  // a 0-d choice is a NumPy scalar
    return with_out(in, a, 2, out);
}

const FunctionSpec kFunctions[] = {
    {"take", np_take, "take(a, indices, axis=None, out=None, mode='raise')", "Take elements from an array along an axis."},
    {"put", np_put, "put(a, ind, v, mode='raise')", "Replaces specified elements of an array with given values (flat indices, values cycled)."},
    {"take_along_axis", np_take_along_axis, "take_along_axis(arr, indices, axis)", "Take values from the input array by matching 1-d index and data slices."},
    {"put_along_axis", np_put_along_axis, "put_along_axis(arr, indices, values, axis)", "Put values into the destination array by matching 1-d index and data slices."},
    {"choose", np_choose, "choose(a, choices, out=None, mode='raise')", "Construct an array from an index array and a list of arrays to choose from."},
    {"compress", np_compress, "compress(condition, a, axis=None, out=None)", "Return selected slices of an array along given axis."},
    {"extract", np_extract, "extract(condition, arr)", "Return the elements of an array that satisfy some condition."},
    {"place", np_place, "place(arr, mask, vals)", "Change elements of an array based on conditional and input values (values cycled over the True places)."},
    {"putmask", np_putmask, "putmask(a, mask, values)", "Changes elements of an array based on conditional and input values (values[i % len] at flat position i)."},
};

}  // namespace

void add_indexing_functions(Interp&, ModuleObj* m) {
    add_functions(m, kFunctions);
}

void install_indexing_methods() {
    TypeObject* t = types::ndarray;
    def_method(t, "take", np_take, "ndarray.take(indices, axis=None, out=None, mode='raise')", "Return an array formed from the elements of a at the given indices.");
    def_method(t, "put", np_put, "ndarray.put(indices, values, mode='raise')", "Set a.flat[n] = values[n] for all n in indices.");
    def_method(t, "choose", np_choose, "ndarray.choose(choices, out=None, mode='raise')", "Use an index array to construct a new array from a set of choices.");
    def_method(t, "compress", m_compress, "ndarray.compress(condition, axis=None, out=None)", "Return selected slices of this array along given axis.");
}

}  // namespace gpy
