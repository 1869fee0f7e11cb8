// Indexing: basic indices (integers, slices, `...`, None) give views that share
// memory; integer arrays and boolean masks give copies. Assignment through
// both writes in place.
#include <cstring>

#include "codegen/plan.h"
#include "stdlib/array.h"
#include "stdlib/indexing.h"
#include "stdlib/ufuncs.h"

namespace gpy {

using namespace dag;

[[noreturn]] static void bad_index() {
    raise(types::IndexError, "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices");
}

static bool is_advanced(const Value& v) {
    return as_array(v) ? !as_array(v)->shape.empty() || as_array(v)->dtype == DType::Bool
                       : is_kind(v, OK::List);
}

View basic_view(ArrayObj* a, const Value& index) {
    materialize(a);
    std::vector<Value> items;
    if (is_kind(index, OK::Tuple)) items = index.as<TupleObj>()->items;
    else items.push_back(index);
    int consumed = 0;
    bool ellipsis = false;
    for (auto& it : items) {
        if (it.is_none()) continue;
        if (it.is_obj() && it.o->type == types::ellipsis) {
            if (ellipsis) raise(types::IndexError, "an index can only have a single ellipsis ('...')");
            ellipsis = true;
            continue;
        }
        ++consumed;
    }
    if (consumed > a->ndim())
        raise(types::IndexError, "too many indices for array: array is " + std::to_string(a->ndim()) +
                                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
    View v;
    v.offset = a->offset;
    int dim = 0;
    v.all_integers = true;
    for (auto& it : items) {
        if (it.is_none()) {
            v.shape.push_back(1);
            v.strides.push_back(0);
            v.all_integers = false;
            continue;
        }
        if (it.is_obj() && it.o->type == types::ellipsis) {
            int skip = a->ndim() - consumed;
            for (int k = 0; k < skip; ++k, ++dim) {
                v.shape.push_back(a->shape[size_t(dim)]);
                v.strides.push_back(a->strides[size_t(dim)]);
            }
            v.all_integers = false;
            continue;
        }
        int64_t n = a->shape[size_t(dim)];
        if (it.is_intlike() || (as_array(it) && as_array(it)->shape.empty() && is_integer(as_array(it)->dtype))) {
            int64_t i = it.is_intlike() ? it.as_int() : element_to_python(as_array(it), host_view(as_array(it)).data).as_int();
            int64_t j = i < 0 ? i + n : i;
            if (j < 0 || j >= n)
                raise(types::IndexError, "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(dim) +
                                             " with size " + std::to_string(n));
            v.offset += j * a->strides[size_t(dim)];
            ++dim;
            continue;
        }
        if (it.is_obj() && it.o->type == types::slice) {
            int64_t b, e, st, cnt;
            it.as<SliceObj>()->indices(n, b, e, st, cnt);
            v.shape.push_back(cnt);
            v.strides.push_back(a->strides[size_t(dim)] * st);
            if (cnt > 0) v.offset += b * a->strides[size_t(dim)];
            v.all_integers = false;
            ++dim;
            continue;
        }
        bad_index();
    }
    for (; dim < a->ndim(); ++dim) {
        v.shape.push_back(a->shape[size_t(dim)]);
        v.strides.push_back(a->strides[size_t(dim)]);
        v.all_integers = false;
    }
    return v;
}

// Flat row-major element offsets (bytes) of a materialised array.
static std::vector<int64_t> element_offsets(const ArrayObj* a) {
    std::vector<int64_t> offs;
    offs.reserve(size_t(a->size()));
    std::vector<int64_t> idx(size_t(a->ndim()), 0);
    for (int64_t k = 0; k < a->size(); ++k) {
        int64_t o = a->offset;
        for (int d = 0; d < a->ndim(); ++d) o += idx[size_t(d)] * a->strides[size_t(d)];
        offs.push_back(o);
        for (int d = a->ndim() - 1; d >= 0; --d) {
            if (++idx[size_t(d)] < a->shape[size_t(d)]) break;
            idx[size_t(d)] = 0;
        }
    }
    return offs;
}

// Byte offsets of the elements an advanced index selects, and the result shape.
// Supported: a boolean mask of the array's full shape, or one integer array
// (any shape) indexing axis 0.
static std::vector<int64_t> advanced_offsets(Interp& in, ArrayObj* a, const Value& index, Shape& shape) {
    materialize(a);
    Value iv = as_array_value(in, index);
    ArrayObj* ix = iv.as<ArrayObj>();
    materialize(ix);
    std::vector<int64_t> out;
    if (ix->dtype == DType::Bool) {
        // A mask covers the leading dims; each True selects a block of the rest.
        if (ix->ndim() > a->ndim())
            raise(types::IndexError, "too many indices for array: array is " + std::to_string(a->ndim()) +
                                         "-dimensional, but " + std::to_string(ix->ndim()) + " were indexed");
        for (int d = 0; d < ix->ndim(); ++d)
            if (ix->shape[size_t(d)] != a->shape[size_t(d)])
                raise(types::IndexError, "boolean index did not match indexed array along axis " + std::to_string(d) +
                                             "; size of axis is " + std::to_string(a->shape[size_t(d)]) +
                                             " but size of corresponding boolean axis is " + std::to_string(ix->shape[size_t(d)]));
        ArrayObj lead;
        lead.dtype = a->dtype;
        lead.shape.assign(a->shape.begin(), a->shape.begin() + ix->ndim());
        lead.strides.assign(a->strides.begin(), a->strides.begin() + ix->ndim());
        lead.offset = a->offset;
        ArrayObj rest;
        rest.dtype = a->dtype;
        rest.shape.assign(a->shape.begin() + ix->ndim(), a->shape.end());
        rest.strides.assign(a->strides.begin() + ix->ndim(), a->strides.end());
        rest.offset = 0;
        auto loffs = element_offsets(&lead);
        auto roffs = element_offsets(&rest);
        auto moffs = element_offsets(ix);
        int64_t count = 0;
        for (size_t k = 0; k < loffs.size(); ++k) {
            if (!ix->buffer.bytes()[moffs[k]]) continue;
            ++count;
            for (int64_t r : roffs) out.push_back(loffs[k] + r);
        }
        shape = {count};
        shape.insert(shape.end(), rest.shape.begin(), rest.shape.end());
        return out;
    }
    if (!is_integer(ix->dtype)) bad_index();
    if (a->ndim() == 0) raise(types::IndexError, "too many indices for array: array is 0-dimensional, but 1 were indexed");
    // Rows of axis 0, each a block of the remaining dims.
    Shape rest(a->shape.begin() + 1, a->shape.end());
    std::vector<int64_t> rest_strides(a->strides.begin() + 1, a->strides.end());
    ArrayObj row;
    row.dtype = a->dtype;
    row.shape = rest;
    row.strides = rest_strides;
    row.offset = 0;
    auto row_offs = element_offsets(&row);
    auto ioffs = element_offsets(ix);
    int64_t n = a->shape[0];
    for (int64_t io : ioffs) {
        int64_t i = element_to_python(ix, ix->buffer.bytes() + io).as_int();
        int64_t j = i < 0 ? i + n : i;
        if (j < 0 || j >= n)
            raise(types::IndexError, "index " + std::to_string(i) + " is out of bounds for axis 0 with size " + std::to_string(n));
        for (int64_t ro : row_offs) out.push_back(a->offset + j * a->strides[0] + ro);
    }
    shape = ix->shape;
    shape.insert(shape.end(), rest.begin(), rest.end());
    return out;
}

Value array_getitem(Interp& in, const Value& self, const Value& index) {
    ArrayObj* a = self.as<ArrayObj>();
    if (is_advanced(index)) {
        Shape shape;
        auto offs = advanced_offsets(in, a, index, shape);
        Value out = new_array(a->dtype, shape);
        uint8_t* dst = out.as<ArrayObj>()->buffer.bytes();
        size_t isz = itemsize(a->dtype);
        for (size_t k = 0; k < offs.size(); ++k) std::memcpy(dst + k * isz, a->buffer.bytes() + offs[k], isz);
        return out;
    }
    if (is_kind(index, OK::Tuple))
        for (auto& it : index.as<TupleObj>()->items)
            if (is_advanced(it)) raise(types::NotImplementedError, "mixing advanced indices with other indices is not supported yet");
    View v = basic_view(a, index);
    Value out = array_from_buffer(a->buffer, a->dtype, v.shape, v.strides, v.offset);
    out.as<ArrayObj>()->numpy_scalar = v.all_integers && v.shape.empty();
    return out;
}

void array_setitem(Interp& in, const Value& self, const Value& index, Value value) {
    ArrayObj* a = self.as<ArrayObj>();
    if (is_advanced(index)) {
        Shape shape;
        auto offs = advanced_offsets(in, a, index, shape);
        Value src = as_array_value(in, value, a->dtype);
        ArrayObj* s = src.as<ArrayObj>();
        Shape b = broadcast_shapes({&s->shape, &shape});
        if (b != shape)
            raise(types::ValueError, "shape mismatch: value array of shape " + shape_text(s->shape) +
                                         " could not be broadcast to indexing result of shape " + shape_text(shape));
        // Broadcast the value to the selection's shape, then scatter (repeated
        // indices: the last write wins, as in NumPy).
        Value full = new_array(a->dtype, shape);
        assign_array(in, full, src);
        flush_readers(a->buffer.get());
        const uint8_t* from = full.as<ArrayObj>()->buffer.bytes();
        size_t isz = itemsize(a->dtype);
        for (size_t k = 0; k < offs.size(); ++k) std::memcpy(a->buffer.bytes() + offs[k], from + k * isz, isz);
        return;
    }
    View v = basic_view(a, index);
    Value view = array_from_buffer(a->buffer, a->dtype, v.shape, v.strides, v.offset);
    assign_array(in, view, value);
}

}  // namespace gpy
