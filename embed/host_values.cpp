// HostValue <-> script values (embed/host_values.h).
#include "embed/host_values.h"

#include <cstring>
#include <new>

#include "base/buffer.h"
#include "base/dtype.h"
#include "numpy/array.h"
#include "numpy/dlpack.h"
#include "runtime/array_context.h"

namespace gpy {

static_assert(int(ElementType::Complex128) == int(DType::Complex128) && int(ElementType::Float16) == int(DType::Float16),
              "ElementType lists NumPy's types in base/dtype.h's order");

namespace {

// The script array over an ArrayRef's memory: DLPack's import, with the
// ArrayRef's byte strides as element strides.
Value array_over_host_memory(Interp& in, const ArrayRef& a) {
    const DType t = DType(a.dtype);
    const int64_t item = int64_t(itemsize(t));
    if (!a.strides.empty() && a.strides.size() != a.shape.size())
        raise(types::ValueError, "ArrayRef: " + std::to_string(a.strides.size()) + " strides for " + std::to_string(a.shape.size()) + " dimensions");
    int64_t count = 1, bytes = 0;
    for (int64_t d : a.shape) {
        if (d < 0) raise(types::ValueError, "ArrayRef: negative dimensions are not allowed");
        if (__builtin_mul_overflow(count, d, &count) || __builtin_mul_overflow(count, item, &bytes))
            raise(types::ValueError, "ArrayRef: the array is too big (its byte count overflows int64)");
    }
    if (count > 0 && !a.data) raise(types::ValueError, "ArrayRef: null data for a non-empty array");
    std::vector<int64_t> shape = a.shape, strides;
    for (int64_t s : a.strides) {
        if (s % item != 0) raise(types::ValueError, "ArrayRef: stride " + std::to_string(s) + " is not a multiple of the element size");
        strides.push_back(s / item);
    }
    DLTensor dl{};
    dl.data = a.data;
    dl.device = a.device < 0 ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, a.device};
    dl.ndim = int(shape.size());
    dl.dtype = dlpack_dtype(t);
    dl.shape = shape.data();
    dl.strides = strides.empty() ? nullptr : strides.data();
    in.import_module("numpy");  // the array module and this interpreter's array context
    return array_from_dltensor(dl, a.owner, a.readonly);
}

// A host function and its conversions, as the builtin's bound object.
TypeObject* host_function_type() {
    static TypeObject* t = new TypeObject("host_function", nullptr, OK::Other);
    return t;
}
struct HostFunctionObj : Object {
    HostFunction fn;
    explicit HostFunctionObj(HostFunction f) : Object(host_function_type()), fn(std::move(f)) {}
};

Value call_host_function(Interp& in, CallArgs& a) {
    auto* h = a.pos[0].as<HostFunctionObj>();
    if (a.nkw()) raise(types::TypeError, "a host function takes no keyword arguments");
    std::vector<HostValue> args;
    for (size_t i = 1; i < a.npos; ++i) args.push_back(host_value(in, a.pos[i]));
    HostValue r;
    try {
        r = h->fn(args);
    } catch (const GpyError&) {
        throw;  // the script's own exception, raised through a nested call
    } catch (const ScriptError& e) {
        // An exception the host names: that built-in type (RuntimeError for a name it lacks).
        TypeObject* type = types::RuntimeError;
        for (TypeObject* t : types::all_exceptions())
            if (t->name == e.info.type) type = t;
        raise(type, e.info.message);
    } catch (const std::invalid_argument& e) {
        raise(types::ValueError, e.what());
    } catch (const std::out_of_range& e) {
        raise(types::IndexError, e.what());
    } catch (const std::bad_alloc&) {
        raise(types::MemoryError, "");
    } catch (const std::exception& e) {
        raise(types::RuntimeError, e.what());
    }
    return script_value(in, r);
}

}  // namespace

Value script_value(Interp& in, const HostValue& v) {
    switch (v.index()) {
    case 0: return Value::none();
    case 1: return Value::boolean(std::get<bool>(v));
    case 2: return Value::integer(std::get<int64_t>(v));
    case 3: return Value::real(std::get<double>(v));
    case 4: return make_str(std::get<std::string>(v));
    default: return array_over_host_memory(in, std::get<ArrayRef>(v));
    }
}

HostValue host_value(Interp&, const Value& v) {
    switch (v.kind) {
    case VK::None: return std::monostate{};
    case VK::Bool: return bool(v.b);
    case VK::Int: return int64_t(v.i);
    case VK::Float: return double(v.f);
    default: break;
    }
    if (is_kind(v, OK::Str)) return v.as<StrObj>()->s;
    if (ArrayObj* a = as_array(v)) {
        materialize(a);
        if (a->numpy_scalar) {  // np.float64(2.5) and friends: the Python value
            const uint8_t* p = a->buffer.host_read_bytes() + a->offset;
            switch (a->dtype) {
            case DType::Bool: return bool(*p);
            case DType::Float16: return double(*reinterpret_cast<const _Float16*>(p));
            case DType::Float32: return double(*reinterpret_cast<const float*>(p));
            case DType::Float64: return *reinterpret_cast<const double*>(p);
            case DType::Complex64: case DType::Complex128: break;
            default: {
                int64_t x = 0;
                const size_t n = itemsize(a->dtype);
                const bool is_signed = kind(a->dtype) == DKind::Int;
                std::memcpy(&x, p, n);
                if (is_signed && n < 8) x = (x << (64 - 8 * n)) >> (64 - 8 * n);  // sign-extend
                return x;
            }
            }
        }
        ArrayRef r;
        r.data = a->buffer.bytes() + a->offset;  // host bytes, current (a GPU array's host mirror)
        r.shape.assign(a->shape.begin(), a->shape.end());
        r.strides = a->strides;
        r.dtype = ElementType(a->dtype);
        Buffer* b = a->buffer.get();
        retain(b);
        r.owner = std::shared_ptr<void>(b, [](void* p) { release(static_cast<Buffer*>(p)); });
        return r;
    }
    raise(types::TypeError, std::string("a '") + type_name(v) + "' has no host form (None, bool, int, float, str or an ndarray)");
}

Value host_function(std::string name, HostFunction fn) {
    Value f = make_builtin(name, call_host_function, name + "(*args)", "A function of the host application.");
    f.as<BuiltinObj>()->bound = Value::object(new HostFunctionObj(std::move(fn)));
    return f;
}

}  // namespace gpy
