// np.ReductionKernel (CuPy's cupy.ReductionKernel): a user's reduction in
// four C++ pieces: map_expr (the value of one element, from the inputs),
// reduce_expr (combines `a` and `b`), post_map_expr (the outputs, from the
// reduced `a`) and identity, over axis= with keepdims=. One generated raw
// kernel (numpy/raw_kernels.h) walks each output's elements: on the GPU a
// block per output with a shared-memory tree, or a thread per output when
// outputs are many or rows short; on the CPU a thread per output.
#include <algorithm>
#include <cstring>
#include <sstream>

#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/raw_kernels.h"
#include "numpy/reduce.h"
#include "numpy/ufuncs.h"
#include "numpy/user_kernels.h"
#include "runtime/backend.h"

namespace gpy {

namespace {

TypeObject* reduction_type();

struct ReductionObj : Object {
    std::vector<UserParam> in, out;
    std::string map_expr, reduce_expr, post_map_expr, identity, name, reduce_type, preamble;
    std::vector<std::string> options;
    bool reduce_dims = true;
    std::map<std::string, Value> kernels;  // by generated source
    ReductionObj() : Object(reduction_type()) {}
};

void put_i64(std::vector<uint8_t>& b, int64_t v) {
    const size_t at = b.size();
    b.resize(at + 8);
    std::memcpy(b.data() + at, &v, 8);
}

// kernel(*args, out=None, axis=None, keepdims=False, stream=None)
Value call_reduction(Interp& in, CallArgs& a) {
    auto* k = static_cast<ReductionObj*>(a.pos[0].o);
    std::vector<Value> args(a.pos + 1, a.pos + a.npos);
    Value axis = Value::none(), stream = Value::none();
    bool keepdims = false;
    for (auto& [key, v] : keywords(a)) {
        if (key == "axis") axis = v;
        else if (key == "keepdims") keepdims = truthy(v);
        else if (key == "out") {
            if (v.is_none()) continue;
            if (k->out.size() != 1) raise(types::ValueError, "out= is for a kernel with one output");
            if (args.size() != k->in.size()) raise(types::TypeError, "Wrong number of arguments for " + k->name);
            args.push_back(v);
        } else if (key == "stream") {
            stream = v;
        } else raise(types::TypeError, k->name + "() got an unexpected keyword argument '" + key + "'");
    }
    StreamScope on(stream);
    std::map<std::string, DType> bound;
    std::vector<UserOperand> ops = bind_user_operands(k->in, k->out, k->name, args.data(), args.size(), bound);
    // The reduction's type: reduce_type (a dtype or a placeholder), else the first output's.
    // reduce_type is C++ text, as CuPy pastes it ('float', 'unsigned int',
    // a placeholder); without it, the first output's parameter type. Its
    // size (for the partials) from the C name or the dtype it stands for.
    static const std::map<std::string, DType> c_types = {
        {"bool", DType::Bool}, {"signed char", DType::Int8}, {"char", DType::Int8}, {"unsigned char", DType::UInt8},
        {"short", DType::Int16}, {"unsigned short", DType::UInt16}, {"int", DType::Int32}, {"unsigned int", DType::UInt32},
        {"unsigned", DType::UInt32}, {"long", DType::Int64}, {"long long", DType::Int64}, {"unsigned long", DType::UInt64},
        {"unsigned long long", DType::UInt64}, {"float", DType::Float32}, {"double", DType::Float64},
        {"complex<float>", DType::Complex64}, {"complex<double>", DType::Complex128}};
    std::string rt = k->reduce_type.empty() ? k->out[0].type : k->reduce_type;
    DType rdt;
    if (auto c = c_types.find(rt); c != c_types.end()) {
        rdt = c->second;
    } else if (bound.count(rt)) {
        rdt = bound[rt];
    } else if (auto d = parse_dtype(rt); d && rt.size() > 1) {  // a dtype name (the default from a typed output parameter)
        rdt = *d;
        rt = kernel_ctype(*d, k->name);
    } else {
        raise(types::TypeError, "Cannot determine the reduce_type " + rt);
    }
    // The inputs broadcast; the reduced axes.
    std::vector<const dag::Shape*> shapes;
    for (const UserOperand& o : ops)
        if (!o.output && !o.array.is_undef()) shapes.push_back(&as_array(o.array)->shape);
    if (shapes.empty()) raise(types::ValueError, "Loop size is Undecided");
    const dag::Shape shape = broadcast_shapes(std::span<const dag::Shape* const>(shapes.data(), shapes.size()));
    const int D = int(shape.size());
    std::vector<int> axes = parse_axes(in, axis.is_none() ? nullptr : &axis, D);
    std::vector<bool> reduced(size_t(D), false);
    for (int x : axes) reduced[size_t(x)] = true;
    std::vector<int> kept_dims, red_dims;
    for (int d = 0; d < D; ++d) (reduced[size_t(d)] ? red_dims : kept_dims).push_back(d);
    dag::Shape out_shape, kept_shape;
    for (int d = 0; d < D; ++d) {
        if (!reduced[size_t(d)]) kept_shape.push_back(shape[size_t(d)]);
        if (!reduced[size_t(d)] || keepdims) out_shape.push_back(reduced[size_t(d)] ? 1 : shape[size_t(d)]);
    }
    int64_t nout = 1, nred = 1;
    for (int d : kept_dims) nout *= shape[size_t(d)];
    for (int d : red_dims) nred *= shape[size_t(d)];
    for (UserOperand& o : ops) {
        if (!o.output) continue;
        if (o.array.is_undef()) o.array = new_array(o.dtype, out_shape);
        ArrayObj* y = as_array(o.array);
        if (y->shape != out_shape) raise(types::ValueError, "Out shape is mismatched");
        if (y->dtype != o.dtype) raise(types::TypeError, "Type is mismatched. " + o.param->name + " " + name(y->dtype) + " " + name(o.dtype));
    }
    for (UserOperand& o : ops)  // inputs of another dtype than their parameter's: a cast copy
        if (!o.output && !o.array.is_undef() && as_array(o.array)->dtype != o.dtype)
            o.array = compute_into_new(dag::make_cast(array_node(as_array(o.array)), o.dtype), o.dtype, as_array(o.array)->shape);

    const int NK = std::max<int>(1, int(kept_dims.size())), NR = std::max<int>(1, int(red_dims.size()));
    const bool on_gpu = array_backend()->kind() == DeviceKind::CUDA;
    // A block per output where rows are long and outputs few enough to fill
    // the GPU that way; when they are too few for that (a full reduction),
    // each output's row is split into segments: a first launch leaves one
    // partial per segment, a second reduces the partials (phase 1, then 2;
    // phase 0 is the single pass).
    const bool block_per_output = on_gpu && nred > 64 && nout < 16384;
    int64_t segs = 1;
    if (block_per_output && nout < 512) segs = std::max<int64_t>(1, std::min<int64_t>((1024 + nout - 1) / nout, nred / 4096));
    std::ostringstream src;
    bool complex = false;
    for (const UserOperand& o : ops) complex |= is_complex(o.dtype);
    src << user_kernel_header(bound, k->name, complex) << k->preamble << "\n";
    src << "extern \"C\" __global__ void " << k->name << "(";
    for (const UserOperand& o : ops) {
        const std::string ct = kernel_ctype(o.dtype, k->name);
        if (o.output) src << "gpy_arg<" << ct << ", " << NK << "> gpy_a_" << o.param->name << ", ";
        else if (!o.array.is_undef()) src << "gpy_arg<const " << ct << ", " << NK + NR << "> gpy_a_" << o.param->name << ", ";
        else src << ct << " " << o.param->name << ", ";
    }
    src << "gpy_shape<" << NK << "> gpy_kept, gpy_shape<" << NR << "> gpy_red, long long gpy_nout, long long gpy_nred";
    if (block_per_output) src << ", " << rt << "* gpy_part, long long gpy_segs, int gpy_phase";
    src << ") {\n";
    src << "auto gpy_reduce = [&](" << rt << " a, " << rt << " b) -> " << rt << " { return (" << k->reduce_expr << "); };\n";
    if (block_per_output)
        src << "__shared__ " << rt << " gpy_s[256];\n"
            << "const long long gpy_units = gpy_phase == 1 ? gpy_nout * gpy_segs : gpy_nout;\n"
            << "for (long long gpy_u = blockIdx.x; gpy_u < gpy_units; gpy_u += gridDim.x) {\n"
            << "const long long gpy_o = gpy_phase == 1 ? gpy_u / gpy_segs : gpy_u;\n";
    else
        src << "for (long long gpy_o = blockIdx.x * (long long)blockDim.x + threadIdx.x; gpy_o < gpy_nout; gpy_o += (long long)blockDim.x * gridDim.x) {\n";
    // The output's position: base offsets of the inputs and the outputs.
    src << "long long gpy_rem = gpy_o";
    for (size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].array.is_undef()) src << ", gpy_b" << i << " = 0";
    // (The outermost dim takes what remains of the index: no division, none at all for one dim.)
    src << ";\nfor (int gpy_d = " << NK - 1 << "; gpy_d > 0; --gpy_d) {\nconst long long gpy_c = gpy_rem % gpy_kept.d[gpy_d]; gpy_rem /= gpy_kept.d[gpy_d];\n";
    for (size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].array.is_undef()) src << "gpy_b" << i << " += gpy_c * gpy_a_" << ops[i].param->name << ".s[gpy_d];\n";
    src << "}\n";
    for (size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].array.is_undef()) src << "gpy_b" << i << " += gpy_rem * gpy_a_" << ops[i].param->name << ".s[0];\n";
    src << rt << " gpy_acc = (" << rt << ")(" << k->identity << ");\n";
    // One element of the reduced row: its offsets, the inputs, the mapped value.
    src << "auto gpy_elem = [&](long long gpy_j) -> " << rt << " {\n";
    src << "long long gpy_r = gpy_j";
    for (size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].output && !ops[i].array.is_undef()) src << ", gpy_p" << i << " = gpy_b" << i;
    src << ";\nfor (int gpy_d = " << NR - 1 << "; gpy_d > 0; --gpy_d) {\nconst long long gpy_c = gpy_r % gpy_red.d[gpy_d]; gpy_r /= gpy_red.d[gpy_d];\n";
    for (size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].output && !ops[i].array.is_undef())
            src << "gpy_p" << i << " += gpy_c * gpy_a_" << ops[i].param->name << ".s[" << NK << " + gpy_d];\n";
    src << "}\n";
    for (size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].output && !ops[i].array.is_undef())
            src << "gpy_p" << i << " += gpy_r * gpy_a_" << ops[i].param->name << ".s[" << NK << "];\n";
    for (size_t i = 0; i < ops.size(); ++i) {
        const UserOperand& o = ops[i];
        if (o.output || o.array.is_undef()) continue;
        const std::string ct = kernel_ctype(o.dtype, k->name);
        src << "const " << ct << " " << o.param->name << " = *(const " << ct << "*)((const char*)gpy_a_" << o.param->name << ".p + gpy_p" << i << ");\n";
    }
    src << "return (" << rt << ")(" << k->map_expr << ");\n};\n";
    if (block_per_output)
        // Four elements a step into four accumulators: four loads in flight
        // per thread (a row's elements are latency-bound one at a time).
        src << "if (gpy_phase == 2) {\n"
               "for (long long gpy_j = threadIdx.x; gpy_j < gpy_segs; gpy_j += blockDim.x) gpy_acc = gpy_reduce(gpy_acc, gpy_part[gpy_o * gpy_segs + gpy_j]);\n"
               "} else {\nlong long gpy_lo = 0, gpy_hi = gpy_nred;\n"
               "if (gpy_phase == 1) {\nconst long long gpy_len = (gpy_nred + gpy_segs - 1) / gpy_segs;\n"
               "gpy_lo = gpy_u % gpy_segs * gpy_len;\nif (gpy_lo + gpy_len < gpy_hi) gpy_hi = gpy_lo + gpy_len;\n}\n"
               "long long gpy_j = gpy_lo + threadIdx.x;\nconst long long gpy_st = blockDim.x;\n"
            << rt << " gpy_acc1 = gpy_acc, gpy_acc2 = gpy_acc, gpy_acc3 = gpy_acc;\n"
               "for (; gpy_j + 3 * gpy_st < gpy_hi; gpy_j += 4 * gpy_st) {\n"
            << rt << " gpy_e0 = gpy_elem(gpy_j), gpy_e1 = gpy_elem(gpy_j + gpy_st), gpy_e2 = gpy_elem(gpy_j + 2 * gpy_st), gpy_e3 = gpy_elem(gpy_j + 3 * gpy_st);\n"
               "gpy_acc = gpy_reduce(gpy_acc, gpy_e0); gpy_acc1 = gpy_reduce(gpy_acc1, gpy_e1);\n"
               "gpy_acc2 = gpy_reduce(gpy_acc2, gpy_e2); gpy_acc3 = gpy_reduce(gpy_acc3, gpy_e3);\n}\n"
               "for (; gpy_j < gpy_hi; gpy_j += gpy_st) gpy_acc = gpy_reduce(gpy_acc, gpy_elem(gpy_j));\n"
               "gpy_acc = gpy_reduce(gpy_reduce(gpy_acc, gpy_acc1), gpy_reduce(gpy_acc2, gpy_acc3));\n}\n";
    else
        src << "for (long long gpy_j = 0; gpy_j < gpy_nred; ++gpy_j) gpy_acc = gpy_reduce(gpy_acc, gpy_elem(gpy_j));\n";
    if (block_per_output)
        src << "gpy_s[threadIdx.x] = gpy_acc;\n__syncthreads();\n"
               "for (unsigned gpy_h = blockDim.x / 2; gpy_h > 0; gpy_h >>= 1) {\n"
               "if (threadIdx.x < gpy_h) gpy_s[threadIdx.x] = gpy_reduce(gpy_s[threadIdx.x], gpy_s[threadIdx.x + gpy_h]);\n"
               "__syncthreads();\n}\nif (threadIdx.x == 0 && gpy_phase == 1) gpy_part[gpy_u] = gpy_s[0];\n"
               "else if (threadIdx.x == 0) {\n" << rt << " a = gpy_s[0];\n";
    else
        src << "{\n" << rt << " a = gpy_acc;\n";
    for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i].output) {
            const std::string ct = kernel_ctype(ops[i].dtype, k->name);
            src << ct << "& " << ops[i].param->name << " = *(" << ct << "*)((char*)gpy_a_" << ops[i].param->name << ".p + gpy_b" << i << ");\n";
        }
    src << k->post_map_expr << ";\n}\n";
    if (block_per_output) src << "__syncthreads();\n";
    src << "}\n}\n";

    const std::string text = src.str();
    Value& kernel = k->kernels[text];
    if (kernel.is_undef()) {
        auto source = std::make_shared<RawSource>();
        source->code = text;
        source->options = k->options;
        source->file = k->name + ".cu";
        kernel = make_raw_kernel_object(source, k->name, "ReductionKernel");
    }
    // Arguments: inputs' strides over (kept dims, reduced dims), outputs' over the kept dims.
    std::vector<std::vector<uint8_t>> bytes;
    for (const UserOperand& o : ops) {
        std::vector<uint8_t> b;
        if (o.array.is_undef()) {
            bytes.push_back(scalar_operand_bytes(o));
            continue;
        }
        ArrayObj* x = as_array(o.array);
        void* p = kernel_pointer(x, o.output, [&] { return "argument " + o.param->name + " of ReductionKernel '" + k->name + "'"; });
        b.resize(sizeof p);
        std::memcpy(b.data(), &p, sizeof p);
        auto stride = [&](int d) -> int64_t {  // over the broadcast shape's dim d
            const int ad = d - (D - x->ndim());
            return ad < 0 || x->shape[size_t(ad)] == 1 ? 0 : x->strides[size_t(ad)];
        };
        if (o.output) {
            // The output's dims: the kept ones (keepdims' 1s have no stride to walk).
            int j = 0;
            for (int d = 0; d < x->ndim(); ++d)
                if (!keepdims || !reduced[size_t(d)]) {
                    put_i64(b, x->strides[size_t(d)]);
                    ++j;
                }
            for (; j < NK; ++j) put_i64(b, 0);
        } else {
            for (int d : kept_dims) put_i64(b, stride(d));
            if (kept_dims.empty()) put_i64(b, 0);
            for (int d : red_dims) put_i64(b, stride(d));
            if (red_dims.empty()) put_i64(b, 0);
        }
        bytes.push_back(std::move(b));
    }
    std::vector<uint8_t> kept_b, red_b, n_b, r_b;
    for (int d : kept_dims) put_i64(kept_b, shape[size_t(d)]);
    if (kept_dims.empty()) put_i64(kept_b, 1);
    for (int d : red_dims) put_i64(red_b, shape[size_t(d)]);
    if (red_dims.empty()) put_i64(red_b, 1);
    put_i64(n_b, nout);
    put_i64(r_b, nred);
    bytes.push_back(kept_b);
    bytes.push_back(red_b);
    bytes.push_back(n_b);
    bytes.push_back(r_b);
    if (nout > 0) {
        const unsigned block = 256;
        auto run = [&](int phase, uint64_t units, void* part) {
            std::vector<uint8_t> part_b(sizeof part), segs_b, phase_b(4);
            std::memcpy(part_b.data(), &part, sizeof part);
            put_i64(segs_b, segs);
            std::memcpy(phase_b.data(), &phase, 4);
            std::vector<void*> pointers;
            for (auto& b : bytes) pointers.push_back(b.data());
            if (block_per_output) {
                pointers.push_back(part_b.data());
                pointers.push_back(segs_b.data());
                pointers.push_back(phase_b.data());
            }
            const uint64_t blocks = block_per_output ? std::min<uint64_t>(units, 65535)
                                                     : std::min<uint64_t>((units + block - 1) / block, uint64_t(1) << 20);
            launch_packed(kernel, RawDims{unsigned(blocks), 1, 1}, RawDims{block, 1, 1}, 0, pointers);
        };
        if (segs > 1) {
            // The partials: nout * segs values of the reduction's type.
            Value part = new_array(rdt, {nout * segs});
            void* p = kernel_pointer(as_array(part), true, [] { return std::string("partials"); });
            run(1, uint64_t(nout * segs), p);
            run(2, uint64_t(nout), p);
        } else {
            run(0, uint64_t(nout), nullptr);
        }
    }
    std::vector<Value> outs;
    for (const UserOperand& o : ops)
        if (o.output) outs.push_back(o.array);
    return outs.size() == 1 ? outs[0] : make_tuple(std::move(outs));
}

// ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name='reduce_kernel',
//                 reduce_type=None, reduce_dims=True, preamble='', options=())
Value make_reduction_kernel(Interp& in, CallArgs& a) {
    auto text = [&](size_t pos, const char* key, const char* dflt) -> std::string {
        const Value* v = arg(a, pos, key);
        if (!v || v->is_none()) {
            if (!dflt) raise(types::TypeError, std::string("ReductionKernel() missing required argument '") + key + "'");
            return dflt;
        }
        return str_of(*v, key);
    };
    auto* k = new ReductionObj();
    Value keep = Value::object(k);
    k->in = parse_user_params(text(0, "in_params", nullptr), "in_params");
    k->out = parse_user_params(text(1, "out_params", nullptr), "out_params");
    k->map_expr = text(2, "map_expr", nullptr);
    k->reduce_expr = text(3, "reduce_expr", nullptr);
    k->post_map_expr = text(4, "post_map_expr", nullptr);
    const Value* identity = arg(a, 5, "identity");
    if (!identity || identity->is_none())
        raise(types::NotImplementedError, "ReductionKernel: identity=None is not supported yet; give the reduction's identity");
    k->identity = identity->is_obj() && identity->o->type == types::str ? str_of(*identity, "identity") : to_str(in, *identity);
    k->name = text(6, "name", "reduce_kernel");
    k->reduce_type = text(7, "reduce_type", "");
    k->preamble = text(9, "preamble", "");
    if (const Value* v = arg(a, 10, "options"); v && !v->is_none())
        for (const Value& o : to_vector(in, *v)) k->options.push_back(str_of(o, "options"));
    for (const std::vector<UserParam>* ps : {&k->in, &k->out})
        for (const UserParam& p : *ps)
            if (p.raw) raise(types::NotImplementedError, "ReductionKernel: raw parameters are not supported yet");
    if (k->out.empty()) raise(types::ValueError, "ReductionKernel: out_params must name at least one output");
    if (const Value* v = arg(a, 8, "reduce_dims")) k->reduce_dims = truthy(*v);
    return keep;
}

