// HostValue <-> script values (embed/host_values.h).
#include "embed/host_values.h"

#include <cstring>
#include <new>

#include "base/buffer.h"
#include "base/dtype.h"
#include "numpy/array.h"
#include "runtime/array_context.h"

namespace gpy {

static_assert(int(ElementType::Complex128) == int(DType::Complex128) && int(ElementType::Float16) == int(DType::Float16),
              "ElementType lists NumPy's types in base/dtype.h's order");

namespace {

// The host's memory as a Buffer: nothing to free but the host's keep-alive
// handle; host and device code reach the same bytes (the CPU backend).
uint8_t* lent_bytes(Buffer* b, bool) { return static_cast<uint8_t*>(b->data); }
void release_lent(Buffer* b) noexcept { delete static_cast<std::shared_ptr<void>*>(b->external); }
const DeviceMemoryOps kLentHostMemory{release_lent, lent_bytes, lent_bytes};

Value array_over_host_memory(Interp& in, const ArrayRef& a) {
    if (a.readonly) raise(types::ValueError, "gpy has no read-only arrays yet: pass a writable ArrayRef (or a copy)");
    const DType t = DType(a.dtype);
    const int64_t item = int64_t(itemsize(t));
    if (!a.strides.empty() && a.strides.size() != a.shape.size())
        raise(types::ValueError, "ArrayRef: " + std::to_string(a.strides.size()) + " strides for " + std::to_string(a.shape.size()) + " dimensions");
    const dag::Shape shape(a.shape.begin(), a.shape.end());
    int64_t count = 1;
    int64_t bytes = 0;
    for (int64_t d : a.shape) {
        if (d < 0) raise(types::ValueError, "ArrayRef: negative dimensions are not allowed");
        if (__builtin_mul_overflow(count, d, &count) || __builtin_mul_overflow(count, item, &bytes))
            raise(types::ValueError, "ArrayRef: the array is too big (its byte count overflows int64)");
    }
    std::vector<int64_t> strides = a.strides.empty() ? dag::contiguous_strides(shape, size_t(item)) : a.strides;
    const auto [low, high] = dag::byte_extent(shape, strides, size_t(item));  // around the first element
    if (count > 0 && !a.data) raise(types::ValueError, "ArrayRef: null data for a non-empty array");
    in.import_module("numpy");  // the array module and this interpreter's array context
    ArrayContext* ctx = array_context();
    if (ctx && ctx->array_kind == DeviceKind::CUDA) {
        // A GPU context: a device copy (host memory is not the device's).
        bool contiguous = true;
        for (int64_t d = int64_t(a.shape.size()) - 1, want = item; d >= 0; --d) {
            if (a.shape[size_t(d)] != 1 && strides[size_t(d)] != want) contiguous = false;
            want *= a.shape[size_t(d)];
        }
        if (!contiguous) raise(types::ValueError, "ArrayRef: a strided host array cannot go to a GPU context yet (pass a C-contiguous one)");
        Value out = new_array(t, shape);
        if (count > 0) std::memcpy(out.as<ArrayObj>()->buffer.bytes(), a.data, size_t(bytes));
        return out;
    }
    auto* b = new Buffer();
    b->data = static_cast<char*>(a.data) + low;
    b->nbytes = size_t(high - low);
    b->device = DeviceKind::CPU;
    b->ops = &kLentHostMemory;
    b->external = new std::shared_ptr<void>(a.owner);
    if (!b->data) b->data = b;  // (an empty array's memory: any non-null address; ~Buffer skips null)
    return array_from_buffer(BufferRef(b), t, shape, std::move(strides), -low);
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
