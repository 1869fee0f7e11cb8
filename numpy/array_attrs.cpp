// ndarray attributes beyond array.cpp's read-only ones: assignment to
// .shape, .real, .imag and .flat; .mT; the .flat iterator object; and
// np.shares_memory / np.may_share_memory.
#include <algorithm>

#include "numpy/array.h"
#include "numpy/linalg.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

namespace {

// ---- a.flat ----

struct FlatIterObj : Object {
    Value base;  // the array
    using Object::Object;
};

TypeObject* flatiter_type();

// The array as 1-D in C order: a view when it is C-contiguous, else a copy.
Value flat_of(ArrayObj* a) { return ravel_order(a, 'C'); }

Value flat_getitem(Interp& in, const Value& self, const Value& key) {
    ArrayObj* a = as_array(self.as<FlatIterObj>()->base);
    Value r = get_item(in, flat_of(a), key);
    // NumPy's flat indexing returns copies, never views.
    if (ArrayObj* ra = as_array(r); ra && !ra->numpy_scalar && ra->buffer.get() == a->buffer.get())
        r = compute_into_new(array_node(ra), ra->dtype, ra->shape);
    return r;
}

void flat_setitem(Interp& in, const Value& self, const Value& key, Value v) {
    Value base = self.as<FlatIterObj>()->base;
    ArrayObj* a = as_array(base);
    materialize(a);
    Value flat = flat_of(a);
    set_item(in, flat, key, std::move(v));
    if (as_array(flat)->buffer.get() != a->buffer.get())  // a copy: write it back
        assign_array(in, base, reshape_order(as_array(flat), a->shape, 'C'));
}

int64_t flat_len(Interp&, const Value& self) { return as_array(self.as<FlatIterObj>()->base)->size(); }

Value flat_iter(Interp& in, const Value& self) {
    Value flat = flat_of(as_array(self.as<FlatIterObj>()->base));
    return types::ndarray->iter(in, flat);
}

Value flat_attr(Interp& in, const Value& self, const std::string& name) {
    if (name == "base") return self.as<FlatIterObj>()->base;
    return Value();
}

Value flat_copy_method(Interp& in, CallArgs& a) {
    ArrayObj* x = as_array(a.pos[0].as<FlatIterObj>()->base);
    Value f = flat_of(x);
    return compute_into_new(array_node(as_array(f)), x->dtype, {x->size()});
}

TypeObject* flatiter_type() {
    static TypeObject* type = [] {
        auto* t = new TypeObject("numpy.flatiter", nullptr, OK::Other);
        t->getitem = flat_getitem;
        t->setitem = flat_setitem;
        t->len = flat_len;
        t->iter = flat_iter;
        t->getattr = flat_attr;
        def_method(t, "copy", flat_copy_method, "copy()", "The elements as a new 1-D array.");
        def_method(t, "__array__", flat_copy_method, "__array__()", "The elements as a new 1-D array.");
        return t;
    }();
    return type;
}

// ---- assignment to attributes ----

[[noreturn]] void not_writable(const std::string& name) {
    raise(types::AttributeError, "attribute '" + name + "' of 'numpy.ndarray' objects is not writable");
}

void set_shape(Interp& in, ArrayObj* a, const Value& v) {
    std::vector<Value> dims = is_kind(v, OK::Tuple) || is_kind(v, OK::List) ? to_vector(in, v) : std::vector<Value>{v};
    dag::Shape shape = resolve_new_shape(dims, a->size(), a->dtype);
    materialize(a);
    // In place only without a copy: NumPy's rule for views it cannot express.
    if (!a->c_contiguous())
        raise(types::AttributeError, "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the desired shape.");
    a->shape = shape;
    a->strides = dag::contiguous_strides(shape, itemsize(a->dtype));
}

void slot_setattr(Interp& in, const Value& self, const std::string& name, Value v) {
    ArrayObj* a = as_array(self);
    if (name == "shape") return set_shape(in, a, v);
    if (name == "real" || name == "imag") {
        if (name == "imag" && !is_complex(a->dtype)) raise(types::TypeError, "array does not have imaginary part to set");
        return assign_array(in, complex_part(self, name == "imag"), v);
    }
    if (name == "flat") {
        // The values repeat to fill the array, in C order (np.resize's rule).
        Value src = as_array_value(in, v);
        ArrayObj* s = as_array(src);
        int64_t n = s->size(), size = a->size();
        if (n == 0 || size == 0) return;
        Value flat = flat_of(s);
        std::vector<int64_t> idx(static_cast<size_t>(size));
        for (int64_t i = 0; i < size; ++i) idx[size_t(i)] = i % n;
        Value filled = get_item(in, flat, int64_array(idx));
        assign_array(in, self, reshape_order(as_array(filled), a->shape, 'C'));
        return;
    }
    for (const char* ro : {"dtype", "ndim", "size", "itemsize", "nbytes", "strides", "T", "mT", "base", "flags", "device", "data"})
        if (name == ro) not_writable(name);
    raise(types::AttributeError, "'numpy.ndarray' object has no attribute '" + name + "'");
}

// ---- memory overlap ----

// The byte range [lo, hi) an array's elements occupy in its buffer.
std::pair<int64_t, int64_t> extent(const ArrayObj* a) {
    auto [lo, hi] = dag::byte_extent(a->shape, a->strides, itemsize(a->dtype));
    if (lo == hi) return {0, 0};
    return {a->offset + lo, a->offset + hi};
}

// Addresses of every element of a (C order), from `base`.
std::vector<int64_t> element_offsets(const ArrayObj* a, int64_t base) {
    std::vector<int64_t> out;
    out.reserve(size_t(a->size()));
    std::vector<int64_t> idx(a->shape.size(), 0);
    int64_t n = a->size();
    for (int64_t i = 0; i < n; ++i) {
        int64_t off = base + a->offset;
        for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * a->strides[d];
        out.push_back(off);
        for (size_t d = idx.size(); d-- > 0;) {
            if (++idx[d] < a->shape[d]) break;
            idx[d] = 0;
        }
    }
    return out;
}

// exact: every element's bytes are compared (up to 2^22 elements; beyond,
// the bounds decide, as may_share_memory does).
bool overlap(Interp& in, const Value& x, const Value& y, bool exact) {
    ArrayObj* a = as_array(x);
    ArrayObj* b = as_array(y);
    if (!a || !b) return false;  // a list becomes a new array: it shares nothing
    materialize(a);
    materialize(b);
    if (!a->buffer || !b->buffer) return false;
    // By address, not by buffer: two buffers may lend the same memory (arrays
    // over one host buffer or DLPack tensor passed in twice).
    Buffer *ba = a->buffer.get(), *bb = b->buffer.get();
    if (ba->device != bb->device || (ba->device == DeviceKind::CUDA && ba->device_index != bb->device_index)) return false;
    const int64_t base_a = int64_t(reinterpret_cast<uintptr_t>(ba->data)), base_b = int64_t(reinterpret_cast<uintptr_t>(bb->data));
    auto [alo, ahi] = extent(a);
    auto [blo, bhi] = extent(b);
    alo += base_a, ahi += base_a, blo += base_b, bhi += base_b;
    if (alo >= ahi || blo >= bhi || ahi <= blo || bhi <= alo) return false;
    if (!exact || a->size() + b->size() > (int64_t(1) << 22)) return true;
    std::vector<int64_t> oa = element_offsets(a, base_a), ob = element_offsets(b, base_b);
    std::sort(oa.begin(), oa.end());
    int64_t ia = int64_t(itemsize(a->dtype)), ib = int64_t(itemsize(b->dtype));
    for (int64_t s : ob) {
        // An element of a starting in (s - ia, s + ib) overlaps [s, s + ib).
        auto it = std::upper_bound(oa.begin(), oa.end(), s - ia);
        if (it != oa.end() && *it < s + ib) return true;
    }
    return false;
}

Value np_shares_memory(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    const Value* y = arg(a, 1, "b");
    if (!x || !y) raise(types::TypeError, "shares_memory() missing required argument");
    return Value::boolean(overlap(in, *x, *y, true));
}

Value np_may_share_memory(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    const Value* y = arg(a, 1, "b");
    if (!x || !y) raise(types::TypeError, "may_share_memory() missing required argument");
    return Value::boolean(overlap(in, *x, *y, false));
}

// numpy.lib.stride_tricks.as_strided's core: a view of x's memory with any
// shape and byte strides. NumPy reads whatever lies there; gpy refuses a
// view reaching outside x's buffer (a ValueError, not a crash:
// docs/differences.md).
Value np_as_strided(Interp& in, CallArgs& a) {
    expect_args(a, "_as_strided", 3, 3);
    Value xv = as_array_value(in, a.pos[0]);
    ArrayObj* x = xv.as<ArrayObj>();
    materialize(x);
    std::vector<int64_t> shape, strides;
    for (const Value& d : to_vector(in, a.pos[1])) shape.push_back(to_index(d, "shape"));
    for (const Value& d : to_vector(in, a.pos[2])) strides.push_back(to_index(d, "strides"));
    if (shape.size() != strides.size()) raise(types::ValueError, "mismatch in length of strides and shape");
    int64_t lo = x->offset, hi = x->offset, isz = int64_t(itemsize(x->dtype));
    bool empty = false;
    for (size_t k = 0; k < shape.size(); ++k) {
        if (shape[k] < 0) raise(types::ValueError, "negative dimensions are not allowed");
        if (shape[k] == 0) empty = true;
        int64_t span;
        int64_t& end = strides[k] < 0 ? lo : hi;
        if (__builtin_mul_overflow(shape[k] > 0 ? shape[k] - 1 : 0, strides[k], &span) || __builtin_add_overflow(end, span, &end))
            raise(types::ValueError, "as_strided: the view's strides overflow");
    }
    int64_t nbytes = int64_t(x->buffer ? x->buffer->nbytes : 0), last;
    if (__builtin_add_overflow(hi, isz, &last)) raise(types::ValueError, "as_strided: the view's strides overflow");
    if (!empty && (lo < 0 || last > nbytes))
        raise(types::ValueError, "as_strided: the view reaches outside the array's memory (gpy does not read past a buffer)");
    return view_of(x, shape, strides, x->offset);
}

}  // namespace

