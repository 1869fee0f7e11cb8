// np.save / np.load: NumPy's .npy format (versions 1.0, 2.0, 3.0) and .npz
// archives of .npy members (numpy/npz.cpp). Files are read and written whole.
//
// A .npy file is: "\x93NUMPY", major, minor, a little-endian header length
// (2 bytes in 1.0, 4 in 2.0/3.0), a Python dict literal
// "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }" padded with
// spaces and a newline to a multiple of 64 bytes, then the raw elements.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "lang/format.h"
#include "lang/utf8.h"
#include "numpy/array.h"
#include "numpy/io_files.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/npy_format.h"

namespace gpy {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

// ---- writing ----

std::string tuple_text(const dag::Shape& s) {
    std::string out = "(";
    for (size_t k = 0; k < s.size(); ++k) out += (k ? ", " : "") + std::to_string(s[k]);
    return out + (s.size() == 1 ? ",)" : ")");
}

// NumPy's flags.f_contiguous (dimensions of length 1 have any stride).
bool f_contiguous(const ArrayObj* a) {
    int64_t expect = int64_t(itemsize(a->dtype));
    for (size_t d = 0; d < a->shape.size(); ++d) {
        if (a->shape[d] != 1 && a->strides[d] != expect) return false;
        expect *= a->shape[d];
    }
    return true;
}

// _write_array_header: the dict, room for the first (C) or last (Fortran)
// axis to grow to 21 digits, then _wrap_header's padding to 64 bytes.
std::string header_bytes(DType t, bool fortran, const dag::Shape& shape) {
    std::string h = std::string("{'descr': '") + info(t).npy_descr + "', 'fortran_order': " +
                    (fortran ? "True" : "False") + ", 'shape': " + tuple_text(shape) + ", }";
    if (!shape.empty()) {
        size_t digits = std::to_string(shape[fortran ? shape.size() - 1 : 0]).size();
        h.append(21 - digits, ' ');
    }
    size_t hlen = h.size() + 1;  // + the final newline
    bool v1 = hlen + 64 <= 0xffff;
    size_t len_bytes = v1 ? 2 : 4;
    size_t pad = 64 - (kMagicLen + 2 + len_bytes + hlen) % 64;
    uint32_t total = uint32_t(hlen + pad);
    std::string out(kMagic, kMagicLen);
    out += char(v1 ? 1 : 2);
    out += char(0);
    for (size_t k = 0; k < len_bytes; ++k) out += char((total >> (8 * k)) & 0xff);
    out += h;
    out.append(pad, ' ');
    out += '\n';
    return out;
}

// Appends the elements of a strided host array in C order (no kernel: a
// byte copy works for every dtype, complex included).
void append_c_order(std::string& out, const HostArrayView& v) {
    size_t isz = itemsize(v.dtype);
    std::vector<int64_t> idx(size_t(v.ndim()), 0);
    const uint8_t* p = v.data;
    for (int64_t k = 0; k < v.size(); ++k) {
        out.append(reinterpret_cast<const char*>(p), isz);
        for (int d = v.ndim() - 1; d >= 0; --d) {
            size_t du = size_t(d);
            p += v.strides[du];
            if (++idx[du] < v.shape[du]) break;
            p -= v.strides[du] * v.shape[du];
            idx[du] = 0;
        }
    }
}

}  // namespace

std::string npy_bytes(Interp& in, const Value& v) {
    Value arr = as_array_value(in, v);
    ArrayObj* a = arr.as<ArrayObj>();
    HostArrayView hv = host_view(a);
    // NumPy writes C order unless the array is Fortran- and not C-contiguous
    // (then its memory is written as is); anything else is gathered in C order.
    bool c_order = a->size() == 0 || a->c_contiguous();
    bool fortran = !c_order && f_contiguous(a);
    std::string out = header_bytes(a->dtype, fortran, a->shape);
    size_t nbytes = size_t(a->size()) * itemsize(a->dtype);
    if (c_order || fortran) {
        if (nbytes) out.append(reinterpret_cast<const char*>(hv.data), nbytes);
    } else {
        out.reserve(out.size() + nbytes);
        append_c_order(out, hv);
    }
    return out;
}

