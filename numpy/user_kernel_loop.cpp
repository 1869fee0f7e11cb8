// An ElementwiseKernel CuPy's way: one generated CUDA C++ kernel whose
// grid-stride loop walks the broadcast shape, for what the fused path
// (numpy/user_kernels.cpp) cannot express: the loop index `i` and `_ind`,
// `raw` parameters (the whole array, indexed by the operation), several
// outputs, more than three inputs, loop_prep and after_loop. It runs as a
// raw kernel (numpy/raw_kernels.h): NVRTC on a GPU, the CPU's emulation of
// CUDA otherwise.
#include <cstring>
#include <sstream>

#include "numpy/raw_kernels.h"
#include "numpy/ufuncs.h"
#include "numpy/user_kernels.h"

namespace gpy {

namespace {

// The types the generated source declares before the user's preamble.
constexpr const char* kLoopTypes = R"CUDA(
template <int N> struct gpy_shape { long long d[N]; };
// A non-raw operand: its first element and byte strides over the loop's shape (0 where broadcast).
template <class T, int N> struct gpy_arg { T* p; long long s[N]; };
// A raw operand (CuPy's CArray): size(), shape(), strides(), x[flat index] in C order, x[index array].
template <class T, int N> struct gpy_raw {
    T* data_;
    long long size_, contiguous_;
    long long shape_[N], strides_[N];
    __device__ long long size() const { return size_; }
    __device__ const long long* shape() const { return shape_; }
    __device__ const long long* strides() const { return strides_; }
    __device__ T* data() const { return data_; }
    __device__ T& operator[](long long i) const {
        if (contiguous_) return data_[i];
        long long off = 0;
        for (int d = N - 1; d >= 0; --d) {
            off += (i % shape_[d]) * strides_[d];
            i /= shape_[d];
        }
        return *(T*)((char*)data_ + off);
    }
    template <class I> __device__ T& operator[](const I* idx) const {
        long long off = 0;
        for (int d = 0; d < N; ++d) off += (long long)idx[d] * strides_[d];
        return *(T*)((char*)data_ + off);
    }
};
// CuPy's _ind: the loop's size and the current flat index.
struct gpy_indexer {
    long long size_, i_;
    __device__ long long size() const { return size_; }
    __device__ long long get() const { return i_; }
};
)CUDA";

void put_i64(std::vector<uint8_t>& bytes, int64_t v) {
    const size_t at = bytes.size();
    bytes.resize(at + 8);
    std::memcpy(bytes.data() + at, &v, 8);
}
void put_ptr(std::vector<uint8_t>& bytes, void* p) {
    const size_t at = bytes.size();
    bytes.resize(at + sizeof p);
    std::memcpy(bytes.data() + at, &p, sizeof p);
}

// The ElementwiseKernel's message form: "argument x of ElementwiseKernel 'name'".
std::string label(const UserKernelDef& k, const UserParam& p) { return "argument " + p.name + " of ElementwiseKernel '" + k.name + "'"; }

}  // namespace