Value flat_iterator(const Value& array) {
    auto* f = new FlatIterObj(flatiter_type());
    f->base = array;
    return Value::object(f);
}

Value matrix_transpose_view(ArrayObj* a) {
    if (a->ndim() < 2) raise(types::ValueError, "matrix transpose with ndim < 2 is undefined");
    materialize(a);
    return moveaxis_view(a, a->ndim() - 1, a->ndim() - 2);
}

void install_array_setattr() { types::ndarray->setattr = slot_setattr; }

void add_memory_functions(Interp&, ModuleObj* m) {
    // numpy.lib.stride_tricks (filled in by numpy/py/stride_tricks.py).
    auto* lib = new ModuleObj("numpy.lib");
    auto* tricks = new ModuleObj("numpy.lib.stride_tricks");
    tricks->set("_as_strided", make_builtin("_as_strided", np_as_strided, "_as_strided(x, shape, strides)",
                                            "A view of x's memory with the given shape and byte strides."));
    lib->set("stride_tricks", Value::object(tricks));
    m->set("lib", Value::object(lib));
    m->set("shares_memory", make_builtin("shares_memory", np_shares_memory, "shares_memory(a, b, /, max_work=None)",
                                         "Whether two arrays share memory (exactly)."));
    m->set("may_share_memory", make_builtin("may_share_memory", np_may_share_memory, "may_share_memory(a, b, /, max_work=None)",
                                            "Whether two arrays might share memory (their bounds overlap)."));
}

}  // namespace gpy