namespace {

// ---- reading ----

[[noreturn]] void eof(const char* what, size_t expected, size_t got) {
    raise(types::ValueError, std::string("EOF: reading ") + what + ", expected " + std::to_string(expected) +
                                 " bytes got " + std::to_string(got));
}

// A Python literal (what ast.literal_eval accepts in a .npy header: dicts,
// tuples, lists, strings, numbers, True/False/None) as a gpy value. Returns
// an undefined Value on a syntax error.
class LiteralParser {
public:
    LiteralParser(Interp& in, std::string_view s) : in_(in), s_(s) {}

    Value parse_all() {
        // literal_eval strips leading spaces and tabs only.
        while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t')) ++p_;
        Value v = value(0);
        if (v.is_undef()) return v;
        skip(true);
        return p_ == s_.size() ? v : Value();
    }

private:
    Interp& in_;
    std::string_view s_;
    size_t p_ = 0;

    // Whitespace; newlines only inside brackets (nested > 0) or at the end.
    void skip(bool newlines) {
        while (p_ < s_.size()) {
            char c = s_[p_];
            if (c == ' ' || c == '\t' || c == '\f' || (newlines && (c == '\n' || c == '\r'))) ++p_;
            else if (c == '#') while (p_ < s_.size() && s_[p_] != '\n') ++p_;
            else if (c == '\\' && p_ + 1 < s_.size() && s_[p_ + 1] == '\n') p_ += 2;
            else break;
        }
    }
    bool eat(char c, bool nl) {
        skip(nl);
        if (p_ < s_.size() && s_[p_] == c) {
            ++p_;
            return true;
        }
        return false;
    }

    Value value(int depth) {
        if (depth > 100) return Value();
        bool nl = depth > 0;
        skip(nl);
        if (p_ >= s_.size()) return Value();
        char c = s_[p_];
        if (c == '{' || c == '[' || c == '(') return container(c, depth);
        if (c == '\'' || c == '"') return string();
        if (c == '-' || c == '+') {  // a sign applies to a number literal only
            ++p_;
            skip(nl);
            if (p_ >= s_.size() || !(std::isdigit(static_cast<unsigned char>(s_[p_])) || s_[p_] == '.')) return Value();
            Value v = number();
            if (v.is_undef() || c == '+') return v;
            if (v.is_int()) return v.i == INT64_MIN ? Value() : Value::integer(-v.i);
            return Value::real(-v.f);
        }
        if ((c >= '0' && c <= '9') || c == '.') return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            size_t b = p_;
            while (p_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_')) ++p_;
            std::string_view w = s_.substr(b, p_ - b);
            if (w == "True") return Value::boolean(true);
            if (w == "False") return Value::boolean(false);
            if (w == "None") return Value::none();
            if ((w == "u" || w == "U") && p_ < s_.size() && (s_[p_] == '\'' || s_[p_] == '"')) return string();
        }
        return Value();
    }

    Value container(char open, int depth) {
        char close = open == '{' ? '}' : open == '[' ? ']' : ')';
        ++p_;
        std::vector<Value> items;
        Value dict;
        DictObj* d = nullptr;
        if (open == '{') {
            d = new DictObj();
            dict = Value::object(d);
        }
        bool comma = false, need_comma = false;
        while (!eat(close, true)) {
            if (need_comma) return Value();
            Value k = value(depth + 1);
            if (k.is_undef()) return Value();
            if (d) {
                if (!eat(':', true)) return Value();
                Value v = value(depth + 1);
                if (v.is_undef()) return Value();
                d->table.set(in_, k, v);  // raises for unhashable keys, as Python does
            }
            items.push_back(k);
            comma = eat(',', true);
            need_comma = !comma;
        }
        if (d) return dict;
        if (open == '[') return make_list(std::move(items));
        if (items.size() == 1 && !comma) return items[0];  // "(x)" is x, not a tuple
        return make_tuple(std::move(items));
    }