std::vector<UserOperand> bind_user_operands(const std::vector<UserParam>& in, const std::vector<UserParam>& out, const std::string& kname,
                                            const Value* args, size_t nargs, std::map<std::string, DType>& bound) {
    const bool outs_given = nargs == in.size() + out.size();
    if (nargs != in.size() && !outs_given) raise(types::TypeError, "Wrong number of arguments for " + kname);
    // Bind the placeholders: arrays first (inputs, then outputs), scalars last.
    std::vector<UserOperand> ops;
    for (size_t i = 0; i < in.size() + out.size(); ++i) {
        const bool output = i >= in.size();
        const UserParam& p = output ? out[i - in.size()] : in[i];
        UserOperand o{&p, output, Value(), Value(), DType::Float64};
        if (i < nargs) {
            ArrayObj* a = as_array(args[i]);
            if (a && !a->numpy_scalar) {
                o.array = args[i];
                if (!p.fixed) {
                    auto [it, fresh] = bound.emplace(p.type, a->dtype);
                    if (!fresh && it->second != a->dtype)
                        raise(types::TypeError, "Type is mismatched. " + p.name + " " + name(a->dtype) + " " + name(it->second) + " " + p.type);
                }
            } else if (output) {
                raise(types::TypeError, "Output argument " + p.name + " must be an array");
            } else if (p.raw) {
                raise(types::TypeError, "Raw argument " + p.name + " must be an array");
            } else if (!a && !args[i].is_number() && !(args[i].is_obj() && args[i].o->type == types::complex)) {
                raise(types::TypeError, std::string("Unsupported type ") + type_name(args[i]) + " for " + p.name);
            } else {
                o.scalar = args[i];
            }
        } else if (p.raw) {
            raise(types::ValueError, "Output array size is Undecided: the raw output " + p.name + " must be given");
        }
        ops.push_back(o);
    }
    for (UserOperand& o : ops)
        if (!o.scalar.is_undef() && !o.param->fixed && !bound.count(o.param->type)) {
            ArrayObj* a = as_array(o.scalar);
            bound.emplace(o.param->type, a ? a->dtype : o.scalar.kind == VK::Bool ? DType::Bool
                                                      : o.scalar.kind == VK::Int  ? DType::Int64
                                                      : o.scalar.kind == VK::Float ? DType::Float64
                                                                                  : DType::Complex128);
        }
    for (UserOperand& o : ops) {
        if (o.param->fixed) {
            o.dtype = *o.param->fixed;
        } else {
            auto it = bound.find(o.param->type);
            if (it == bound.end()) raise(types::TypeError, "Cannot determine the type of " + o.param->name + " (" + o.param->type + ")");
            o.dtype = it->second;
        }
        kernel_ctype(o.dtype, "'" + kname + "'");  // supported?
    }
    return ops;
}

std::vector<uint8_t> scalar_operand_bytes(const UserOperand& o) {
    std::vector<uint8_t> b(16, 0);  // 16: a complex128
    dag::ScalarValue s = convert_scalar(o.scalar, o.dtype);
    ArrayObj* a = as_array(o.scalar);
    if (a && a->dtype == o.dtype) {
        materialize(a);
        std::memcpy(b.data(), a->buffer.host_read_bytes() + a->offset, itemsize(o.dtype));
    } else if (o.dtype == DType::Complex64) {
        const float re = float(s.f), im = float(s.imag);
        std::memcpy(b.data(), &re, 4);
        std::memcpy(b.data() + 4, &im, 4);
    } else if (o.dtype == DType::Complex128) {
        std::memcpy(b.data(), &s.f, 8);
        std::memcpy(b.data() + 8, &s.imag, 8);
    } else if (o.dtype == DType::Float32) {
        std::memcpy(b.data(), &s.f32, 4);
    } else if (o.dtype == DType::Float64) {
        std::memcpy(b.data(), &s.f, 8);
    } else if (o.dtype == DType::Bool) {
        b[0] = s.b;
    } else {
        std::memcpy(b.data(), &s.i, itemsize(o.dtype));
    }
    return b;
}

std::string user_kernel_header(const std::map<std::string, DType>& bound, const std::string& name, bool complex) {
    // complex<T> (CuPy's type for complex64/complex128 parameters) from cupy/complex.cuh.
    for (auto& [t, d] : bound) complex |= is_complex(d);
    std::string h = complex ? "#include <cupy/complex.cuh>\n" : "";
    for (auto& [t, d] : bound) h += "typedef " + kernel_ctype(d, name) + " " + t + ";\n";
    return h + kLoopTypes;
}

