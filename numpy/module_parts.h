// The parts of the array module, one file each. make_numpy_module() calls
// every add_* function on the module it builds (once per interpreter) and
// init_array_types() calls every install_*_methods function (once per process).
#pragma once

#include "lang/interp.h"

namespace gpy {

struct ArrayObj;

// numpy/shape_funcs.cpp: concatenate, stack, split, tile, repeat, flip, roll, pad, diag, ...
void add_shape_functions(Interp& in, ModuleObj* m);
void install_shape_methods();
// numpy/sorting.cpp: sort, argsort, unique, searchsorted, nonzero, argwhere
void add_sorting_functions(Interp& in, ModuleObj* m);
void install_sorting_methods();
// np.nonzero(x): a tuple of int64 index arrays (numpy/searching.cpp); np.where(cond)
// when for_where (its 0-d error message says more).
Value nonzero(Interp& in, const Value& x, bool for_where = false);
// numpy/linalg.cpp, numpy/einsum.cpp: dot, inner, outer, tensordot, einsum, trace, np.linalg
void add_linalg_functions(Interp& in, ModuleObj* m);
void install_linalg_methods();
// numpy/random.cpp: np.random (Philox4x32-10, cuRAND's stream)
void add_random_module(Interp& in, ModuleObj* m);
void add_fft_module(Interp& in, ModuleObj* m);  // fft.cpp (the rest: py/fft.py)
void add_index_tricks(Interp& in, ModuleObj* m);
void add_exceptions_module(Interp& in, ModuleObj* m);  // np.exceptions (exceptions_module.cpp)
void add_error_state_functions(Interp& in, ModuleObj* m);  // geterr, seterr, errstate, printoptions
// print_functions.cpp: set/get_printoptions, array2string, array_str, array_repr, format_float_*
void add_print_functions(Interp& in, ModuleObj* m);
void add_poly1d(Interp& in, ModuleObj* m);  // poly1d.cpp (its rules: py/poly1d.py)
Value np_get_printoptions(Interp& in, CallArgs& a);
// array_attrs.cpp: a.flat, a.mT, attribute assignment, shares_memory.
void add_memory_functions(Interp& in, ModuleObj* m);
Value flat_iterator(const Value& array);
Value matrix_transpose_view(ArrayObj* a);
void install_array_setattr();
// numpy/npy_io.cpp: save, load, savetxt, loadtxt
void add_io_functions(Interp& in, ModuleObj* m);
// numpy/arange.cpp: np.arange
Value np_arange(Interp& in, CallArgs& a);
// numpy/type_info.cpp: finfo, iinfo
void add_type_info_functions(Interp& in, ModuleObj* m);
// numpy/scan.cpp: cumsum, cumprod, nan-reductions; ufunc objects and their methods
void add_scan_functions(Interp& in, ModuleObj* m);
void add_histogram_functions(Interp& in, ModuleObj* m);  // histogram.cpp: _histogram_uniform
void install_scan_methods();
// numpy/indexing_functions.cpp: take, put, take_along_axis, put_along_axis, choose, compress, extract, place, putmask
void add_indexing_functions(Interp& in, ModuleObj* m);
void install_indexing_methods();
// numpy/complex_parts.cpp: real, imag, angle, conj, iscomplex, isreal, iscomplexobj, isrealobj
void add_complex_functions(Interp& in, ModuleObj* m);
void install_complex_methods();
// numpy/set_ops.cpp: whether argument k (or keyword `key`) is complex as an
// array; and a call of numpy/py's function `name` with the same arguments
// (the complex versions of sorting-based functions).
bool complex_argument(Interp& in, CallArgs& a, size_t k, const char* key);
Value call_numpy_py(Interp& in, const char* name, CallArgs& a);
// numpy/cuda_module.cpp: device_count, Device, get_device_properties, memory pools; np.cuda
void add_cuda_functions(Interp& in, ModuleObj* m);
// x.device on the CUDA backend: a Device object for CUDA device `id`.
Value cuda_device_object(int id);
// `x` itself, or under a current device other than the one x's memory is on,
// a C-contiguous copy of x on the current device (asarray, array).
Value to_current_device(Interp& in, const Value& x);
// numpy/pinned_memory.cpp: cuda.alloc_pinned_memory, set_pinned_memory_allocator, np.frombuffer (after add_cuda_functions)
void add_pinned_memory_functions(Interp& in, ModuleObj* m);
// numpy/cuda_streams.cpp: Stream, Event, get_current_stream, get_elapsed_time (after add_cuda_functions)
void add_stream_functions(Interp& in, ModuleObj* m);
// A launch given a stream (CuPy's k[grid, block, stream], RawKernel's
// stream=): that Stream is current until the scope ends; None changes nothing.
class StreamScope {
public:
    explicit StreamScope(const Value& stream);
    ~StreamScope();
    StreamScope(const StreamScope&) = delete;
    StreamScope& operator=(const StreamScope&) = delete;

private:
    Value saved_;
};
// numpy/benchmark.cpp: benchmark() (cupyx.profiler.benchmark; after add_cuda_functions)
void add_benchmark_function(Interp& in, ModuleObj* m);
void add_user_kernel_functions(Interp& in, ModuleObj* m);  // user_kernels.cpp: np.ElementwiseKernel
void add_raw_kernel_functions(Interp& in, ModuleObj* m);   // raw_kernels.cpp: np.RawKernel, np.RawModule
void add_reduction_kernel_functions(Interp& in, ModuleObj* m);  // user_reduction.cpp: np.ReductionKernel
// x.real / x.imag of an array: views into complex data; a real array / zeros otherwise.
Value complex_part(const Value& x, bool imag);

}  // namespace gpy