    Value string() {
        char q = s_[p_++];
        std::string out;
        while (p_ < s_.size() && s_[p_] != q) {
            char c = s_[p_++];
            if (c == '\n') return Value();
            if (c != '\\') {
                out += c;
                continue;
            }
            if (p_ >= s_.size()) return Value();
            char e = s_[p_++];
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case '0': out += '\0'; break;
                case '\\': case '\'': case '"': out += e; break;
                case '\n': break;
                case 'x': {
                    if (p_ + 2 > s_.size()) return Value();
                    unsigned v = 0;
                    for (int k = 0; k < 2; ++k) {
                        char h = s_[p_++];
                        if (!std::isxdigit(static_cast<unsigned char>(h))) return Value();
                        v = v * 16 + unsigned(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (h | 0x20) - 'a' + 10);
                    }
                    append_utf8(out, v);
                    break;
                }
                default: out += '\\'; out += e; break;  // Python keeps unknown escapes
            }
        }
        if (p_ >= s_.size()) return Value();
        ++p_;
        return make_str(std::move(out));
    }

    Value number() {
        size_t b = p_;
        bool is_float = false;
        while (p_ < s_.size()) {
            char c = s_[p_];
            if (std::isdigit(static_cast<unsigned char>(c))) ++p_;
            else if (c == '.') { is_float = true; ++p_; }
            else if ((c == 'e' || c == 'E')) {
                is_float = true;
                ++p_;
                if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-')) ++p_;
            } else break;
        }
        std::string text(s_.substr(b, p_ - b));
        if (p_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_')) return Value();
        char* end = nullptr;
        errno = 0;
        if (is_float) {
            double d = std::strtod(text.c_str(), &end);
            return end == text.c_str() + text.size() ? Value::real(d) : Value();
        }
        // Python rejects leading zeros in a non-zero decimal literal.
        if (text.size() > 1 && text[0] == '0' && text.find_first_not_of('0') != std::string::npos) return Value();
        long long i = std::strtoll(text.c_str(), &end, 10);
        if (errno == ERANGE || end != text.c_str() + text.size()) return Value();  // no big ints in gpy
        return Value::integer(i);
    }
};

// Python's repr of a bytes object.
std::string bytes_repr(std::string_view s) {
    bool dq = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos;
    char q = dq ? '"' : '\'';
    std::string out = std::string("b") + q;
    for (unsigned char c : s) {
        if (c == '\\' || c == q) { out += '\\'; out += char(c); }
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else out += char(c);
    }
    return out + q;
}

// Latin-1 bytes as UTF-8 text (the header of a version 1.0 / 2.0 file).
std::string latin1_to_utf8(std::string_view s) {
    std::string out;
    for (unsigned char c : s) append_utf8(out, c);
    return out;
}

// Stores the parsed descr's dtype; false when NumPy would not understand it.
// Dtypes NumPy has and gpy does not (strings, datetimes, objects, structured
// arrays) raise.
bool descr_dtype(const Value& descr, DType& t, bool& swap, bool allow_pickle) {
    if (!is_kind(descr, OK::Str)) {
        if (is_kind(descr, OK::List) || is_kind(descr, OK::Tuple))
            raise(types::TypeError, "gpy cannot load structured or subarray dtypes from .npy files");
        return false;
    }
    std::string s = descr.as<StrObj>()->s;
    char order = s.empty() ? '=' : s[0];
    if (order == '<' || order == '>' || order == '|' || order == '=') s = s.substr(1);
    else order = '=';
    if (s == "O" || s == "O8") {
        if (!allow_pickle) raise(types::ValueError, "Object arrays cannot be loaded when allow_pickle=False");
        raise(types::TypeError, "gpy arrays do not hold Python objects (dtype 'O')");
    }
    if (auto d = parse_dtype(s)) {
        t = *d;
        swap = order == '>' && itemsize(t) > 1;
        return true;
    }
    if (!s.empty() && std::strchr("SaUVMm", s[0]))
        raise(types::TypeError, "gpy does not support the dtype '" + descr.as<StrObj>()->s + "'");
    return false;
}

// Reverses the bytes of each element (each component of a complex element).
void byte_swap(uint8_t* p, size_t n_elems, DType t) {
    size_t w = is_complex(t) ? itemsize(t) / 2 : itemsize(t);
    size_t n = n_elems * itemsize(t) / w;
    for (size_t k = 0; k < n; ++k, p += w) std::reverse(p, p + w);
}

}  // namespace

