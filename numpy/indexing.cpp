// Indexing: classifying an index, basic indices as views, and the dispatch of
// `x[i]` / `x[i] = v` between views and advanced (copying) indexing.
#include <cstring>
#include "numpy/indexing.h"
#include "runtime/array_context.h"

#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

[[noreturn]] static void bad_index() {
    raise(types::IndexError, "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices");
}

[[noreturn]] static void non_integer_array() {
    raise(types::IndexError, "arrays used as indices must be of integer (or boolean) type");
}

int64_t read_index(DType t, const uint8_t* p) {
    switch (t) {
        case DType::Bool: return *p != 0;
        case DType::Int8: return *reinterpret_cast<const int8_t*>(p);
        case DType::Int16: return *reinterpret_cast<const int16_t*>(p);
        case DType::Int32: return *reinterpret_cast<const int32_t*>(p);
        case DType::Int64: return *reinterpret_cast<const int64_t*>(p);
        case DType::UInt8: return *p;
        case DType::UInt16: return *reinterpret_cast<const uint16_t*>(p);
        case DType::UInt32: return *reinterpret_cast<const uint32_t*>(p);
        // NumPy casts index arrays to intp: huge uint64 values wrap negative.
        case DType::UInt64: return int64_t(*reinterpret_cast<const uint64_t*>(p));
        default: non_integer_array();
    }
}