// CuPy's attributes of a reduction kernel object.
Value reduction_getattr(Interp&, const Value& self, const std::string& attr) {
    auto* k = static_cast<ReductionObj*>(self.o);
    if (attr == "name") return make_str(k->name);
    if (attr == "map_expr") return make_str(k->map_expr);
    if (attr == "reduce_expr") return make_str(k->reduce_expr);
    if (attr == "post_map_expr") return make_str(k->post_map_expr);
    if (attr == "identity") return make_str(k->identity);
    if (attr == "reduce_type") return k->reduce_type.empty() ? Value::none() : make_str(k->reduce_type);
    if (attr == "preamble") return make_str(k->preamble);
    if (attr == "reduce_dims") return Value::boolean(k->reduce_dims);
    if (attr == "options") return user_kernel_strings(k->options);
    if (attr == "nin") return Value::integer(int64_t(k->in.size()));
    if (attr == "nout") return Value::integer(int64_t(k->out.size()));
    if (attr == "nargs") return Value::integer(int64_t(k->in.size() + k->out.size()));
    if (attr == "in_params") return user_param_texts(k->in);
    if (attr == "out_params") return user_param_texts(k->out);
    return Value();
}

std::string reduction_repr(Interp&, const Value& self) {
    return "<cupy.ReductionKernel '" + static_cast<ReductionObj*>(self.o)->name + "'>";
}

TypeObject* reduction_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("cupy.ReductionKernel", nullptr, OK::Other);
        t->getattr = reduction_getattr;
        t->repr = reduction_repr;
        def_method(t, "__call__", call_reduction, "__call__(*args, out=None, axis=None, keepdims=False, stream=None)",
                   "Reduces the arguments along axis.");
        return t;
    }();
    return t;
}

}  // namespace

void add_reduction_kernel_functions(Interp&, ModuleObj* m) {
    m->set("ReductionKernel",
           make_builtin("ReductionKernel", make_reduction_kernel,
                        "ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name='reduce_kernel', "
                        "reduce_type=None, reduce_dims=True, preamble='', options=())",
                        "A user's reduction in C++ (CuPy's): map, reduce, post-map and identity, over axis= with keepdims=."));
}

}  // namespace gpy