Value npy_parse(Interp& in, const std::string& data, const NpyLoadOptions& opt) {
    size_t pos = 0;
    if (data.size() < kMagicLen + 2) eof("magic string", kMagicLen + 2, data.size());
    if (data.compare(0, kMagicLen, kMagic, kMagicLen) != 0) {
        raise(types::ValueError, "the magic string is not correct; expected b'\\x93NUMPY', got " +
                                     bytes_repr(data.substr(0, kMagicLen)));
    }
    int major = uint8_t(data[kMagicLen]), minor = uint8_t(data[kMagicLen + 1]);
    if (minor != 0 || major < 1 || major > 3)
        raise(types::ValueError, "we only support format version (1,0), (2,0), and (3,0), not (" +
                                     std::to_string(major) + ", " + std::to_string(minor) + ")");
    pos = kMagicLen + 2;
    size_t len_bytes = major == 1 ? 2 : 4;
    if (data.size() - pos < len_bytes) eof("array header length", len_bytes, data.size() - pos);
    size_t hlen = 0;
    for (size_t k = 0; k < len_bytes; ++k) hlen |= size_t(uint8_t(data[pos + k])) << (8 * k);
    pos += len_bytes;
    if (data.size() - pos < hlen) eof("array header", hlen, data.size() - pos);
    std::string raw = data.substr(pos, hlen);
    pos += hlen;
    std::string header = major == 3 ? raw : latin1_to_utf8(raw);
    if (major == 3) {
        bool ok = true;
        for (size_t i = 0; i < header.size() && ok;) decode_utf8(header, i, &ok);
        if (!ok) raise(types::UnicodeError, "'utf-8' codec can't decode the .npy header");
    }
    size_t header_chars = size_t(count_code_points(header));
    if (!opt.allow_pickle && int64_t(header_chars) > opt.max_header_size)
        raise(types::ValueError, "Header info length (" + std::to_string(header_chars) +
                                     ") is large and may not be safe to load securely.\n"
                                     "To allow loading, adjust `max_header_size` or fully trust the `.npy` file using "
                                     "`allow_pickle=True`.\nFor safety against large resource use or crashes, "
                                     "sandboxing may be necessary.");

    Value d = LiteralParser(in, header).parse_all();
    if (d.is_undef()) raise(types::ValueError, "Cannot parse header: " + fmt::str_repr(header));
    if (!is_kind(d, OK::Dict)) raise(types::ValueError, "Header is not a dictionary: " + repr(in, d));
    HashTable& table = d.as<DictObj>()->table;
    std::vector<Value> keys;
    for (auto& e : table.entries)
        if (!e.key.is_undef()) keys.push_back(e.key);
    auto lookup = [&](const char* k) -> const Value* {
        long i = table.find(in, make_str(k));
        return i < 0 ? nullptr : &table.entries[size_t(i)].value;
    };
    const Value *shape_v = lookup("shape"), *fortran_v = lookup("fortran_order"), *descr_v = lookup("descr");
    if (keys.size() != 3 || !shape_v || !fortran_v || !descr_v) {
        sort_values(in, keys, nullptr, false);
        raise(types::ValueError, "Header does not contain the correct keys: " + repr(in, make_list(keys)));
    }
    bool shape_ok = is_kind(*shape_v, OK::Tuple);
    if (shape_ok)
        for (auto& x : shape_v->as<TupleObj>()->items) shape_ok = shape_ok && x.is_intlike();
    if (!shape_ok) raise(types::ValueError, "shape is not valid: " + repr(in, *shape_v));
    if (!fortran_v->is_bool()) raise(types::ValueError, "fortran_order is not a valid bool: " + repr(in, *fortran_v));
    DType t;
    bool swap = false;
    if (!descr_dtype(*descr_v, t, swap, opt.allow_pickle))
        raise(types::ValueError, "descr is not a valid dtype descriptor: " + repr(in, *descr_v));

    // numpy.fromfile(count=prod(shape)) then a size check; the product wraps
    // like NumPy's int64 multiply.reduce, and a negative count reads everything.
    dag::Shape shape;
    uint64_t count = 1;
    for (auto& x : shape_v->as<TupleObj>()->items) {
        shape.push_back(x.as_int());
        count *= uint64_t(x.as_int());
    }
    size_t isz = itemsize(t);
    uint64_t available = (data.size() - pos) / isz;
    if (int64_t(count) < 0 || count > available) {
        raise(types::ValueError, "Failed to read all data for array. Expected " + repr(in, *shape_v) + " = " +
                                     std::to_string(int64_t(count)) + " elements, could only read " +
                                     std::to_string(available) +
                                     " elements. (file seems not fully written?)");
    }
    for (int64_t dim : shape)
        if (dim < 0) raise(types::ValueError, "negative dimensions are not allowed");
    bool fortran = fortran_v->b;
    Value out = new_array(t, shape);
    ArrayObj* a = out.as<ArrayObj>();
    uint8_t* p = a->buffer.bytes();
    if (count) std::memcpy(p, data.data() + pos, size_t(count) * isz);
    if (swap) byte_swap(p, size_t(count), t);
    if (t == DType::Bool)  // NumPy keeps any byte; gpy's kernels assume 0 or 1
        for (uint64_t k = 0; k < count; ++k) p[k] = p[k] != 0;
    if (fortran) {
        int64_t stride = int64_t(isz);
        for (size_t k = 0; k < shape.size(); ++k) {
            a->strides[k] = stride;
            stride *= shape[k];
        }
    }
    return out;
}