// A list used as an index holds numbers, arrays and nested sequences only
// (NumPy 2 no longer reads a list of slices as a tuple).
static bool numeric_sequence(const Value& v) {
    if (v.is_number() || as_array(v)) return true;
    if (!is_kind(v, OK::List) && !is_kind(v, OK::Tuple)) return false;
    const auto& items = is_kind(v, OK::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
    for (auto& it : items)
        if (!numeric_sequence(it)) return false;
    return true;
}

static IndexItem classify(Interp& in, const Value& v) {
    using K = IndexItem::Kind;
    if (v.is_none()) return {K::NewAxis};
    if (v.is_obj() && v.o->type == types::ellipsis) return {K::Ellipsis};
    // Python bools are 0-d boolean indices, not integers.
    if (v.is_bool()) return {K::Bool0d, int64_t(v.b)};
    if (v.is_int()) return {K::Int, v.i};
    if (v.is_obj() && v.o->type == types::slice) return {K::Slice, 0, v};
    Value arr = v;
    if (is_kind(v, OK::List) || is_kind(v, OK::Tuple)) {
        if (!numeric_sequence(v)) bad_index();
        arr = as_array_value(in, v);
        // An empty list is an empty integer index, not float64.
        if (as_array(arr)->size() == 0) arr = new_array(DType::Int64, as_array(arr)->shape);
        if (as_array(arr)->dtype != DType::Bool && !is_integer(as_array(arr)->dtype)) bad_index();
    }
    ArrayObj* x = as_array(arr);
    if (!x) bad_index();
    materialize(x);
    bool boolean = x->dtype == DType::Bool;
    if (!boolean && !is_integer(x->dtype)) {
        if (x->ndim() == 0 && x->numpy_scalar) bad_index();  // np.float64(1) is a scalar, not an array
        non_integer_array();
    }
    if (x->ndim() == 0) {
        int64_t i = read_index(x->dtype, x->buffer.bytes() + x->offset);
        return {boolean ? K::Bool0d : K::Int, i};
    }
    return {K::Array, 0, arr};
}

Index parse_index(Interp& in, const Value& index, int ndim) {
    Index ix;
    auto add = [&](const Value& v) {
        IndexItem it = classify(in, v);
        if (it.kind == IndexItem::Kind::Ellipsis)
            for (auto& prev : ix.items)
                if (prev.kind == IndexItem::Kind::Ellipsis)
                    raise(types::IndexError, "an index can only have a single ellipsis ('...')");
        if (it.kind == IndexItem::Kind::Array || it.kind == IndexItem::Kind::Bool0d) ix.advanced = true;
        ix.items.push_back(std::move(it));
    };
    if (is_kind(index, OK::Tuple))
        for (auto& v : index.as<TupleObj>()->items) add(v);
    else
        add(index);
    int consumed = 0;
    for (auto& it : ix.items) consumed += it.consumed();
    if (consumed > ndim)
        raise(types::IndexError, "too many indices for array: array is " + std::to_string(ndim) + "-dimensional, but " +
                                     std::to_string(consumed) + " were indexed");
    return ix;
}

// The view a basic index (no arrays) selects.
struct View {
    Shape shape;
    std::vector<int64_t> strides;
    int64_t offset = 0;
    bool all_integers = true;  // every dim taken by an integer: a scalar
};

static View basic_view(ArrayObj* a, const Index& ix) {
    int consumed = 0;
    for (auto& it : ix.items) consumed += it.consumed();
    View v;
    v.offset = a->offset;
    int dim = 0;
    auto keep_dim = [&](int d) {
        v.shape.push_back(a->shape[size_t(d)]);
        v.strides.push_back(a->strides[size_t(d)]);
        v.all_integers = false;
    };
    for (auto& it : ix.items) {
        switch (it.kind) {
            case IndexItem::Kind::NewAxis:
                v.shape.push_back(1);
                v.strides.push_back(0);
                v.all_integers = false;
                break;
            case IndexItem::Kind::Ellipsis:
                for (int k = 0; k < a->ndim() - consumed; ++k) keep_dim(dim++);
                v.all_integers = false;
                break;
            case IndexItem::Kind::Int: {
                int64_t n = a->shape[size_t(dim)];
                int64_t j = it.i < 0 ? it.i + n : it.i;
                if (j < 0 || j >= n)
                    raise(types::IndexError, "index " + std::to_string(it.i) + " is out of bounds for axis " +
                                                 std::to_string(dim) + " with size " + std::to_string(n));
                v.offset += j * a->strides[size_t(dim)];
                ++dim;
                break;
            }
            case IndexItem::Kind::Slice: {
                int64_t b, e, st, cnt;
                it.v.as<SliceObj>()->indices(a->shape[size_t(dim)], b, e, st, cnt);
                v.shape.push_back(cnt);
                // stride * step, wrapping as NumPy's C does (x[::2**62] of one
                // element: the step is never taken, but strides shows it).
                v.strides.push_back(int64_t(uint64_t(a->strides[size_t(dim)]) * uint64_t(st)));
                if (cnt > 0) v.offset += b * a->strides[size_t(dim)];
                v.all_integers = false;
                ++dim;
                break;
            }
            default: bad_index();  // arrays take the advanced path
        }
    }
    while (dim < a->ndim()) keep_dim(dim++);
    return v;
}

// x[i, j] of every axis: a NumPy scalar holding a copy of the element, so
// that later writes to x leave it alone (a view would change with them). On
// the host a memcpy; on a device an asynchronous copy kernel.
Value scalar_copy(ArrayObj* a, int64_t offset) {
    Value out;
    if (a->buffer->device == DeviceKind::CPU) {
        HostArraysScope host;  // a host scalar's element stays a host scalar on a GPU context
        out = new_array(a->dtype, {});
        ArrayObj* o = out.as<ArrayObj>();
        if (o->buffer->device == DeviceKind::CPU) {
            std::memcpy(o->buffer.bytes() + o->offset, a->buffer.bytes() + offset, itemsize(a->dtype));
            set_numpy_scalar(o, true);
            return out;
        }
    }
    out = compute_into_new(dag::make_input(a->buffer, a->dtype, {}, {}, offset), a->dtype, {});
    set_numpy_scalar(out.as<ArrayObj>(), true);
    return out;
}

Value array_getitem(Interp& in, const Value& self, const Value& index) {
    ArrayObj* a = self.as<ArrayObj>();
    Index ix = parse_index(in, index, a->ndim());
    materialize(a);
    if (ix.advanced) return advanced_get(a, ix);
    View v = basic_view(a, ix);
    if (v.all_integers && v.shape.empty()) return scalar_copy(a, v.offset);
    return array_from_buffer(a->buffer, a->dtype, v.shape, v.strides, v.offset);
}

Value drop_leading_ones(const Value& value, size_t ndim) {
    ArrayObj* s = as_array(value);
    if (!s || size_t(s->ndim()) <= ndim || s->shape[0] != 1) return value;
    materialize(s);
    Shape shape = s->shape;
    std::vector<int64_t> strides = s->strides;
    while (shape.size() > ndim && shape[0] == 1) {
        shape.erase(shape.begin());
        strides.erase(strides.begin());
    }
    return array_from_buffer(s->buffer, s->dtype, shape, strides, s->offset);
}

// a[mask] = scalar with a mask of a's full shape: one kernel writing
// where(mask, scalar, a) over a in place, instead of a scatter through the
// selected offsets. Returns false when the index or value is another form.
static bool full_mask_fill(Interp& in, const Value& self, const Index& ix, const Value& value) {
    ArrayObj* a = self.as<ArrayObj>();
    if (ix.items.size() != 1 || ix.items[0].kind != IndexItem::Kind::Array) return false;
    ArrayObj* mask = as_array(ix.items[0].v);
    if (!mask || mask->dtype != DType::Bool || mask->shape != a->shape || a->ndim() == 0) return false;
    ArrayObj* v = as_array(value);
    if (!(value.is_number() || (v && v->ndim() == 0))) return false;
    check_python_store(value, a->dtype);
    dag::NodeP fill = v ? dag::make_cast(array_node(v), a->dtype) : dag::make_scalar(a->dtype, convert_scalar(value, a->dtype));
    assign_array(in, self, array_from_node(dag::make_where(array_node(mask), fill, array_node(a), a->shape)));
    return true;
}

void array_setitem(Interp& in, const Value& self, const Value& index, Value value) {
    ArrayObj* a = self.as<ArrayObj>();
    Index ix = parse_index(in, index, a->ndim());
    materialize(a);
    // Sequences become arrays of a's dtype now, as NumPy converts them (their
    // elements get the Python-scalar range checks, their shape is checked
    // against the selection); Python scalars go to assign_array as they are.
    bool sequence = is_kind(value, OK::List) || is_kind(value, OK::Tuple);
    if (ix.advanced && full_mask_fill(in, self, ix, value)) return;
    if (ix.advanced) return advanced_set(in, a, ix, sequence ? as_array_value(in, value, a->dtype) : value);
    View v = basic_view(a, ix);
    // NumPy's messages: a single element takes a scalar only; a sequence is
    // converted with at most the view's number of dims.
    if (v.all_integers && v.shape.empty()) {
        if (sequence)
            raise(types::TypeError, std::string(is_inexact(a->dtype) ? "float" : "int") +
                                        "() argument must be a string, a bytes-like object or a real number, not '" +
                                        type_name(value) + "'");
        if (as_array(value) && as_array(value)->ndim() > 0) raise(types::ValueError, "setting an array element with a sequence.");
    }
    if (sequence) {
        value = as_array_value(in, value, a->dtype);
        if (as_array(value)->ndim() > int(v.shape.size()))
            raise(types::ValueError, "setting an array element with a sequence. The requested array would exceed the maximum number of dimension of " +
                                         std::to_string(v.shape.size()) + ".");
    }
    check_numpy_scalar_store(value, a->dtype);
    Value view = array_from_buffer(a->buffer, a->dtype, v.shape, v.strides, v.offset);
    assign_array(in, view, drop_leading_ones(value, v.shape.size()));
}

}  // namespace gpy
