// Helpers shared by the shape-function files (shape_*.cpp, array_flags.cpp)
// and the order= arguments of array_methods.cpp / numpy_module.cpp: views
// along axes, memory layouts, NumPy's order argument.
#pragma once

#include <vector>

#include "numpy/array.h"

namespace gpy {

// The parts add_shape_functions() registers, one file each.
void add_view_functions(Interp& in, ModuleObj* m);    // shape_views.cpp
void add_join_functions(Interp& in, ModuleObj* m);    // shape_join.cpp
void add_repeat_functions(Interp& in, ModuleObj* m);  // shape_repeat.cpp
void add_pad_functions(Interp& in, ModuleObj* m);     // shape_pad.cpp
void add_diag_functions(Interp& in, ModuleObj* m);    // shape_diag.cpp
Value np_tril(Interp& in, CallArgs& a);                // np.tril(m, k=0)
Value np_triu(Interp& in, CallArgs& a);                // np.triu(m, k=0)
void add_grid_functions(Interp& in, ModuleObj* m);    // shape_grid.cpp
void install_view_methods();                          // x.diagonal()
void install_repeat_methods();                        // x.repeat()

// The argument at `pos` or keyword `name`; a TypeError naming it when absent.
const Value& required(CallArgs& a, size_t pos, const char* name, const char* fname);

// ---- views (the argument is materialised first) ----

// An array-like converted to a materialised array.
Value materialized(Interp& in, const Value& v);
// A view of x's buffer with another shape, strides and offset.
Value view_of(ArrayObj* x, dag::Shape shape, std::vector<int64_t> strides, int64_t offset);
// x[..., begin:end, ...] (begin <= end, both within the axis) along `axis`.
Value slice_axis(ArrayObj* x, int axis, int64_t begin, int64_t end);
// x[..., begin:begin-count:-1, ...] along `axis`: `count` elements backwards from `begin`.
Value reversed_axis(ArrayObj* x, int axis, int64_t begin, int64_t count);
// x[..., i, ...]: the axis removed.
Value index_axis(ArrayObj* x, int axis, int64_t i);
// np.moveaxis(x, src, dst) for one normalised axis.
Value moveaxis_view(ArrayObj* x, int src, int dst);
// x with a new axis of length 1 at (normalised) position `axis`.
Value insert_axis(ArrayObj* x, int axis);
// np.broadcast_to(x, shape) (raises NumPy's message when it cannot).
Value broadcast_view(ArrayObj* x, const dag::Shape& shape);
// The broadcast shape of arrays, or np.broadcast's ValueError naming the first pair that clashes.
dag::Shape broadcast_all(const std::vector<Value>& xs);
// normalize_axis with NumPy's "argname: " prefix on the AxisError (none when null).
int normalize_axis_named(int64_t axis, int ndim, const char* argname);
// NumPy's normalize_axis_tuple: an int or a sequence of ints, each normalised
// against ndim; a repeat raises "repeated axis" (+ " in `argname` argument").
std::vector<int> axis_tuple(Interp& in, const Value& v, int ndim, const char* argname = nullptr);
// np.diagonal(x, offset, axis1, axis2) (shape_views.cpp).
Value diagonal_view(ArrayObj* x, int64_t offset, int64_t axis1, int64_t axis2);
// np.atleast_{1,2,3}d of one array-like (shape_views.cpp).
Value atleast_nd(Interp& in, const Value& v, int n);
// Python's slice clamping of one index into [0, n].
int64_t clamp_index(int64_t i, int64_t n);

// ---- memory order ----

// order= as 'C', 'F', 'A' or 'K' (None -> dflt); raises NumPy's ValueError.
char order_arg(const Value* v, char dflt);
// order= of functions that take only 'C' or 'F' (None -> 'C').
char c_or_f_order(const Value* v);
// NumPy's contiguity flags (size-0 arrays are both; length-1 axes ignored).
bool is_c_contiguous(const ArrayObj* x);
bool is_f_contiguous(const ArrayObj* x);
// 'A' and 'K' resolved against x: 'A' is 'F' when x is F- and not C-contiguous;
// 'K' is 'C' for C-contiguous x.
char resolve_order(char order, const ArrayObj* x);
// A new uninitialised array laid out in `order` ('C', 'F', or 'K': the axis
// order of `proto`'s memory); zero-filled when `zero`.
Value new_array_order(DType t, const dag::Shape& shape, char order, const ArrayObj* proto = nullptr, bool zero = false);
// A copy of x cast to t, laid out in `order` (resolved against x).
Value copy_order(Interp& in, const Value& x, DType t, char order);
// The shape `dims` asks of an array of `size` elements of dtype dt, with its
// one -1 resolved: NumPy's _fix_unknown_dimension (an overflowing product
// is a size mismatch, not an overflow) and then its "array is too big".
dag::Shape resolve_new_shape(const std::vector<Value>& dims, int64_t size, DType dt);
// x reshaped reading and writing in 'C' or 'F' (or 'A') index order; a view
// when x's layout allows one without copying.
Value reshape_order(ArrayObj* x, const dag::Shape& shape, char order);
// x's elements in `order` as one axis ('K': the order NumPy's iterator
// visits memory in): a view when they lie contiguous that way and not
// `copy` (x.ravel), else a new array (x.flatten).
Value flat_order(ArrayObj* x, char order, bool copy);
Value ravel_order(ArrayObj* x, char order);

// x.flags (array_flags.cpp).
Value array_flags(ArrayObj* x);
void install_flags_type();

}  // namespace gpy