namespace {

Value np_save(Interp& in, CallArgs& a) {
    const Value* file = arg(a, 0, "file");
    const Value* arr = arg(a, 1, "arr");
    if (!file || !arr) raise(types::TypeError, "save() missing required argument 'arr' (pos 1)");
    std::string path = path_arg(*file, "save");
    if (path.size() < 4 || path.compare(path.size() - 4, 4, ".npy") != 0) path += ".npy";
    write_file_bytes(path, npy_bytes(in, *arr));
    return Value::none();
}

Value np_load(Interp& in, CallArgs& a) {
    const Value* file = arg(a, 0, "file");
    if (!file) raise(types::TypeError, "load() missing required argument 'file' (pos 0)");
    const std::string& path = path_arg(*file, "load");
    if (const Value* mm = arg_not_none(a, 1, "mmap_mode"))
        raise(types::NotImplementedError, "np.load(mmap_mode=" + repr(in, *mm) + "): gpy has no memory-mapped arrays");
    NpyLoadOptions opt;
    if (const Value* v = arg(a, 2, "allow_pickle")) opt.allow_pickle = truthy(*v);
    if (const Value* v = kwarg(a, "max_header_size")) opt.max_header_size = to_index(*v);
    std::string data = read_file_bytes(path);
    if (data.empty()) raise(types::ValueError, "No data left in file");  // NumPy: EOFError
    if (data.compare(0, 4, "PK\x03\x04", 4) == 0 || data.compare(0, 4, "PK\x05\x06", 4) == 0)
        return npz_open(in, path, std::move(data), opt);
    if (data.size() >= kMagicLen && data.compare(0, kMagicLen, kMagic, kMagicLen) == 0) return npy_parse(in, data, opt);
    if (!opt.allow_pickle)
        raise(types::ValueError, "This file contains pickled (object) data. If you trust the file you can load it "
                                 "unsafely using the `allow_pickle=` keyword argument or `pickle.load()`.");
    raise(types::NotImplementedError, "gpy cannot read pickled data: " + fmt::str_repr(path));
}

}  // namespace

void add_io_functions(Interp& in, ModuleObj* m) {
    m->set("save", make_builtin("save", np_save, "save(file, arr, allow_pickle=True)",
                                "Save an array to a binary file in NumPy .npy format."));
    m->set("load", make_builtin("load", np_load,
                                "load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding='ASCII', *, max_header_size=10000)",
                                "Load arrays from .npy or .npz files."));
    add_npz_functions(in, m);
    add_text_io_functions(in, m);
}

}  // namespace gpy
