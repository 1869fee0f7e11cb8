// ndarray: the object, its type slots (printing, truth, len, iteration,
// attributes), conversion from Python values, materialisation and views.
#include "numpy/array.h"
#include "numpy/array_interface.h"
#include "numpy/dlpack.h"
#include "runtime/array_memory.h"
#include "runtime/array_context.h"
#include "numpy/module_parts.h"
#include "lang/ast.h"
#include "numpy/promote.h"

#include <algorithm>
#include <array>
#include <memory>
#include <utility>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_set>

#include "codegen/plan.h"
#include "numpy/array_print.h"
#include "numpy/array_state.h"
#include "numpy/scalar_types.h"
#include "numpy/shape_funcs.h"

namespace gpy {

Value make_list_iterator(Value list);  // lang/iter.cpp

namespace types {
TypeObject *ndarray, *dtype, *AxisError, *UFuncTypeError;
}

bool ArrayObj::c_contiguous() const {
    for (int64_t d : shape)
        if (d == 0) return true;  // no elements: any strides (a new one's are all 0)
    int64_t expect = int64_t(itemsize(dtype));
    for (size_t d = shape.size(); d-- > 0;) {
        if (shape[d] != 1 && strides[d] != expect) return false;
        expect *= shape[d];
    }
    return true;
}

std::string shape_text(const dag::Shape& s) {
    std::string out = "(";
    for (size_t k = 0; k < s.size(); ++k) out += (k ? ", " : "") + std::to_string(s[k]);
    return out + (s.size() == 1 ? ",)" : ")");
}

Value int64_array(const std::vector<int64_t>& v, const dag::Shape& shape) {
    Value out = new_array(DType::Int64, shape);
    if (!v.empty()) std::memcpy(out.as<ArrayObj>()->buffer.bytes(), v.data(), v.size() * sizeof(int64_t));
    return out;
}
Value int64_array(const std::vector<int64_t>& v) { return int64_array(v, {int64_t(v.size())}); }

std::string compact_shape_text(const dag::Shape& s) {
    std::string out = "(";
    for (size_t k = 0; k < s.size(); ++k) {
        if (k) out += ',';
        out += std::to_string(s[k]);
    }
    return out + (s.size() == 1 ? ",)" : ")");
}

int normalize_axis(int64_t axis, int ndim) {
    if (axis < -ndim || axis >= ndim)
        raise(types::AxisError, "axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(ndim));
    return int(axis < 0 ? axis + ndim : axis);
}

// ---- construction and materialisation ----

ArrayState& bound_array_state() {
    Context* c = bound_context();
    if (!c) throw std::logic_error("no interpreter context is bound to this thread (array work outside an interpreter)");
    return static_cast<ArrayState&>(*c);
}

// The pending arrays of the interpreter that made them (ArrayState::pending).
static void track_pending(ArrayObj* a) {
    if (a->pending_slot >= 0) return;
    std::vector<ArrayObj*>& list = bound_array_state().pending;
    a->pending_slot = int64_t(list.size());
    a->pending_list = &list;
    list.push_back(a);
}

static void untrack_pending(ArrayObj* a) {
    if (a->pending_slot < 0) return;
    std::vector<ArrayObj*>& list = *a->pending_list;
    ArrayObj* last = list.back();
    list[size_t(a->pending_slot)] = last;
    last->pending_slot = a->pending_slot;
    list.pop_back();
    a->pending_slot = -1;
    a->pending_list = nullptr;
}

ArrayObj::~ArrayObj() {
    untrack_pending(this);
    if (buffer && buffer->owner == this) buffer->owner = nullptr;
}

ArrayState::~ArrayState() {
    for (ArrayObj* a : pending) {
        a->pending_slot = -1;
        a->pending_list = nullptr;
    }
}

static bool reads(const dag::Node* n, const Buffer* b, std::unordered_set<const dag::Node*>& seen) {
    // A computed node is read through its result (a shared pending value
    // computed since, or a keepdims view of one).
    if (n->result) n = n->result.get();
    if (n->op == dag::Op::Input) return n->buffer.get() == b;
    if (!seen.insert(n).second) return false;
    for (auto& c : n->in)
        if (reads(c.get(), b, seen)) return true;
    return false;
}

void flush_readers(const Buffer* buffer, const ArrayObj* except) {
    MaterializeReason why("an in-place write into memory it reads");
    std::vector<Value> todo;
    for (ArrayObj* a : bound_array_state().pending) {
        if (a == except) continue;
        std::unordered_set<const dag::Node*> seen;
        if (a->node && reads(a->node.get(), buffer, seen)) todo.push_back(Value::object(a));
    }
    for (auto& v : todo) materialize(v.as<ArrayObj>());
}

// Arrays still pending after a kernel that computed them raised.
static void mark_failed(const std::vector<Value>& arrays) {
    for (const Value& v : arrays)
        if (ArrayObj* a = v.as<ArrayObj>(); a->node && !a->node->result) a->failed = true;
}

void materialize_all_pending() {
    MaterializeReason why("synchronize()", /*only_if_unset=*/true);
    std::vector<Value> todo;
    for (ArrayObj* a : bound_array_state().pending) todo.push_back(Value::object(a));
    // In creation order, so kernels (and their memo keys) do not depend on
    // the set's hash order; arrays of one shape share a multi-output kernel.
    std::sort(todo.begin(), todo.end(), [](const Value& x, const Value& y) {
        return x.as<ArrayObj>()->serial < y.as<ArrayObj>()->serial;
    });
    // An array whose kernel failed (integer ** negative) is left to its own
    // observation, which raises again; it stays tracked for in-place-write
    // hazards.
    todo.erase(std::remove_if(todo.begin(), todo.end(), [](const Value& v) { return v.as<ArrayObj>()->failed; }), todo.end());
    std::vector<dag::NodeP> nodes;
    for (auto& v : todo)
        if (ArrayObj* a = v.as<ArrayObj>(); a->node && a->node->op != dag::Op::Scalar && a->node->op != dag::Op::Input)
            nodes.push_back(a->node);
    try {
        gpy::materialize_together(nodes);
        for (auto& v : todo) materialize(v.as<ArrayObj>());
    } catch (...) {
        mark_failed(todo);
        throw;
    }
}

void raise_size_overflow() { raise(types::ValueError, "Maximum allowed size exceeded"); }

void raise_bad_shape(const dag::Shape& shape) {
    for (int64_t d : shape)
        if (d < 0) raise(types::ValueError, "negative dimensions are not allowed");
    raise(types::ValueError, "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
}

// NumPy's _ArrayMemoryError text: "Unable to allocate 4.00 EiB for an array
// with shape (576460752303423488,) and data type float64".
static std::string unable_to_allocate(const dag::Shape& shape, DType dt) {
    uint64_t nbytes = uint64_t(checked_size(shape, dt)) * itemsize(dt);
    static const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int bit_length = nbytes ? 64 - __builtin_clzll(nbytes) : 0;
    int unit = std::max(bit_length - 1, 1) / 10;
    double n_units = double(nbytes) / double(uint64_t(1) << (10 * unit));
    if (std::nearbyint(n_units) == 1024) {
        ++unit;
        n_units /= 1024;
    }
    char text[64];
    if (unit == 0) std::snprintf(text, sizeof text, "%.0f %s", n_units, units[unit]);
    else if (std::nearbyint(n_units) < 1000) std::snprintf(text, sizeof text, "%#.3g %s", n_units, units[unit]);
    else std::snprintf(text, sizeof text, "%#.0f %s", n_units, units[unit]);
    std::string s = "(";
    for (size_t k = 0; k < shape.size(); ++k) s += std::to_string(shape[k]) + (shape.size() == 1 ? "," : k + 1 < shape.size() ? ", " : "");
    s += ")";
    return std::string("Unable to allocate ") + text + " for an array with shape " + s + " and data type " + name(dt);
}

Value array_from_node(dag::NodeP n, bool numpy_scalar) {
    static thread_local uint64_t next_serial = 0;
    bool pending = n->op != dag::Op::Input && n->op != dag::Op::Scalar && !n->result;
    // The weight counts a shared node per use (Black-Scholes' d1 feeds four
    // places): only a graph of more than the cap of distinct nodes is computed.
    // A count under the cap replaces the weight (still an upper bound: nodes
    // only ever get computed), so the nodes built on this one start from it
    // instead of walking the graph again at every operation.
    bool too_big = false;
    if (pending && n->pending_weight > kMaxPendingNodes) {
        size_t distinct = dag::count_pending(n, kMaxPendingNodes + 1);
        too_big = distinct > kMaxPendingNodes;
        if (!too_big) n->pending_weight = uint32_t(distinct);
    }
    checked_size(n->shape, n->dtype);
    auto* a = new ArrayObj();
    Value v = Value::object(a);
    a->serial = next_serial++;
    if (pending && !n->origin) n->origin = t_current_statement;
    if (pending) track_pending(a);
    a->dtype = n->dtype;
    a->shape = n->shape;
    a->node = std::move(n);
    set_numpy_scalar(a, numpy_scalar && a->shape.empty());
    if (too_big) {
        MaterializeReason why("the pending graph passed 64 operations");
        materialize(a);
    }
    return v;
}

Value array_from_buffer(BufferRef buf, DType dt, dag::Shape shape, std::vector<int64_t> strides, int64_t offset) {
    checked_size(shape, dt);
    // A view of a GPU context's host NumPy scalar (np.stack of scalars,
    // x[None], a broadcast) views a device copy of its one element: arrays of
    // a GPU context live on the device (kernels and libraries read them).
    if (!shape.empty() && buf && buf->device == DeviceKind::CPU && array_device_kind() == DeviceKind::CUDA) {
        BufferRef dev(Buffer::allocate(buf->nbytes));
        std::memcpy(dev.bytes(), buf.bytes(), buf->nbytes);
        buf = std::move(dev);
    }
    auto* a = new ArrayObj();
    Value v = Value::object(a);
    a->dtype = dt;
    a->shape = std::move(shape);
    a->strides = std::move(strides);
    a->offset = offset;
    a->buffer = std::move(buf);
    return v;
}

Value new_array(DType dt, const dag::Shape& shape, bool zero) {
    int64_t n = checked_size(shape, dt);
    // Past 2^48 bytes no machine has the memory: NumPy's MemoryError without
    // asking the allocator (an overcommitting kernel may say yes).
    if (n * int64_t(itemsize(dt)) > (int64_t(1) << 48)) raise(types::MemoryError, unable_to_allocate(shape, dt));
    BufferRef buf;
    try {
        buf = BufferRef(Buffer::allocate(size_t(n) * itemsize(dt), zero));
    } catch (const std::runtime_error& e) {  // a CUDA driver error (MemoryError is a bad_alloc)
        raise(types::RuntimeError, e.what());
    } catch (const std::bad_alloc& e) {
        // The host allocator said no: NumPy's words. (The device pool and the
        // max_array_bytes limit say what ran out in their own.)
        if (std::strcmp(e.what(), std::bad_alloc().what()) == 0) raise(types::MemoryError, unable_to_allocate(shape, dt));
        throw;
    }
    Value out = array_from_buffer(buf, dt, shape, dag::contiguous_strides(shape, itemsize(dt)), 0);
    out.as<ArrayObj>()->owndata = true;
    buf->owner = out.as<ArrayObj>();
    return out;
}

// A host 0-d array (a NumPy scalar of a GPU context: HostArraysScope) read
// by a GPU kernel: its value, taken now, as NumPy's eager operation would.
static dag::NodeP host_scalar_node(ArrayObj* a) {
    dag::ScalarValue v;
    const uint8_t* p = a->buffer.bytes() + a->offset;
    const size_t n = itemsize(a->dtype);
    std::memcpy(v.raw, p, n < 8 ? n : 8);
    if (a->dtype == DType::Complex128) std::memcpy(&v.imag, p + 8, 8);
    return dag::make_scalar(a->dtype, v);
}

BufferRef device_copy(ArrayObj* a) {
    size_t nbytes = a->buffer->nbytes;
    BufferRef dev(Buffer::allocate(nbytes));
    std::memcpy(dev.bytes(), a->buffer.bytes(), nbytes);
    return dev;
}

dag::NodeP array_node(ArrayObj* a) {
    if (a->node) {
        if (a->node->result) {  // computed since: adopt the result
            materialize(a);
        } else {
            return a->node;
        }
    }
    if (a->buffer && a->buffer->device == DeviceKind::CPU && array_device_kind() == DeviceKind::CUDA) {
        if (a->shape.empty()) return host_scalar_node(a);
        // A view of a host scalar (np.stack of NumPy scalars, a broadcast):
        // its buffer (one element) copied to the device, read with the
        // view's strides.
        return dag::make_input(device_copy(a), a->dtype, a->shape, a->strides, a->offset);
    }
    // One Input node per array, built at its first use and kept while it
    // still describes the array (a program reads the same arrays in every
    // operation: Black-Scholes' s, k, t two dozen times a call). Checked, not
    // invalidated: the few places that re-point an array need not know.
    const dag::NodeP& c = a->input_node;
    if (c && c->buffer.get() == a->buffer.get() && c->offset == a->offset && c->dtype == a->dtype && c->shape == a->shape &&
        c->strides == a->strides)
        return c;
    a->input_node = dag::make_input(a->buffer, a->dtype, a->shape, a->strides, a->offset);
    return a->input_node;
}

// The cost model of lazy evaluation: another pending array inside `a`'s
// graph is a value the program still holds (a name, a list element) and may
// use again. Recomputing it there would repeat its work and re-read its
// inputs each time; so it is computed once, as eager evaluation would: as
// one more output of a's kernel when it has a's shape (one more store per
// element), else first, by itself. Temporaries nobody holds (a function's
// dead locals, a loop's rebound name, unnamed subexpressions) stay fused.
// So lazy evaluation never moves more memory than eager evaluation does.
static std::vector<ArrayObj*> held_subexpressions(ArrayObj* a) {
    std::vector<ArrayObj*> held;
    const std::vector<ArrayObj*>& pending = bound_array_state().pending;
    if (pending.empty()) return held;  // (a itself is already out of the set)
    std::unordered_set<const dag::Node*> graph;
    std::vector<const dag::Node*> stack{a->node.get()};
    while (!stack.empty()) {
        const dag::Node* n = stack.back();
        stack.pop_back();
        if (n->result || n->op == dag::Op::Input || n->op == dag::Op::Scalar || !graph.insert(n).second) continue;
        for (auto& c : n->in) stack.push_back(c.get());
    }
    for (ArrayObj* p : pending)
        if (p != a && p->node && p->node != a->node && graph.count(p->node.get())) held.push_back(p);
    // Creation order: the kernels (and their memo keys) must not depend on the set's hash order.
    std::sort(held.begin(), held.end(), [](ArrayObj* x, ArrayObj* y) { return x->serial < y->serial; });
    return held;
}

static void adopt_result(ArrayObj* a);

void materialize(ArrayObj* a) {
    if (!a->node) return;
    untrack_pending(a);
    dag::NodeP n = a->node;
    if (n->op == dag::Op::Scalar || n->op == dag::Op::Input) {
        // Nothing to plan: copy the constant (or the view) into a fresh buffer.
        Value fresh = compute_into_new(n, a->dtype, a->shape);
        ArrayObj* f = fresh.as<ArrayObj>();
        a->buffer = f->buffer;
        a->strides = f->strides;
        a->offset = 0;
        a->node.reset();
        a->owndata = true;
        a->buffer->owner = a;
        return;
    }
    if (!n->result) {
        std::vector<ArrayObj*> held = held_subexpressions(a);
        std::vector<Value> keep_alive;  // the arrays stay alive while computed
        std::vector<ArrayObj*> together, before;
        for (ArrayObj* h : held) keep_alive.push_back(Value::object(h));
        std::vector<dag::NodeP> all{n};
        for (ArrayObj* h : held) all.push_back(h->node);
        if (!held.empty() && n->has_expand && all.size() <= kMaxOutputs && row_kernel_fits(all)) {
            // A row kernel stores the held values too, per-row ones included.
            together = held;
        } else {
            for (ArrayObj* h : held) (h->node->shape == n->shape ? together : before).push_back(h);
        }
        // Held values of other shapes first, newest first: each computes the
        // held values inside it along with it (softmax's input and e, in the
        // kernel of its result, before a reduction of that result).
        for (auto it = before.rbegin(); it != before.rend(); ++it) materialize(*it);
        std::vector<dag::NodeP> nodes{n};
        for (ArrayObj* h : together)
            if (h->node) nodes.push_back(h->node);
        if (nodes.size() > 1) {
            MaterializeReason why("with pending arrays the program holds", /*only_if_unset=*/true);
            try {
                gpy::materialize_together(nodes);
            } catch (...) {
                mark_failed(keep_alive);
                throw;
            }
            for (ArrayObj* h : together) {
                if (!h->node || !h->node->result) continue;
                untrack_pending(h);
                adopt_result(h);
            }
        }
    }
    try {
        gpy::materialize(n);
    } catch (...) {
        // Still pending: tracked again (in-place-write hazards), but left to
        // its own observation by synchronize().
        if (a->node && !a->node->result) {
            a->failed = true;
            track_pending(a);
        }
        throw;
    }
    adopt_result(a);
}

// `a`'s node has been computed: the array now holds its buffer.
static void adopt_result(ArrayObj* a) {
    const dag::NodeP& r = a->node->result;
    a->buffer = r->buffer;
    a->strides = r->strides;
    a->offset = r->offset;
    a->node.reset();
    a->owndata = true;  // a computed result is a fresh buffer
    if (a->buffer && !a->buffer->owner) a->buffer->owner = a;
}

Value compute_into_new(const dag::NodeP& n, DType dtype, const dag::Shape& shape) {
    Value out = new_array(dtype, shape);
    ArrayObj* o = out.as<ArrayObj>();
    if (o->size() > 0) {
        Target t{o->buffer, 0, o->shape, o->strides};
        materialize_into(n, t);
    }
    return out;
}

HostArrayView host_view(ArrayObj* a) {
    MaterializeReason why("observed on the host", /*only_if_unset=*/true);
    materialize(a);
    HostArrayView v;
    v.dtype = a->dtype;
    v.shape = a->shape;
    v.strides = a->strides;
    v.data = a->buffer.host_read_bytes() + a->offset;
    return v;
}

// ---- dtypes ----

static TypeObject* g_scalar_types[kNumDTypes];

Value dtype_value(DType t) {
    static DTypeObj* objs[kNumDTypes];
    static std::once_flag once;
    std::call_once(once, [] {
        for (int k = 0; k < kNumDTypes; ++k) {
            objs[k] = new DTypeObj(DType(k));
            objs[k]->make_immortal();
        }
    });
    return Value::object(objs[int(t)]);
}

std::optional<DType> maybe_dtype(Interp& in, const Value& v) {
    (void)in;
    if (is_kind(v, OK::DType)) return v.as<DTypeObj>()->dtype;
    if (is_kind(v, OK::Str)) return parse_dtype(v.as<StrObj>()->s);
    if (is_kind(v, OK::Type)) {
        auto* t = v.as<TypeObject>();
        if (t == types::integer) return DType::Int64;
        if (t == types::real) return DType::Float64;
        if (t == types::complex) return DType::Complex128;
        if (t == types::boolean) return DType::Bool;
        for (int k = 0; k < kNumDTypes; ++k)
            if (g_scalar_types[k] == t) return DType(k);
    }
    return std::nullopt;
}

DType to_dtype(Interp& in, const Value& v) {
    if (auto d = maybe_dtype(in, v)) return *d;
    // NumPy reads a `dtype` attribute: a NumPy scalar gives its type
    // (np.zeros(2, dtype=np.float32(1)) is float32); an array is refused.
    if (ArrayObj* a = as_array(v)) {
        if (a->numpy_scalar) return a->dtype;
        raise(types::TypeError, "Cannot construct a dtype from an array");
    }
    if (is_kind(v, OK::Str)) raise(types::TypeError, "data type '" + v.as<StrObj>()->s + "' not understood");
    raise(types::TypeError, "Cannot interpret '" + repr(in, v) + "' as a data type");
}

// ---- Python values <-> elements ----

Value element_to_python(const ArrayObj* a, const uint8_t* p) {
    switch (a->dtype) {
        case DType::Bool: return Value::boolean(*p != 0);
        case DType::Int8: return Value::integer(*reinterpret_cast<const int8_t*>(p));
        case DType::Int16: return Value::integer(*reinterpret_cast<const int16_t*>(p));
        case DType::Int32: return Value::integer(*reinterpret_cast<const int32_t*>(p));
        case DType::Int64: return Value::integer(*reinterpret_cast<const int64_t*>(p));
        case DType::UInt8: return Value::integer(*p);
        case DType::UInt16: return Value::integer(*reinterpret_cast<const uint16_t*>(p));
        case DType::UInt32: return Value::integer(*reinterpret_cast<const uint32_t*>(p));
        case DType::UInt64: {
            uint64_t u = *reinterpret_cast<const uint64_t*>(p);
            if (u > uint64_t(INT64_MAX)) return Value::real(double(u));  // no big ints in gpy
            return Value::integer(int64_t(u));
        }
        case DType::Float16: return Value::real(double(*reinterpret_cast<const _Float16*>(p)));
        case DType::Float32: return Value::real(*reinterpret_cast<const float*>(p));
        case DType::Float64: return Value::real(*reinterpret_cast<const double*>(p));
        case DType::Complex64: {
            const float* c = reinterpret_cast<const float*>(p);
            return make_complex(c[0], c[1]);
        }
        case DType::Complex128: {
            const double* c = reinterpret_cast<const double*>(p);
            return make_complex(c[0], c[1]);
        }
    }
    return Value::none();
}

// Stores a Python scalar into an element of type `t` (C conversion rules).
void check_python_store(const Value& v, DType t) {
    if (as_complex(v) && !is_complex(t) && t != DType::Bool) {
        // NumPy converts with int()/float(), which reject complex.
        if (is_integer(t)) raise(types::TypeError, "int() argument must be a string, a bytes-like object or a real number, not 'complex'");
        raise(types::TypeError, "float() argument must be a string or a real number, not 'complex'");
    }
    if (!is_integer(t) || v.is_bool() || !v.is_number()) return;
    int64_t i;
    if (v.is_float()) {
        double f = v.f;
        if (std::isnan(f)) raise(types::ValueError, "cannot convert float NaN to integer");
        if (std::isinf(f)) raise(types::OverflowError, "cannot convert float infinity to integer");
        double tf = std::trunc(f);
        if (t == DType::UInt64 && tf >= 0 && tf < 18446744073709551616.0) return;
        if (tf < -9223372036854775808.0 || tf >= 9223372036854775808.0)
            raise(types::OverflowError, "Python int too large to convert to C long");
        i = int64_t(tf);
    } else {
        i = v.as_int();
    }
    if (!int_range(t).contains(i)) raise(types::OverflowError, "Python integer " + std::to_string(i) + " out of bounds for " + name(t));
}

void check_numpy_scalar_store(const Value& v, DType t) {
    ArrayObj* s = as_array(v);
    if (!s || !s->numpy_scalar || kind(t) != DKind::Int) return;
    Value p = element_to_python(s, host_view(s).data);
    if (ComplexObj* c = as_complex(p)) p = Value::real(c->re);  // NumPy drops the imaginary part (ComplexWarning)
    check_python_store(p, t);
}

static void store_element(DType t, uint8_t* p, const Value& v) {
    check_python_store(v, t);
    if (ComplexObj* c = as_complex(v)) {
        if (t == DType::Bool) *p = c->re != 0 || c->im != 0;
        else if (t == DType::Complex64) { reinterpret_cast<float*>(p)[0] = float(c->re); reinterpret_cast<float*>(p)[1] = float(c->im); }
        else { reinterpret_cast<double*>(p)[0] = c->re; reinterpret_cast<double*>(p)[1] = c->im; }
        return;
    }
    double f = v.as_float();
    if (t == DType::UInt64 && v.is_float() && f >= 9223372036854775808.0) {  // beyond int64 (checked above)
        *reinterpret_cast<uint64_t*>(p) = uint64_t(f);
        return;
    }
    // Integer targets were range-checked above; float targets do not use i,
    // so a NaN or huge float must not reach the (undefined) conversion.
    int64_t i = !v.is_float() ? v.as_int() : std::fabs(f) < 9223372036854775808.0 ? int64_t(f) : 0;
    switch (t) {
        case DType::Bool: *p = v.is_float() ? f != 0 : i != 0; break;
        case DType::Int8: *reinterpret_cast<int8_t*>(p) = int8_t(i); break;
        case DType::Int16: *reinterpret_cast<int16_t*>(p) = int16_t(i); break;
        case DType::Int32: *reinterpret_cast<int32_t*>(p) = int32_t(i); break;
        case DType::Int64: *reinterpret_cast<int64_t*>(p) = i; break;
        case DType::UInt8: *p = uint8_t(i); break;
        case DType::UInt16: *reinterpret_cast<uint16_t*>(p) = uint16_t(i); break;
        case DType::UInt32: *reinterpret_cast<uint32_t*>(p) = uint32_t(i); break;
        case DType::UInt64: *reinterpret_cast<uint64_t*>(p) = uint64_t(i); break;
        case DType::Float16: *reinterpret_cast<_Float16*>(p) = _Float16(f); break;
        case DType::Float32: *reinterpret_cast<float*>(p) = float(f); break;
        case DType::Float64: *reinterpret_cast<double*>(p) = f; break;
        case DType::Complex64: reinterpret_cast<float*>(p)[0] = float(f); reinterpret_cast<float*>(p)[1] = 0; break;
        case DType::Complex128: reinterpret_cast<double*>(p)[0] = f; reinterpret_cast<double*>(p)[1] = 0; break;
    }
}

namespace {

// Shape and default dtype of nested Python lists/tuples.
struct Nested {
    dag::Shape shape;
    bool any_complex = false, any_float = false, any_int = false, any_bool = false, any_array = false;
    std::optional<DType> array_dtype;
};

bool is_seq(const Value& v) { return is_kind(v, OK::List) || is_kind(v, OK::Tuple); }
const std::vector<Value>& seq_items(const Value& v) {
    return is_kind(v, OK::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
}

[[noreturn]] void inhomogeneous(size_t depth, const dag::Shape& shape) {
    dag::Shape s(shape.begin(), shape.begin() + long(depth));
    std::string t = "(";
    for (size_t k = 0; k < s.size(); ++k) t += (k ? ", " : "") + std::to_string(s[k]);
    t += s.size() == 1 ? ",)" : ")";
    raise(types::ValueError, "setting an array element with a sequence. The requested array has an inhomogeneous shape after " +
                                 std::to_string(depth) + " dimensions. The detected shape was " + t + " + inhomogeneous part.");
}

void scan(Interp& in, const Value& v, size_t depth, Nested& n, bool& shape_fixed) {
    if (is_seq(v)) {
        const auto& items = seq_items(v);
        if (depth == n.shape.size()) {
            if (shape_fixed) inhomogeneous(depth, n.shape);
            n.shape.push_back(int64_t(items.size()));
        } else if (n.shape[depth] != int64_t(items.size())) {
            inhomogeneous(depth, n.shape);
        }
        if (items.empty()) shape_fixed = true;
        for (auto& item : items) scan(in, item, depth + 1, n, shape_fixed);
        return;
    }
    if (ArrayObj* a = as_array(v)) {
        // An array nested in a list contributes its dims; a later one must
        // have exactly the dims left ([zeros((3, 3)), zeros((2, 2))] is
        // inhomogeneous after 1 dimension: NumPy's message names how many
        // dims agreed).
        if (depth == n.shape.size() && !shape_fixed) {
            n.shape.insert(n.shape.end(), a->shape.begin(), a->shape.end());
        } else {
            size_t left = n.shape.size() - std::min(depth, n.shape.size()), k = 0;
            while (k < left && k < a->shape.size() && n.shape[depth + k] == a->shape[k]) ++k;
            if (depth > n.shape.size() || k != left || k != a->shape.size()) inhomogeneous(std::min(depth + k, n.shape.size()), n.shape);
        }
        shape_fixed = true;
        n.any_array = true;
        n.array_dtype = n.array_dtype ? promote_types(*n.array_dtype, a->dtype) : a->dtype;  // np.array((f32, c64)) is c64
        return;
    }
    if (depth < n.shape.size()) inhomogeneous(depth, n.shape);
    shape_fixed = true;
    if (v.is_bool()) n.any_bool = true;
    else if (v.is_int()) n.any_int = true;
    else if (v.is_float()) n.any_float = true;
    else if (as_complex(v)) n.any_complex = true;
    else if (v.is_none()) raise(types::TypeError, "gpy arrays do not hold None (object arrays are not supported)");
    else if (is_kind(v, OK::Str)) raise(types::TypeError, "gpy arrays do not hold strings: '" + v.as<StrObj>()->s + "'");
    else raise(types::TypeError, std::string("cannot convert a value of type '") + type_name(v) + "' to an array element");
}

void fill(Interp& in, const Value& v, uint8_t*& p, DType t) {
    if (is_seq(v)) {
        for (auto& item : seq_items(v)) fill(in, item, p, t);
        return;
    }
    if (ArrayObj* a = as_array(v)) {
        Value conv = as_array_value(in, v, t);
        ArrayObj* c = conv.as<ArrayObj>();
        HostArrayView hv = host_view(c);
        // Row-major copy of the (possibly strided) array.
        std::vector<int64_t> idx(size_t(hv.ndim()), 0);
        for (int64_t k = 0; k < hv.size(); ++k) {
            const uint8_t* src = hv.data;
            for (int d = 0; d < hv.ndim(); ++d) src += idx[size_t(d)] * hv.strides[size_t(d)];
            std::memcpy(p, src, itemsize(t));
            p += itemsize(t);
            for (int d = hv.ndim() - 1; d >= 0; --d) {
                if (++idx[size_t(d)] < hv.shape[size_t(d)]) break;
                idx[size_t(d)] = 0;
            }
        }
        (void)a;
        return;
    }
    store_element(t, p, v);
    p += itemsize(t);
}

}  // namespace

Value as_array_value(Interp& in, const Value& v, std::optional<DType> dtype) {
    if (ArrayObj* a = as_array(v)) {
        if (!dtype || *dtype == a->dtype) return v;
        return array_from_node(dag::make_cast(array_node(a), *dtype));
    }
    // The array protocol of other native objects (a.flat): their __array__().
    if (v.is_obj() && v.o->type->kind == OK::Other)
        if (const Value* m = v.o->type->lookup("__array__")) {
            Value self = v;
            CallArgs ca{&self, 1, nullptr};
            return as_array_value(in, in.call(*m, ca), dtype);
        }
    if (is_kind(v, OK::Range)) {  // np.array(range(4)): its ints, as NumPy iterates it
        auto* r = v.as<RangeObj>();
        std::vector<Value> items;
        uint64_t n = r->count();
        check_array_bytes(size_t(n) * 8);
        for (uint64_t k = 0; k < n; ++k) items.push_back(Value::integer(r->start + int64_t(k) * r->step));
        return as_array_value(in, make_list(std::move(items)), dtype);
    }
    Nested n;
    bool fixed = false;
    scan(in, v, 0, n, fixed);
    DType t;
    if (dtype) t = *dtype;
    else if (n.any_array && !n.any_complex && !n.any_float && !n.any_int && !n.any_bool) t = *n.array_dtype;
    else if (n.any_complex || (n.any_array && is_complex(*n.array_dtype))) t = DType::Complex128;
    else if (n.any_float) t = DType::Float64;
    else if (n.any_int) t = DType::Int64;
    else if (n.any_bool) t = DType::Bool;
    else t = DType::Float64;  // empty list
    // Arrays mixed with Python scalars: NumPy promotes the arrays' dtype with
    // the scalars' default dtypes (no weak scalars in array construction):
    // [np.float32(1), 2.5] is float64, [np.int8(1), 2] int64, [np.uint8(1), True] uint8.
    if (n.any_array && (n.any_complex || n.any_float || n.any_int || n.any_bool) && !dtype) {
        DType py = n.any_complex ? DType::Complex128 : n.any_float ? DType::Float64 : n.any_int ? DType::Int64 : DType::Bool;
        t = promote_types(*n.array_dtype, py);
    }
    Value out = new_array(t, n.shape);
    uint8_t* p = out.as<ArrayObj>()->buffer.bytes();
    fill(in, v, p, t);
    return out;
}

// ---- slots ----

namespace {

ArrayState& state(Interp& in) { return array_state(in); }

std::string slot_repr(Interp& in, const Value& v) {
    ArrayObj* a = v.as<ArrayObj>();
    HostArrayView hv = host_view(a);
    if (a->numpy_scalar) return scalar_repr(a->dtype, hv.data, state(in).print);
    return array_repr(hv, state(in).print);
}

std::string slot_str(Interp& in, const Value& v) {
    ArrayObj* a = v.as<ArrayObj>();
    HostArrayView hv = host_view(a);
    if (a->numpy_scalar || a->shape.empty()) return scalar_str(a->dtype, hv.data, state(in).print);
    return array_str(hv, state(in).print);
}

bool slot_truth(const Value& v) {
    ArrayObj* a = v.as<ArrayObj>();
    if (a->size() != 1) {
        if (a->size() == 0) raise(types::ValueError, "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty.");
        raise(types::ValueError, "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
    }
    HostArrayView hv = host_view(a);
    return truthy(element_to_python(a, hv.data));
}

int64_t slot_len(Interp&, const Value& v) {
    ArrayObj* a = v.as<ArrayObj>();
    if (a->shape.empty()) raise(types::TypeError, "len() of unsized object");
    return a->shape[0];
}

Value slot_scalar(const Value& v) {
    ArrayObj* a = v.as<ArrayObj>();
    if (a->ndim() != 0) raise(types::TypeError, "only 0-dimensional arrays can be converted to Python scalars");
    HostArrayView hv = host_view(a);
    return element_to_python(a, hv.data);
}

// ndarray.__index__: a 0-d integer array.
bool slot_index(const Value& v, int64_t& out) {
    ArrayObj* a = v.as<ArrayObj>();
    if (a->ndim() != 0 || !is_integer(a->dtype)) raise(types::TypeError, "only integer scalar arrays can be converted to a scalar index");
    out = slot_scalar(v).as_int();
    return true;
}

uint64_t slot_hash(Interp& in, const Value& v) {
    ArrayObj* a = v.as<ArrayObj>();
    if (a->numpy_scalar) return hash_value(in, slot_scalar(v));
    raise(types::TypeError, "unhashable type: 'numpy.ndarray'");
}

Value tuple_of(const std::vector<int64_t>& xs) {
    std::vector<Value> items;
    for (int64_t x : xs) items.push_back(Value::integer(x));
    return make_tuple(std::move(items));
}

// x.base: None for an array that owns its memory, else the array that does
// (NumPy collapses chains of views to the owner). When that object has died
// (gpy's views do not keep it alive; NumPy's do), an array over the whole
// buffer stands in for it.
static Value base_of(ArrayObj* a) {
    if (a->pending()) materialize(a);
    if (a->owndata || a->numpy_scalar || !a->buffer) return Value::none();
    Buffer* b = a->buffer.get();
    if (b->owner && b->owner != a) return Value::object(const_cast<ArrayObj*>(static_cast<const ArrayObj*>(b->owner)));
    DType t = b->nbytes % itemsize(a->dtype) == 0 ? a->dtype : DType::UInt8;
    dag::Shape whole{int64_t(b->nbytes / itemsize(t))};
    Value r = array_from_buffer(a->buffer, t, whole, dag::contiguous_strides(whole, itemsize(t)), 0);
    r.as<ArrayObj>()->owndata = true;
    b->owner = r.as<ArrayObj>();
    return r;
}

Value slot_getattr(Interp& in, const Value& v, const std::string& name) {
    ArrayObj* a = v.as<ArrayObj>();
    if (name == "shape") return tuple_of(a->shape);
    if (name == "dtype") return dtype_value(a->dtype);
    if (name == "ndim") return Value::integer(a->ndim());
    if (name == "size") return Value::integer(a->size());
    if (name == "itemsize") return Value::integer(int64_t(itemsize(a->dtype)));
    if (name == "nbytes") return Value::integer(a->size() * int64_t(itemsize(a->dtype)));
    if (name == "strides") {
        if (a->pending()) materialize(a);
        return tuple_of(a->strides);
    }
    if (name == "T") {
        Value m = get_attr(in, v, "transpose");
        return in.call0(m);
    }
    if (name == "device") {
        // CuPy: the Device the memory is on (a pending array: the current one).
        if (array_device_kind() != DeviceKind::CUDA) return make_str("cpu");
        bool on_gpu = a->buffer && a->buffer->device == DeviceKind::CUDA;
        return cuda_device_object(on_gpu ? a->buffer->device_index : array_device_index());
    }
    if (name == "flags") return array_flags(a);
    if (name == "base") return base_of(a);
    if (name == "flat") return flat_iterator(v);
    if (name == "mT") return matrix_transpose_view(a);
    if (name == "real" || name == "imag") return complex_part(v, name == "imag");
    if (name == "data" || name == "__array_interface__" || name == "__cuda_array_interface__") return array_interface_attr(in, v, name);
    return Value();
}

Value slot_iter(Interp& in, const Value& v) {
    ArrayObj* a = v.as<ArrayObj>();
    if (a->shape.empty()) raise(types::TypeError, "iteration over a 0-d array");
    std::vector<Value> rows;
    for (int64_t k = 0; k < a->shape[0]; ++k) rows.push_back(get_item(in, v, Value::integer(k)));
    return make_list_iterator(make_list(std::move(rows)));
}

// dtype objects: repr dtype('float32'), str float32, equality with names and scalar types.
std::string dtype_repr(Interp&, const Value& v) { return std::string("dtype('") + name(v.as<DTypeObj>()->dtype) + "')"; }
std::string dtype_str(Interp&, const Value& v) { return name(v.as<DTypeObj>()->dtype); }
bool dtype_equal(Interp& in, const Value& a, const Value& b) {
    auto other = maybe_dtype(in, b);
    return other && *other == a.as<DTypeObj>()->dtype;
}
uint64_t dtype_hash(Interp&, const Value& v) { return 0x9e3779b9u + uint64_t(v.as<DTypeObj>()->dtype); }
Value dtype_getattr(Interp&, const Value& v, const std::string& n) {
    DType t = v.as<DTypeObj>()->dtype;
    if (n == "name") return make_str(name(t));
    if (n == "itemsize") return Value::integer(int64_t(itemsize(t)));
    if (n == "char") return make_str(info(t).char_code);
    if (n == "kind") {
        const char* k = kind(t) == DKind::Bool ? "b" : kind(t) == DKind::Int ? "i" : kind(t) == DKind::UInt ? "u" : kind(t) == DKind::Float ? "f" : "c";
        return make_str(k);
    }
    if (n == "type") return Value::object(g_scalar_types[int(t)]);
    // Native byte order ('|': not applicable to one byte); complex aligns as its parts.
    if (n == "byteorder") return make_str(itemsize(t) == 1 ? "|" : "=");
    if (n == "alignment") return Value::integer(int64_t(is_complex(t) ? itemsize(t) / 2 : itemsize(t)));
    // The array-protocol type string: byte order ('|' when it does not apply), kind, item size.
    if (n == "str") {
        const char* k = kind(t) == DKind::Bool ? "b" : kind(t) == DKind::Int ? "i" : kind(t) == DKind::UInt ? "u" : kind(t) == DKind::Float ? "f" : "c";
        return make_str(std::string(itemsize(t) == 1 ? "|" : "<") + k + std::to_string(itemsize(t)));
    }
    return Value();
}

// np.float32(x): a NumPy scalar of that type (a 0-d array), or an array
// when x is a sequence.
template <int K>
Value construct_scalar(Interp& in, CallArgs& a) {
    DType t = DType(K);
    if (a.npos == 0) {
        Value z = new_array(t, {}, true);
        set_numpy_scalar(z.as<ArrayObj>(), true);
        return z;
    }
    const Value& v = a.pos[0];
    if (is_kind(v, OK::Str)) {
        Value num = in.call1(Value::object(is_complex(t) ? types::complex : is_float(t) ? types::real : types::integer), v);
        CallArgs parsed{&num, 1, nullptr};
        return construct_scalar<K>(in, parsed);
    }
    // From a Python number: a host scalar on a GPU context (HostArraysScope).
    std::optional<HostArraysScope> host;
    if (v.is_number() || as_complex(v)) host.emplace();
    Value r = as_array_value(in, v, t);
    ArrayObj* ra = r.as<ArrayObj>();
    if (ra->shape.empty()) {
        materialize(ra);
        Value s = array_from_buffer(ra->buffer, ra->dtype, {}, {}, ra->offset);
        set_numpy_scalar(s.as<ArrayObj>(), true);
        return s;
    }
    return r;
}

template <int... K>
constexpr std::array<NativeFn, sizeof...(K)> scalar_constructors(std::integer_sequence<int, K...>) {
    return {construct_scalar<K>...};
}

}  // namespace


void init_array_types() {
    static std::once_flag once;
    std::call_once(once, [] {
        types::ndarray = new TypeObject("numpy.ndarray", nullptr, OK::Array);
        types::ndarray->doc = "ndarray(shape, dtype=float): N-dimensional array (NumPy semantics)";
        types::ndarray->repr = slot_repr;
        types::ndarray->str = slot_str;
        types::ndarray->truth = slot_truth;
        types::ndarray->len = slot_len;
        types::ndarray->scalar = slot_scalar;
        // Lazy across statements (issue 5): an array bound to a name stays
        // pending until observed, so consecutive statements fuse; the cost
        // model in materialize() computes held values once. Config::lazy
        // false (GPY_LAZY=0): one statement, one kernel (an array is
        // computed when bound to a name).
        types::ndarray->on_bind = [](const Value& v) {
            if (!bound_array_state().lazy) {
                MaterializeReason why("bound to a name (GPY_LAZY=0)");
                materialize(v.as<ArrayObj>());
            }
        };
        types::ndarray->hash = slot_hash;
        types::ndarray->getattr = slot_getattr;
        types::ndarray->iter = slot_iter;
        install_array_setattr();
        types::dtype = new TypeObject("numpy.dtype", nullptr, OK::DType);
        types::dtype->repr = dtype_repr;
        types::dtype->str = dtype_str;
        types::dtype->equal = dtype_equal;
        types::dtype->hash = dtype_hash;
        types::dtype->getattr = dtype_getattr;
        types::AxisError = new TypeObject("AxisError", types::ValueError, OK::Exception);
        types::AxisError->base2 = types::IndexError;  // NumPy's AxisError is both
        types::AxisError->doc = "Axis supplied was invalid.";
        types::UFuncTypeError = new TypeObject("UFuncTypeError", types::TypeError, OK::Exception);
        types::UFuncTypeError->doc = "A ufunc cannot cast its inputs or output as asked.";
        types::ndarray->index = slot_index;
        static const auto ctors = scalar_constructors(std::make_integer_sequence<int, kNumDTypes>{});
        for (int k = 0; k < kNumDTypes; ++k) g_scalar_types[k] = make_scalar_type(DType(k), ctors[size_t(k)]);
        install_array_methods();
        install_shape_methods();
        install_sorting_methods();
        install_linalg_methods();
        install_scan_methods();
        install_indexing_methods();
        install_complex_methods();
        install_dlpack_methods();
        install_array_interface();
        inherit_array_methods(types::ndarray);
    });
}

TypeObject* scalar_type_object(DType t) { return g_scalar_types[int(t)]; }

void set_numpy_scalar(ArrayObj* a, bool on) {
    a->numpy_scalar = on && a->shape.empty();
    a->type = a->numpy_scalar ? g_scalar_types[int(a->dtype)] : types::ndarray;
}

}  // namespace gpy