std::vector<Value> run_loop_kernel(Interp& in, UserKernelDef& k, const Value* args, size_t nargs, std::optional<int64_t> size) {
    std::map<std::string, DType> bound;
    std::vector<UserOperand> ops = bind_user_operands(k.in, k.out, k.name, args, nargs, bound);
    // The loop's shape: the non-raw arrays broadcast, or size=.
    // (Given outputs broadcast with the inputs, as CuPy's; each must then
    // have the loop's shape.)
    std::vector<const dag::Shape*> shapes;
    for (const UserOperand& o : ops)
        if (!o.array.is_undef() && !o.param->raw) shapes.push_back(&as_array(o.array)->shape);
    dag::Shape shape;
    if (size) {
        if (!shapes.empty()) raise(types::ValueError, "Specified 'size' can be used only if all of the ndarray are 'raw'.");
        shape = {*size};
    } else {
        if (shapes.empty()) raise(types::ValueError, "Loop size is Undecided");
        shape = broadcast_shapes(std::span<const dag::Shape* const>(shapes.data(), shapes.size()));
    }
    // Outputs not given: allocated over the loop's shape.
    for (UserOperand& o : ops)
        if (o.output && o.array.is_undef()) o.array = new_array(o.dtype, shape);
    // Inputs of another dtype than their parameter's: cast into a copy. A
    // given output must have its parameter's dtype (CuPy's TypeError).
    for (UserOperand& o : ops) {
        if (o.array.is_undef()) continue;
        ArrayObj* a = as_array(o.array);
        if (o.output && !o.param->raw && a->shape != shape) raise(types::ValueError, "Out shape is mismatched");
        if (a->dtype == o.dtype) continue;
        if (o.output || o.param->raw)
            raise(types::TypeError, "Type is mismatched. " + o.param->name + " " + name(a->dtype) + " " + name(o.dtype) + " " + o.param->type);
        o.array = compute_into_new(dag::make_cast(array_node(a), o.dtype), o.dtype, a->shape);
    }
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    // Each non-raw array's byte strides over the loop's shape (right-aligned,
    // 0 where broadcast); then size-1 dims dropped and adjacent dims merged
    // where every operand walks them as one (CuPy's reduce_dims): a
    // contiguous loop is one dim, with no division per element.
    dag::Shape loop_shape;
    std::vector<std::vector<int64_t>> walk(ops.size());
    for (size_t i = 0; i < ops.size(); ++i) {
        if (ops[i].array.is_undef() || ops[i].param->raw) continue;
        ArrayObj* a = as_array(ops[i].array);
        materialize(a);
        const int off = int(shape.size()) - a->ndim();
        for (int d = 0; d < int(shape.size()); ++d) {
            const int ad = d - off;
            walk[i].push_back(ad < 0 || a->shape[size_t(ad)] == 1 ? 0 : a->strides[size_t(ad)]);
        }
    }
    std::vector<std::vector<int64_t>> merged(ops.size());  // built from the innermost dim out
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
        if (shape[size_t(d)] == 1) continue;
        bool merge = !loop_shape.empty();
        for (size_t i = 0; merge && i < ops.size(); ++i)
            if (!walk[i].empty() && walk[i][size_t(d)] != merged[i][0] * loop_shape[0]) merge = false;
        if (merge) {
            loop_shape[0] *= shape[size_t(d)];
            continue;
        }
        loop_shape.insert(loop_shape.begin(), shape[size_t(d)]);
        for (size_t i = 0; i < ops.size(); ++i)
            if (!walk[i].empty()) merged[i].insert(merged[i].begin(), walk[i][size_t(d)]);
    }
    if (loop_shape.empty()) loop_shape = {1};
    for (size_t i = 0; i < ops.size(); ++i)  // (a 0-d operand walks the one dim by 0)
        if (!ops[i].array.is_undef() && !ops[i].param->raw) walk[i] = merged[i].empty() ? std::vector<int64_t>{0} : merged[i];
    const int N = int(loop_shape.size());

    // The source: placeholder typedefs, the helper types, the preamble, the kernel.
    std::ostringstream src;
    bool complex = false;
    for (const UserOperand& o : ops) complex |= is_complex(o.dtype);
    src << user_kernel_header(bound, k.name, complex) << k.preamble << "\n";
    src << "extern \"C\" __global__ void " << k.name << "(";
    std::vector<int> raw_ndim(ops.size(), 0);
    for (size_t i = 0; i < ops.size(); ++i) {
        const UserOperand& o = ops[i];
        const std::string ct = kernel_ctype(o.dtype, k.name);
        if (o.param->raw) {
            raw_ndim[i] = std::max(1, as_array(o.array)->ndim());
            src << "gpy_raw<" << ct << ", " << raw_ndim[i] << "> " << o.param->name;
        } else if (!o.array.is_undef()) {
            src << "gpy_arg<" << (o.output ? "" : "const ") << ct << ", " << N << "> gpy_a_" << o.param->name;
        } else {
            src << ct << " " << o.param->name;
        }
        src << ", ";
    }
    src << "gpy_shape<" << N << "> gpy_sh, long long gpy_n) {\n";
    src << "gpy_indexer _ind; _ind.size_ = gpy_n; (void)_ind;\n" << k.loop_prep << "\n";
    src << "for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < gpy_n; i += (long long)blockDim.x * gridDim.x) {\n";
    src << "_ind.i_ = i;\nlong long gpy_rem = i";
    for (size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].param->raw && !ops[i].array.is_undef()) src << ", gpy_o" << i << " = 0";
    src << ";\nfor (int gpy_d = " << N - 1 << "; gpy_d > 0; --gpy_d) {\nconst long long gpy_c = gpy_rem % gpy_sh.d[gpy_d]; gpy_rem /= gpy_sh.d[gpy_d];\n";
    for (size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].param->raw && !ops[i].array.is_undef()) src << "gpy_o" << i << " += gpy_c * gpy_a_" << ops[i].param->name << ".s[gpy_d];\n";
    src << "}\n";
    for (size_t i = 0; i < ops.size(); ++i)  // the outermost dim: what remains of the index
        if (!ops[i].param->raw && !ops[i].array.is_undef()) src << "gpy_o" << i << " += gpy_rem * gpy_a_" << ops[i].param->name << ".s[0];\n";
    for (size_t i = 0; i < ops.size(); ++i) {
        const UserOperand& o = ops[i];
        if (o.param->raw || o.array.is_undef()) continue;
        const std::string ct = kernel_ctype(o.dtype, k.name), nm = o.param->name;
        if (o.output)
            src << ct << "& " << nm << " = *(" << ct << "*)((char*)gpy_a_" << nm << ".p + gpy_o" << i << ");\n";
        else
            src << "const " << ct << " " << nm << " = *(const " << ct << "*)((const char*)gpy_a_" << nm << ".p + gpy_o" << i << ");\n";
    }
    src << k.operation << ";\n}\n" << k.after_loop << "\n}\n";

    const std::string text = src.str();
    Value& kernel = k.loops[text];
    if (kernel.is_undef()) {
        auto source = std::make_shared<RawSource>();
        source->code = text;
        source->file = k.name + ".cu";
        kernel = make_raw_kernel_object(source, k.name, "ElementwiseKernel");
    }
    // The arguments, laid out as the structs above (8-byte fields only).
    std::vector<std::vector<uint8_t>> bytes(ops.size() + 2);
    for (size_t i = 0; i < ops.size(); ++i) {
        const UserOperand& o = ops[i];
        std::vector<uint8_t>& b = bytes[i];
        if (o.array.is_undef()) {  // a scalar input, in its parameter's type
            b = scalar_operand_bytes(o);
            continue;
        }
        ArrayObj* a = as_array(o.array);
        put_ptr(b, kernel_pointer(a, o.output || o.param->raw, [&] { return label(k, *o.param); }));
        if (o.param->raw) {
            put_i64(b, a->size());
            put_i64(b, a->c_contiguous() ? 1 : 0);
            for (int d = 0; d < raw_ndim[i]; ++d) put_i64(b, a->ndim() ? a->shape[size_t(d)] : 1);
            for (int d = 0; d < raw_ndim[i]; ++d) put_i64(b, a->ndim() ? a->strides[size_t(d)] : 0);
        } else {
            for (int64_t st : walk[i]) put_i64(b, st);
        }
    }
    for (int64_t d : loop_shape) put_i64(bytes[ops.size()], d);
    put_i64(bytes[ops.size() + 1], n);
    if (n > 0) {
        std::vector<void*> pointers;
        for (auto& b : bytes) pointers.push_back(b.data());
        const unsigned block = 256;
        const uint64_t blocks = std::min<uint64_t>((uint64_t(n) + block - 1) / block, uint64_t(1) << 20);
        launch_packed(kernel, RawDims{unsigned(blocks), 1, 1}, RawDims{block, 1, 1}, 0, pointers);
    }
    std::vector<Value> outs;
    for (const UserOperand& o : ops)
        if (o.output) outs.push_back(o.array);
    return outs;
}

}  // namespace gpy
