// Shape functions: the part's hooks, views along axes, and memory order
// (order='C'|'F'|'A'|'K') shared with reshape/ravel/copy and the creation
// functions. The functions themselves live in shape_views / shape_join /
// shape_repeat / shape_pad / shape_diag / shape_grid.cpp.
#include "numpy/shape_funcs.h"

#include <algorithm>
#include <numeric>

#include "numpy/linalg.h"  // remapped_text
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/ufuncs.h"

namespace gpy {

using dag::Shape;

void add_shape_functions(Interp& in, ModuleObj* m) {
    add_view_functions(in, m);
    add_join_functions(in, m);
    add_repeat_functions(in, m);
    add_pad_functions(in, m);
    add_diag_functions(in, m);
    add_grid_functions(in, m);
}

const Value& required(CallArgs& a, size_t pos, const char* name, const char* fname) {
    const Value* v = arg(a, pos, name);
    if (!v) raise(types::TypeError, std::string(fname) + "() missing required argument '" + name + "' (pos " + std::to_string(pos) + ")");
    return *v;
}

// ---- views ----

Value materialized(Interp& in, const Value& v) {
    Value r = as_array_value(in, v);
    materialize(r.as<ArrayObj>());
    return r;
}

Value view_of(ArrayObj* x, Shape shape, std::vector<int64_t> strides, int64_t offset) {
    materialize(x);
    return array_from_buffer(x->buffer, x->dtype, std::move(shape), std::move(strides), offset);
}

Value slice_axis(ArrayObj* x, int axis, int64_t begin, int64_t end) {
    materialize(x);
    Shape shape = x->shape;
    shape[size_t(axis)] = end - begin;
    int64_t offset = end > begin ? x->offset + begin * x->strides[size_t(axis)] : x->offset;
    return view_of(x, shape, x->strides, offset);
}

Value reversed_axis(ArrayObj* x, int axis, int64_t begin, int64_t count) {
    materialize(x);
    Shape shape = x->shape;
    auto strides = x->strides;
    shape[size_t(axis)] = count;
    strides[size_t(axis)] = -strides[size_t(axis)];
    int64_t offset = count > 0 ? x->offset + begin * x->strides[size_t(axis)] : x->offset;
    return view_of(x, shape, strides, offset);
}

Value index_axis(ArrayObj* x, int axis, int64_t i) {
    materialize(x);
    Shape shape = x->shape;
    auto strides = x->strides;
    int64_t offset = x->offset + i * strides[size_t(axis)];
    shape.erase(shape.begin() + axis);
    strides.erase(strides.begin() + axis);
    return view_of(x, shape, strides, offset);
}

Value moveaxis_view(ArrayObj* x, int src, int dst) {
    materialize(x);
    Shape shape = x->shape;
    auto strides = x->strides;
    int64_t n = shape[size_t(src)], s = strides[size_t(src)];
    shape.erase(shape.begin() + src);
    strides.erase(strides.begin() + src);
    shape.insert(shape.begin() + dst, n);
    strides.insert(strides.begin() + dst, s);
    return view_of(x, shape, strides, x->offset);
}

Value insert_axis(ArrayObj* x, int axis) {
    materialize(x);
    Shape shape = x->shape;
    auto strides = x->strides;
    shape.insert(shape.begin() + axis, 1);
    strides.insert(strides.begin() + axis, 0);
    return view_of(x, shape, strides, x->offset);
}

Value broadcast_view(ArrayObj* x, const Shape& shape) {
    for (int64_t d : shape)
        if (d < 0) raise(types::ValueError, "all elements of broadcast shape must be non-negative");
    if (x->ndim() > int(shape.size()))
        raise(types::ValueError, "input operand has more dimensions than allowed by the axis remapping");
    materialize(x);
    size_t lead = shape.size() - size_t(x->ndim());
    std::vector<int64_t> strides(shape.size(), 0);
    for (size_t d = 0; d < size_t(x->ndim()); ++d) {
        int64_t n = x->shape[d];
        // A length-1 axis gets stride 0 even where it stays length 1 (NumPy's nditer does).
        if (n == shape[lead + d]) strides[lead + d] = n == 1 ? 0 : x->strides[d];
        else if (n != 1)
            raise(types::ValueError, "operands could not be broadcast together with remapped shapes [original->remapped]: " +
                                         compact_shape_text(x->shape) + "  and requested shape " + compact_shape_text(shape));
    }
    return view_of(x, shape, strides, x->offset);
}

int normalize_axis_named(int64_t axis, int ndim, const char* argname) {
    if (argname && (axis < -ndim || axis >= ndim))
        raise(types::AxisError, std::string(argname) + ": axis " + std::to_string(axis) +
                                    " is out of bounds for array of dimension " + std::to_string(ndim));
    return normalize_axis(axis, ndim);
}

std::vector<int> axis_tuple(Interp& in, const Value& v, int ndim, const char* argname) {
    std::vector<Value> items;
    if (is_kind(v, OK::Tuple) || is_kind(v, OK::List)) items = to_vector(in, v);
    else items.push_back(v);
    std::vector<int> axes;
    for (auto& item : items) {
        int a = normalize_axis_named(to_index(item), ndim, argname);
        if (std::find(axes.begin(), axes.end(), a) != axes.end())
            raise(types::ValueError, argname ? std::string("repeated axis in `") + argname + "` argument" : "repeated axis");
        axes.push_back(a);
    }
    return axes;
}

int64_t clamp_index(int64_t i, int64_t n) {
    if (i < 0) i += n;
    return std::clamp<int64_t>(i, 0, n);
}

// ---- memory order ----

char order_arg(const Value* v, char dflt) {
    if (!v || v->is_none()) return dflt;
    const std::string& s = str_of(*v, "order");
    char c = s.size() == 1 ? char(std::toupper(static_cast<unsigned char>(s[0]))) : 0;
    if (c != 'C' && c != 'F' && c != 'A' && c != 'K')
        raise(types::ValueError, "order must be one of 'C', 'F', 'A', or 'K' (got '" + s + "')");
    return c;
}

// Contiguity in the axis order `perm` (outermost first).
// A pending array counts as the C-contiguous result it will be computed into.
static bool contiguous_in(const ArrayObj* x, const std::vector<int>& perm) {
    if (x->size() == 0) return true;
    const auto strides = x->pending() ? dag::contiguous_strides(x->shape, itemsize(x->dtype)) : x->strides;
    int64_t expect = int64_t(itemsize(x->dtype));
    for (size_t k = perm.size(); k-- > 0;) {
        size_t d = size_t(perm[k]);
        if (x->shape[d] != 1 && strides[d] != expect) return false;
        expect *= x->shape[d];
    }
    return true;
}

static std::vector<int> c_perm(int ndim) {
    std::vector<int> p(static_cast<size_t>(ndim));
    std::iota(p.begin(), p.end(), 0);
    return p;
}

static std::vector<int> f_perm(int ndim) {
    auto p = c_perm(ndim);
    std::reverse(p.begin(), p.end());
    return p;
}

// The axes of x from the largest |stride| to the smallest (ties keep axis order).
static std::vector<int> memory_perm(const ArrayObj* x) {
    auto p = c_perm(x->ndim());
    std::stable_sort(p.begin(), p.end(), [&](int a, int b) {
        return std::abs(x->strides[size_t(a)]) > std::abs(x->strides[size_t(b)]);
    });
    return p;
}

// The axis order NumPy's iterator visits x in for order='K', outermost first:
// nditer's npyiter_find_best_axis_ordering, step for step. It insertion-sorts
// the axes innermost first (C order reversed) from the smallest |stride| up,
// and a zero stride or a length-1 axis compares with nothing: the scan steps
// over it rather than stopping, so a broadcast axis keeps its place while
// the others sort around it (ravel(broadcast_to(a, s), 'K')).
static std::vector<int> iteration_perm(const ArrayObj* x) {
    std::vector<int> p = f_perm(x->ndim());  // innermost first
    auto known = [&](int ax) { return x->strides[size_t(ax)] != 0 && x->shape[size_t(ax)] != 1; };
    for (size_t i0 = 1; i0 < p.size(); ++i0) {
        int ax0 = p[i0];
        size_t pos = i0;
        for (size_t i1 = i0; i1-- > 0;) {
            int ax1 = p[i1];
            if (!known(ax0) || !known(ax1)) continue;  // ambiguous: look further
            if (std::abs(x->strides[size_t(ax1)]) <= std::abs(x->strides[size_t(ax0)])) break;
            pos = i1;
        }
        if (pos != i0) {
            p.erase(p.begin() + ptrdiff_t(i0));
            p.insert(p.begin() + ptrdiff_t(pos), ax0);
        }
    }
    std::reverse(p.begin(), p.end());
    return p;
}

bool is_c_contiguous(const ArrayObj* x) { return contiguous_in(x, c_perm(x->ndim())); }
bool is_f_contiguous(const ArrayObj* x) { return contiguous_in(x, f_perm(x->ndim())); }

char c_or_f_order(const Value* v) {
    char order = order_arg(v, 'C');
    if (order != 'C' && order != 'F') raise(types::ValueError, "only 'C' or 'F' order is permitted");
    return order;
}

char resolve_order(char order, const ArrayObj* x) {
    if (order == 'A') return is_f_contiguous(x) && !is_c_contiguous(x) ? 'F' : 'C';
    if (order == 'K' && is_c_contiguous(x)) return 'C';
    return order;
}

Value new_array_order(DType t, const Shape& shape, char order, const ArrayObj* proto, bool zero) {
    Value out = new_array(t, shape, zero);
    int nd = int(shape.size());
    std::vector<int> perm;
    if (order == 'F') perm = f_perm(nd);
    else if (order == 'K' && proto && !proto->pending() && proto->ndim() == nd) perm = memory_perm(proto);
    else return out;
    ArrayObj* o = out.as<ArrayObj>();
    int64_t stride = int64_t(itemsize(t));
    for (size_t k = perm.size(); k-- > 0;) {
        o->strides[size_t(perm[k])] = stride;
        stride *= std::max<int64_t>(shape[size_t(perm[k])], 1);
    }
    return out;
}

Value copy_order(Interp& in, const Value& x, DType t, char order) {
    ArrayObj* xa = as_array(x);
    order = resolve_order(order, xa);
    if (order == 'C') return compute_into_new(dag::make_cast(array_node(xa), t), t, xa->shape);
    Value out = new_array_order(t, xa->shape, order, xa);
    assign_array(in, out, x);
    return out;
}

static Value permuted(ArrayObj* x, const std::vector<int>& perm) {
    Shape shape;
    std::vector<int64_t> strides;
    for (int d : perm) {
        shape.push_back(x->shape[size_t(d)]);
        strides.push_back(x->strides[size_t(d)]);
    }
    return view_of(x, shape, strides, x->offset);
}

// Reshape in C index order: a view of C-contiguous data, else of a C copy.
static Value reshape_c(ArrayObj* x, const Shape& shape) {
    materialize(x);
    Value src = Value::object(x);
    if (!is_c_contiguous(x)) src = compute_into_new(array_node(x), x->dtype, x->shape);
    ArrayObj* c = src.as<ArrayObj>();
    return view_of(c, shape, dag::contiguous_strides(shape, itemsize(c->dtype)), c->offset);
}

[[noreturn]] static void raise_reshape_mismatch(int64_t size, const Shape& shape) {
    raise(types::ValueError, "cannot reshape array of size " + std::to_string(size) + " into shape " + remapped_text(shape));
}

Shape resolve_new_shape(const std::vector<Value>& dims, int64_t size, DType dt) {
    Shape shape;
    int unknown = -1;
    int64_t known = 1;
    bool overflow = false;
    for (size_t k = 0; k < dims.size(); ++k) {
        int64_t d = to_index(dims[k], "shape");
        if (d == -1) {
            if (unknown >= 0) raise(types::ValueError, "can only specify one unknown dimension");
            unknown = int(k);
        } else if (d < 0) {
            raise(types::ValueError, "negative dimensions not allowed");
        } else if (!overflow && __builtin_mul_overflow(known, d, &known)) {
            overflow = true;  // reported once the whole shape is known
        }
        shape.push_back(d);
    }
    if (overflow) raise_reshape_mismatch(size, shape);
    if (unknown >= 0) {
        if (known == 0 || size % known != 0) raise_reshape_mismatch(size, shape);
        shape[size_t(unknown)] = size / known;
    } else if (known != size) {
        raise_reshape_mismatch(size, shape);
    }
    checked_size(shape, dt);  // (2**62, 0) for an empty array: "array is too big"
    return shape;
}

Value reshape_order(ArrayObj* x, const Shape& shape, char order) {
    if (order == 'K') raise(types::ValueError, "order 'K' is not permitted for reshaping");
    if (resolve_order(order, x) == 'C') return reshape_c(x, shape);
    // Fortran order: reversing the axes turns it into C order.
    materialize(x);
    Value t = permuted(x, f_perm(x->ndim()));
    Value r = reshape_c(t.as<ArrayObj>(), Shape(shape.rbegin(), shape.rend()));
    return permuted(r.as<ArrayObj>(), f_perm(int(shape.size())));
}

Value flat_order(ArrayObj* x, char order, bool copy) {
    order = resolve_order(order, x);  // a pending x counts as C-contiguous
    if (order != 'C') materialize(x);  // a C copy of a pending x fuses into its kernel
    // Memory order, except that negative strides are read as indexed (NumPy).
    Value src = order == 'K' ? permuted(x, iteration_perm(x)) : order == 'F' ? permuted(x, f_perm(x->ndim())) : Value::object(x);
    ArrayObj* s = src.as<ArrayObj>();
    Shape flat{x->size()};
    if (!copy && is_c_contiguous(s)) return view_of(s, flat, {int64_t(itemsize(s->dtype))}, s->offset);
    // Unlike reshape, ravel's copy is the result itself (it owns its data).
    Value c = compute_into_new(array_node(s), s->dtype, s->shape);
    ArrayObj* ca = c.as<ArrayObj>();
    ca->shape = flat;
    ca->strides = {int64_t(itemsize(s->dtype))};
    return c;
}

Value ravel_order(ArrayObj* x, char order) { return flat_order(x, order, false); }

void install_shape_methods() {
    install_flags_type();
    install_view_methods();
    install_repeat_methods();
}

}  // namespace gpy
