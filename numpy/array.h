// The ndarray value: NumPy's data model (dtype, shape, byte strides, offset
// into a shared buffer) plus laziness: an array produced by an operation holds
// a pending DAG node until something needs its data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/dag.h"
#include "codegen/free_list.h"
#include "lang/interp.h"
#include "runtime/host_view.h"

namespace gpy {

namespace types {
extern TypeObject *ndarray, *dtype, *AxisError, *UFuncTypeError;
}

struct ArrayObj : Object {
    DType dtype = DType::Float64;
    dag::Shape shape;
    std::vector<int64_t> strides;  // bytes
    int64_t offset = 0;            // bytes into buffer
    BufferRef buffer;              // set once materialised
    dag::NodeP node;               // set while pending
    dag::NodeP input_node;         // the Input node reading this array (array_node), reused while it matches
    // A 0-d result that prints like a NumPy scalar (np.float64(3.0)): what
    // reductions and integer indexing return.
    bool numpy_scalar = false;
    // The buffer was allocated for this array, not borrowed from another (x.flags.owndata).
    bool owndata = false;
    uint64_t serial = 0;  // creation order (synchronize() computes newest first)
    // Computing it (with others) raised: synchronize() and the end of a REPL
    // input leave it to its own observation, which raises again.
    bool failed = false;
    int64_t pending_slot = -1;  // index in the pending-array list (array.cpp), -1 when not in it
    std::vector<ArrayObj*>* pending_list = nullptr;  // that list: its interpreter's (ArrayState::pending)

    ArrayObj() : Object(types::ndarray) {}
    ~ArrayObj() override;
    // From a per-thread free list (codegen/free_list.h): an array statement
    // makes and drops one per operation.
    static void* operator new(size_t n) { return n == sizeof(ArrayObj) ? FreeList<sizeof(ArrayObj)>::allocate() : ::operator new(n); }
    static void operator delete(void* p, size_t n) {
        if (n == sizeof(ArrayObj)) FreeList<sizeof(ArrayObj)>::release(p);
        else ::operator delete(p);
    }
    int ndim() const { return int(shape.size()); }
    int64_t size() const {
        int64_t n = 1;
        for (int64_t d : shape) n *= d;
        return n;
    }
    bool pending() const { return !buffer; }
    bool c_contiguous() const;
};

struct DTypeObj : Object {
    DType dtype;
    explicit DTypeObj(DType d) : Object(types::dtype), dtype(d) {}
};

void init_array_types();  // once per process

inline ArrayObj* as_array(const Value& v) { return is_kind(v, OK::Array) ? v.as<ArrayObj>() : nullptr; }

// The element count of `shape`, with NumPy's checks, made wherever an array
// is created: ValueError for a negative dimension, and for a shape whose
// bytes (zero dimensions counted as one, as NumPy does) pass int64.
// Sizes computed from user input (a shape times repetitions, plus pad
// widths): NumPy's ValueError instead of an int64 overflow.
[[noreturn]] void raise_size_overflow();
inline int64_t size_mul(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) raise_size_overflow();
    return r;
}
inline int64_t size_add(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) raise_size_overflow();
    return r;
}

// Inline: it runs for every array operation (~110 in a Black-Scholes call).
[[noreturn]] void raise_bad_shape(const dag::Shape& shape);
inline int64_t checked_size(const dag::Shape& shape, DType dt) {
    int64_t bytes = int64_t(itemsize(dt)), n = 1;
    for (int64_t d : shape) {
        if (d < 0 || __builtin_mul_overflow(bytes, d > 0 ? d : 1, &bytes)) raise_bad_shape(shape);
        n *= d;
    }
    return n;
}

// Wraps a pending node (not computed until needed).
Value array_from_node(dag::NodeP n, bool numpy_scalar = false);
// Makes a 0-d array a NumPy scalar (its type becomes numpy.float64 & co.,
// numpy/scalar_types.h), or an array again; `on` for a non-0-d array is ignored.
void set_numpy_scalar(ArrayObj* a, bool on);
// A fresh array over a buffer.
Value array_from_buffer(BufferRef buf, DType dt, dag::Shape shape, std::vector<int64_t> strides, int64_t offset);
// A new int64 array holding `v` (1-D, or of `shape` with as many elements).
Value int64_array(const std::vector<int64_t>& v);
Value int64_array(const std::vector<int64_t>& v, const dag::Shape& shape);
// An uninitialised C-contiguous array.
Value new_array(DType dt, const dag::Shape& shape, bool zero = false);
// The node to use when `a` feeds another operation.
dag::NodeP array_node(ArrayObj* a);
// A copy of a host array's buffer on the context's device (a GPU context's
// NumPy scalars live on the host: runtime/array_context.h HostArraysScope).
BufferRef device_copy(ArrayObj* a);
// Computes a pending array in place (it then holds a buffer).
void materialize(ArrayObj* a);
HostArrayView host_view(ArrayObj* a);  // materialises first
// A fresh C-contiguous array of `shape` holding `n`'s value broadcast to it
// (a copy of a view, a filled constant, a computed expression).
Value compute_into_new(const dag::NodeP& n, DType dtype, const dag::Shape& shape);

// Live arrays whose value is still pending. A write into a buffer first
// computes the pending arrays that read it (x2 = x + 1; x[0] = 5 keeps x2's
// value); synchronize() computes them all. Arrays that died (temporaries
// inside an expression or a function) are not in the set: their nodes are
// computed inline by whichever kernel consumes them.
// `except` (a temporary about to be computed into that memory) is left pending.
void flush_readers(const Buffer* buffer, const ArrayObj* except = nullptr);
void materialize_all_pending();

Value dtype_value(DType t);
// np.float32, "float32", np.dtype('f4'), int, float, bool -> DType. Raises TypeError.
DType to_dtype(Interp& in, const Value& v);
std::optional<DType> maybe_dtype(Interp& in, const Value& v);

// Converts anything array-like (array, Python scalar, nested lists/tuples) to an array.
Value as_array_value(Interp& in, const Value& v, std::optional<DType> dtype = std::nullopt);
// NumPy's checks for a Python int or float stored into an element of an
// integer array (setitem, fill, array(..., dtype=)): OverflowError when out of
// the dtype's range, ValueError for NaN. Other values and dtypes pass.
void check_python_store(const Value& v, DType t);
// A NumPy scalar stored by basic setitem or fill into a signed integer
// array: NumPy converts it with int() first, so it gets the Python int's
// checks (np.float64(300.5) or np.int64(300) into int8: OverflowError).
// Unsigned and other targets cast, as do advanced indexing and np.full.
void check_numpy_scalar_store(const Value& v, DType t);
// A Python scalar for element `flat` of a materialised array (row-major).
Value element_to_python(const ArrayObj* a, const uint8_t* p);
// Normalises an axis argument (raises AxisError with NumPy's message).
int normalize_axis(int64_t axis, int ndim);
std::string shape_text(const dag::Shape& s);  // "(3,)", "(2, 3)"
// "(3,)", "(2,3)": NumPy's shapes in iterator and setitem messages.
std::string compact_shape_text(const dag::Shape& s);

}  // namespace gpy
