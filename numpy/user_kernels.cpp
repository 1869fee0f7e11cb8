// np.ElementwiseKernel (CuPy's cupy.ElementwiseKernel): a user's C++
// operation over broadcast arrays. A call makes a User node of the lazy graph
// (codegen/dag.h), so the operation is inlined into the kernel that computes
// it together with its producers and consumers, on either backend: NVRTC on
// a GPU, the in-process Clang on the CPU (codegen/prelude.h's user math).
//
// The fused path: typed and placeholder parameters (`T x, float32 y`: one
// name = one type, bound from the arrays, then the outputs given, then the
// scalars), scalars cast to the parameter's type, broadcasting, one output
// (allocated, or given after the inputs), preamble. What it cannot express
// (`raw` parameters, the loop index `i`/`_ind`, several outputs, more than
// three inputs, loop_prep/after_loop) runs as CuPy's standalone loop kernel
// (numpy/user_kernel_loop.cpp). Complex and float16 parameters: not yet.
#include <cctype>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

#include "codegen/dag.h"
#include "codegen/emit_internal.h"
#include "numpy/array.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/ufuncs.h"
#include "numpy/user_kernels.h"

namespace gpy {

std::vector<UserParam> parse_user_params(const std::string& text, const char* what) {
    std::vector<UserParam> out;
    std::stringstream all(text);
    std::string item;
    while (std::getline(all, item, ',')) {
        std::stringstream words(item);
        std::vector<std::string> w;
        for (std::string t; words >> t;) w.push_back(t);
        if (w.empty()) {
            if (text.find_first_not_of(" \t\n") == std::string::npos) break;
            raise(types::ValueError, std::string("Syntax error: ") + what + " has an empty parameter: '" + text + "'");
        }
        const bool raw = w[0] == "raw";
        if (raw) w.erase(w.begin());
        if (w.size() != 2) raise(types::ValueError, "Syntax error: " + item);
        UserParam p{w[0], w[1], std::nullopt, raw};
        if (auto d = parse_dtype(p.type); d && p.type.size() > 1) p.fixed = *d;
        for (const UserParam& q : out)
            if (q.name == p.name) raise(types::ValueError, "Duplicated parameter name: " + p.name);
        out.push_back(p);
    }
    return out;
}

Value user_param_texts(const std::vector<UserParam>& params) {
    std::vector<Value> items;
    for (const UserParam& p : params) items.push_back(make_str((p.raw ? "raw " : "") + p.type + " " + p.name));
    return make_tuple(std::move(items));
}

Value user_kernel_strings(const std::vector<std::string>& v) {
    std::vector<Value> items;
    for (const std::string& s : v) items.push_back(make_str(s));
    return make_tuple(std::move(items));
}

namespace {

using Param = UserParam;

TypeObject* kernel_type();

// A kernel's definition, bound to the callable np.ElementwiseKernel returns.
struct KernelObj : Object {
    UserKernelDef def;
    // What only the standalone loop runs (numpy/user_kernel_loop.cpp): raw
    // parameters, the loop index, several outputs, more than three inputs,
    // loop_prep/after_loop.
    bool loop = false;
    bool reduce_dims = true;
    std::vector<std::string> options;  // CuPy's NVRTC options: recorded (gpy compiles with its own)
    KernelObj() : Object(kernel_type()) {}
};

// Whether `code` reads CuPy's loop index `i` or `_ind` without declaring an
// `i` of its own (`int i`, `for (int i = 0; ...)`).
bool uses_loop_index(const std::string& code) {
    auto ident = [](char c) { return std::isalnum((unsigned char)c) || c == '_'; };
    bool uses = false, declares = false;
    for (size_t p = 0; p < code.size(); ++p) {
        if (!ident(code[p]) || (p > 0 && ident(code[p - 1]))) continue;
        size_t e = p;
        while (e < code.size() && ident(code[e])) ++e;
        std::string word = code.substr(p, e - p);
        if (word == "_ind") uses = true;
        if (word == "i") {
            size_t b = p;
            while (b > 0 && code[b - 1] == ' ') --b;
            size_t w = b;
            while (w > 0 && ident(code[w - 1])) --w;
            std::string before = code.substr(w, b - w);
            if (before == "int" || before == "long" || before == "auto" || before == "int64_t" || before == "size_t" || before == "unsigned")
                declares = true;
            else
                uses = true;
        }
        p = e;
    }
    return uses && !declares;
}

// The dtype a Python scalar takes when it alone binds a placeholder.
DType scalar_dtype(const Value& v) {
    if (v.kind == VK::Bool) return DType::Bool;
    if (v.kind == VK::Int) return DType::Int64;
    return DType::Float64;
}

// kernel(*args, size=None): the inputs, then optionally the output.
// Whether a call involves complex values: a complex parameter type, array
// or scalar (the fused kernels' complex type is not CuPy's complex<T>).
bool complex_operands(const UserKernelDef& k, const Value* args, size_t nargs) {
    for (const std::vector<Param>* ps : {&k.in, &k.out})
        for (const Param& p : *ps)
            if (p.fixed && is_complex(*p.fixed)) return true;
    for (size_t i = 0; i < nargs; ++i) {
        if (ArrayObj* a = as_array(args[i]); a && is_complex(a->dtype)) return true;
        if (args[i].is_obj() && args[i].o->type == types::complex) return true;
    }
    return false;
}

Value call_kernel(Interp& in, CallArgs& a) {
    KernelObj* ko = static_cast<KernelObj*>(a.pos[0].o);
    UserKernelDef* k = &ko->def;
    const size_t nargs = a.npos - 1;
    const Value* args = a.pos + 1;
    // A given output with three inputs would be a fourth operand of the fused node;
    // complex operands (CuPy's complex<T> in the operation) run in the loop too.
    if (ko->loop || (nargs > k->in.size() && k->in.size() == 3) || complex_operands(*k, args, nargs)) {
        std::optional<int64_t> size;
        for (auto& [key, v] : keywords(a)) {
            if (key == "block_size") continue;
            if (key != "size") raise(types::TypeError, k->name + "() got an unexpected keyword argument '" + key + "'");
            if (v.is_none()) continue;
            if (v.kind != VK::Int || v.i < 0) raise(types::ValueError, "size must be a non-negative int");
            size = v.i;
        }
        std::vector<Value> outs = run_loop_kernel(in, *k, args, nargs, size);
        if (k->no_return) return Value::none();
        if (k->return_tuple || outs.size() > 1) return make_tuple(std::move(outs));
        return outs[0];
    }
    if (nargs != k->in.size() && nargs != k->in.size() + k->out.size())
        raise(types::TypeError, "Wrong number of arguments for " + k->name);
    // Bind the placeholders: arrays first (inputs, then given outputs), scalars last.
    std::map<std::string, DType> bound;
    auto bind = [&](const Param& p, DType d) {
        if (p.fixed) return;
        auto [it, fresh] = bound.emplace(p.type, d);
        if (!fresh && it->second != d)
            raise(types::TypeError, std::string("Type is mismatched. ") + p.name + " " + name(d) + " " + name(it->second) + " " + p.type);
    };
    std::vector<Value> arrays(nargs);
    for (size_t i = 0; i < nargs; ++i) {
        const Param& p = i < k->in.size() ? k->in[i] : k->out[i - k->in.size()];
        if (args[i].is_obj() && args[i].o->type->kind == OK::Array && !as_array(args[i])->numpy_scalar) {
            arrays[i] = args[i];
            bind(p, as_array(args[i])->dtype);
        } else if (i >= k->in.size()) {
            raise(types::TypeError, "Output argument " + p.name + " must be an array");
        }
    }
    // Scalars: Python numbers, and NumPy scalars (which bind with their own dtype).
    for (size_t i = 0; i < k->in.size(); ++i)
        if (arrays[i].is_undef()) {
            const bool np_scalar = args[i].is_obj() && args[i].o->type->kind == OK::Array;
            if (!np_scalar && !args[i].is_number())
                raise(types::TypeError, std::string("Unsupported type ") + type_name(args[i]) + " for " + k->in[i].name);
            if (!k->in[i].fixed && !bound.count(k->in[i].type))
                bound.emplace(k->in[i].type, np_scalar ? as_array(args[i])->dtype : scalar_dtype(args[i]));
        }
    auto dtype_of = [&](const Param& p) {
        if (p.fixed) return *p.fixed;
        auto it = bound.find(p.type);
        if (it == bound.end()) raise(types::TypeError, "Cannot determine the type of " + p.name + " (" + p.type + ")");
        return it->second;
    };
    // The operands, each in its parameter's dtype, over the broadcast shape.
    std::vector<const dag::Shape*> shapes;
    for (size_t i = 0; i < nargs; ++i)
        if (!arrays[i].is_undef()) shapes.push_back(&as_array(arrays[i])->shape);
    dag::Shape shape = broadcast_shapes(std::span<const dag::Shape* const>(shapes.data(), shapes.size()));
    // size= (CuPy's): the length of a call without array arguments;
    // block_size= is a launch hint gpy's runner chooses itself.
    for (auto& [key, v] : keywords(a)) {
        if (key == "block_size") continue;
        if (key != "size") raise(types::TypeError, k->name + "() got an unexpected keyword argument '" + key + "'");
        if (v.is_none()) continue;
        if (!shapes.empty()) raise(types::ValueError, "Specified 'size' can be used only if all of the ndarray are 'raw'.");
        if (v.kind != VK::Int || v.i < 0) raise(types::ValueError, "size must be a non-negative int");
        shape = {v.i};
    }
    std::vector<dag::NodeP> operands;
    for (size_t i = 0; i < k->in.size(); ++i) {
        DType d = dtype_of(k->in[i]);
        if (!arrays[i].is_undef()) {
            operands.push_back(dag::make_cast(array_node(as_array(arrays[i])), d));
        } else if (args[i].is_obj()) {  // a NumPy scalar: its value, cast
            operands.push_back(dag::make_cast(array_node(as_array(args[i])), d));
        } else {
            operands.push_back(dag::make_scalar(d, convert_scalar(args[i], d)));
        }
    }
    auto code = std::make_shared<dag::UserCode>();
    code->name = k->name;
    code->code = k->operation;
    code->preamble = k->preamble;
    for (const Param& p : k->in) code->params.push_back(p.name);
    code->out = k->out[0].name;
    for (const Param& p : k->in) {
        if (p.fixed) continue;
        bool seen = false;
        for (auto& [t, d] : code->types) seen |= t == p.type;
        if (!seen) code->types.push_back({p.type, dtype_of(p)});
    }
    const DType out_dtype = dtype_of(k->out[0]);
    const bool out_given = nargs > k->in.size();
    if (out_given) {  // the output's old value, which the operation may read
        if (operands.size() == 3) raise(types::NotImplementedError, "ElementwiseKernel: a given output with three inputs is not supported yet");
        operands.push_back(dag::make_cast(array_node(as_array(arrays[k->in.size()])), out_dtype));
        code->out_given = true;
    }
    if (!k->out[0].fixed) {
        bool seen = false;
        for (auto& [t, d] : code->types) seen |= t == k->out[0].type;
        if (!seen) code->types.push_back({k->out[0].type, out_dtype});
    }
    std::string key = code->name + '\0' + code->code + '\0' + code->preamble + '\0' + code->out + (out_given ? "\1" : "\2");
    for (const std::string& p : code->params) key += '\0' + p;
    for (auto& [t, d] : code->types) key += '\0' + t + '\0' + name(d);
    code->id = int64_t(fnv1a(key));
    Value result = array_from_node(dag::make_user(code, operands, out_dtype, shape));
    if (out_given) {  // the output given: written in place, as CuPy
        const Value& out = arrays[k->in.size()];
        if (as_array(out)->shape != shape)
            raise(types::ValueError, "Out shape is mismatched");
        assign_array(in, out, result, true);
        result = out;
    }
    if (k->no_return) return Value::none();
    if (k->return_tuple) return make_tuple({result});
    return result;
}

// ElementwiseKernel(in_params, out_params, operation, name='kernel',
// reduce_dims=True, preamble='', no_return=False, return_tuple=False, loop_prep='', after_loop='', options=())
Value make_elementwise_kernel(Interp& in, CallArgs& a) {
    auto text = [&](size_t pos, const char* key, const char* dflt) -> std::string {
        const Value* v = arg(a, pos, key);
        if (!v || v->is_none()) {
            if (!dflt) raise(types::TypeError, std::string("ElementwiseKernel() missing required argument '") + key + "'");
            return dflt;
        }
        return str_of(*v, key);
    };
    auto* ko = new KernelObj();
    Value keep = Value::object(ko);
    UserKernelDef* k = &ko->def;
    k->in = parse_user_params(text(0, "in_params", nullptr), "in_params");
    k->out = parse_user_params(text(1, "out_params", nullptr), "out_params");
    k->operation = text(2, "operation", nullptr);
    k->name = text(3, "name", "kernel");
    k->preamble = text(5, "preamble", "");
    if (const Value* v = arg(a, 6, "no_return")) k->no_return = truthy(*v);
    if (const Value* v = arg(a, 7, "return_tuple")) k->return_tuple = truthy(*v);
    if (const Value* v = kwarg(a, "loop_prep"); v && !v->is_none()) k->loop_prep = str_of(*v, "loop_prep");
    if (const Value* v = kwarg(a, "after_loop"); v && !v->is_none()) k->after_loop = str_of(*v, "after_loop");
    auto identifier = [](const std::string& s) {
        if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
        for (char c : s)
            if (!(std::isalnum((unsigned char)c) || c == '_')) return false;
        return true;
    };
    if (!identifier(k->name)) raise(types::ValueError, "Invalid kernel name: \"" + k->name + "\"");
    for (const std::vector<Param>* ps : {&k->in, &k->out})
        for (const Param& p : *ps) {
            if (p.name == "i") raise(types::ValueError, "Can not use 'i' as a parameter name");
            if (!identifier(p.name) || !identifier(p.type)) raise(types::ValueError, "Syntax error: " + p.type + " " + p.name);
        }
    // What the fused path cannot express runs as CuPy's standalone loop.
    bool raw = false;
    for (const std::vector<Param>* ps : {&k->in, &k->out})
        for (const Param& p : *ps) raw |= p.raw;
    ko->loop = raw || uses_loop_index(k->operation) || k->out.size() != 1 || k->in.size() > 3 || !k->loop_prep.empty() ||
               !k->after_loop.empty();
    if (k->out.empty()) raise(types::ValueError, "ElementwiseKernel: out_params must name at least one output");
    for (const Param& o : k->out)
        for (const Param& p : k->in)
            if (o.name == p.name) raise(types::ValueError, "Duplicated parameter name: " + o.name);
    if (const Value* v = arg(a, 4, "reduce_dims")) ko->reduce_dims = truthy(*v);
    if (const Value* v = kwarg(a, "options"); v && !v->is_none())
        for (const Value& o : to_vector(in, *v)) ko->options.push_back(str_of(o, "options"));
    return keep;
}

// CuPy's attributes of a kernel object.
Value kernel_getattr(Interp&, const Value& self, const std::string& attr) {
    auto* ko = static_cast<KernelObj*>(self.o);
    const UserKernelDef& k = ko->def;
    if (attr == "name") return make_str(k.name);
    if (attr == "operation") return make_str(k.operation);
    if (attr == "preamble") return make_str(k.preamble);
    if (attr == "nin") return Value::integer(int64_t(k.in.size()));
    if (attr == "nout") return Value::integer(int64_t(k.out.size()));
    if (attr == "nargs") return Value::integer(int64_t(k.in.size() + k.out.size()));
    if (attr == "no_return") return Value::boolean(k.no_return);
    if (attr == "return_tuple") return Value::boolean(k.return_tuple);
    if (attr == "reduce_dims") return Value::boolean(ko->reduce_dims);
    if (attr == "options") return user_kernel_strings(ko->options);
    if (attr == "in_params") return user_param_texts(k.in);
    if (attr == "out_params") return user_param_texts(k.out);
    if (attr == "params") {
        std::vector<UserParam> all = k.in;
        all.insert(all.end(), k.out.begin(), k.out.end());
        return user_param_texts(all);
    }
    return Value();  // not a data attribute: the type's methods
}

std::string kernel_repr(Interp&, const Value& self) {
    return "<cupy.ElementwiseKernel '" + static_cast<KernelObj*>(self.o)->def.name + "'>";
}

TypeObject* kernel_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("cupy.ElementwiseKernel", nullptr, OK::Other);
        t->getattr = kernel_getattr;
        t->repr = kernel_repr;
        def_method(t, "__call__", call_kernel, "__call__(*args, size=None, block_size=None)", "Runs the kernel over the arguments.");
        return t;
    }();
    return t;
}

}  // namespace

void add_user_kernel_functions(Interp&, ModuleObj* m) {
    m->set("ElementwiseKernel",
           make_builtin("ElementwiseKernel", make_elementwise_kernel,
                        "ElementwiseKernel(in_params, out_params, operation, name='kernel', reduce_dims=True, preamble='', "
                        "no_return=False, return_tuple=False, loop_prep='', after_loop='', options=())",
                        "A user's elementwise C++ operation (CuPy's), fused with the array code around it."));
}

}  // namespace gpy
