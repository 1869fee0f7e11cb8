// np.savetxt / np.loadtxt: arrays as delimited text, with NumPy 2's
// arguments, row/column conventions and error messages.
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "lang/format.h"
#include "numpy/array.h"
#include "numpy/io_files.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"

namespace gpy {

namespace {

// ---------------------------------------------------------------- savetxt --

const std::string& str_arg(CallArgs& a, size_t pos, const char* name, const std::string& fallback) {
    const Value* v = arg(a, pos, name);
    return v ? str_of(*v, name) : fallback;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
    return s;
}

size_t count_of(const std::string& s, char c) { return size_t(std::count(s.begin(), s.end(), c)); }

// Element `p` of `a` (an offset into its buffer) as a NumPy scalar: Python's
// %-formatting then sees np.float32(0.1) exactly as NumPy's savetxt does
// (%s prints 0.1, %.3e converts to a float).
Value element_scalar(ArrayObj* a, DType t, int64_t offset) {
    Value s = array_from_buffer(a->buffer, t, {}, {}, offset);
    set_numpy_scalar(s.as<ArrayObj>(), true);
    return s;
}

Value np_savetxt(Interp& in, CallArgs& a) {
    const Value* fname = arg(a, 0, "fname");
    const Value* xv = arg(a, 1, "X");
    if (!fname || !xv) raise(types::TypeError, "savetxt() missing required argument 'X' (pos 1)");
    const std::string& path = path_arg(*fname, "savetxt");
    static const std::string kFmt = "%.18e", kSpace = " ", kNewline = "\n", kEmpty, kComments = "# ";
    const Value* fmt_v = arg(a, 2, "fmt");
    const std::string& delimiter = str_arg(a, 3, "delimiter", kSpace);
    const std::string& newline = str_arg(a, 4, "newline", kNewline);
    std::string header = str_arg(a, 5, "header", kEmpty);
    std::string footer = str_arg(a, 6, "footer", kEmpty);
    const std::string& comments = str_arg(a, 7, "comments", kComments);

    Value x = as_array_value(in, *xv);
    ArrayObj* X = x.as<ArrayObj>();
    materialize(X);
    if (X->ndim() == 0 || X->ndim() > 2)
        raise(types::ValueError, "Expected 1D or 2D array, got " + std::to_string(X->ndim()) + "D array instead");
    int64_t nrow = X->shape[0], ncol = X->ndim() == 2 ? X->shape[1] : 1;
    int64_t row_stride = X->strides[0], col_stride = X->ndim() == 2 ? X->strides[1] : 0;
    bool cplx = is_complex(X->dtype);

    std::string format;
    if (fmt_v && (is_kind(*fmt_v, OK::List) || is_kind(*fmt_v, OK::Tuple))) {
        std::vector<Value> parts = to_vector(in, *fmt_v);
        if (int64_t(parts.size()) != ncol) raise(types::AttributeError, "fmt has wrong shape.  " + to_str(in, *fmt_v));
        for (size_t k = 0; k < parts.size(); ++k) format += (k ? delimiter : "") + to_str(in, parts[k]);
    } else if (!fmt_v || is_kind(*fmt_v, OK::Str)) {
        const std::string& f = fmt_v ? fmt_v->as<StrObj>()->s : kFmt;
        size_t n = count_of(f, '%');
        if (n == 1) {
            std::string one = cplx ? " (" + f + "+" + f + "j)" : f;
            for (int64_t k = 0; k < ncol; ++k) format += (k ? delimiter : "") + one;
        } else if (int64_t(n) != (cplx ? 2 * ncol : ncol)) {
            raise(types::ValueError, "fmt has wrong number of % formats:  " + f);
        } else {
            format = f;
        }
    } else {
        raise(types::ValueError, "invalid fmt: " + repr(in, *fmt_v));
    }

    std::string out;
    if (!header.empty()) out += comments + replace_all(header, "\n", "\n" + comments) + newline;
    DType part = X->dtype == DType::Complex64 ? DType::Float32 : DType::Float64;
    int64_t half = int64_t(itemsize(X->dtype) / 2);
    for (int64_t r = 0; r < nrow; ++r) {
        std::vector<Value> row;
        for (int64_t c = 0; c < ncol; ++c) {
            int64_t off = X->offset + r * row_stride + c * col_stride;
            if (cplx) {  // NumPy formats (number.real, number.imag)
                row.push_back(element_scalar(X, part, off));
                row.push_back(element_scalar(X, part, off + half));
            } else {
                row.push_back(element_scalar(X, X->dtype, off));
            }
        }
        std::string line;
        try {
            line = percent_format(in, format, make_tuple(std::move(row))).as<StrObj>()->s;
        } catch (const GpyError& e) {
            if (cplx || !e.obj()->type->is_subtype_of(types::TypeError)) throw;
            raise(types::TypeError, std::string("Mismatch between array dtype ('") + name(X->dtype) +
                                        "') and format specifier ('" + format + "')");
        }
        out += cplx ? replace_all(line, "+-", "-") : line;
        out += newline;
    }
    if (!footer.empty()) out += comments + replace_all(footer, "\n", "\n" + comments) + newline;
    write_file_bytes(path, out);
    return Value::none();
}

// ---------------------------------------------------------------- loadtxt --

struct TextOptions {
    DType dtype = DType::Float64;
    std::vector<std::string> comments;  // empty: none
    int delimiter = -1;                 // -1: runs of whitespace
    int64_t skiprows = 0, max_rows = -1;
    std::vector<int64_t> usecols;
    bool has_usecols = false;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

std::string_view strip(std::string_view s) {
    while (!s.empty() && (is_space(s.front()) || s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (is_space(s.back()) || s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// Python's float() syntax without underscores (NumPy's text parser): decimal
// digits with an optional point and exponent, or inf / infinity / nan.
bool parse_double(std::string_view s, double& out) {
    s = strip(s);
    if (s.empty()) return false;
    std::string t(s);
    size_t i = (t[0] == '+' || t[0] == '-') ? 1 : 0;
    std::string word = t.substr(i);
    for (char& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (word == "inf" || word == "infinity" || word == "nan") {
        out = word == "nan" ? std::nan("") : HUGE_VAL;
        if (t[0] == '-') out = -out;
        return true;
    }
    bool digits = false;
    for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i) digits = true;
    if (i < t.size() && t[i] == '.')
        for (++i; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i) digits = true;
    if (!digits) return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        size_t start = i;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
        if (i == start) return false;
    }
    if (i != t.size()) return false;
    out = std::strtod(t.c_str(), nullptr);  // ERANGE gives ±inf / 0, as Python
    return true;
}

// [+-]digits into [lo, hi] (as NumPy's text integer parser: no point, no exponent).
bool parse_int(std::string_view s, int64_t lo, uint64_t hi, uint64_t& mag, bool& neg) {
    s = strip(s);
    neg = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s.empty()) return false;
    mag = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        if (mag > (UINT64_MAX - 9) / 10) return false;
        mag = mag * 10 + uint64_t(c - '0');
    }
    if (neg) return mag == 0 || (lo < 0 && mag <= uint64_t(-(lo + 1)) + 1);
    return mag <= hi;
}

// "1+2j", "-4-5.5j", "3j", "8", "(6+7j)" (Python's complex() syntax).
bool parse_complex(std::string_view s, double& re, double& im) {
    s = strip(s);
    if (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = strip(s.substr(1, s.size() - 2));
    re = im = 0;
    if (s.empty()) return false;
    if (s.back() != 'j' && s.back() != 'J') return parse_double(s, re);
    std::string_view body = s.substr(0, s.size() - 1);
    // The split between the parts: the last sign not right after an exponent 'e'.
    for (size_t k = body.size(); k-- > 1;) {
        if ((body[k] == '+' || body[k] == '-') && body[k - 1] != 'e' && body[k - 1] != 'E') {
            std::string_view imag = body.substr(k);
            if (imag.size() == 1) imag = imag[0] == '-' ? "-1" : "1";
            return parse_double(body.substr(0, k), re) && parse_double(imag, im);
        }
    }
    if (body.empty() || body == "+" || body == "-") {
        im = body == "-" ? -1 : 1;
        return true;
    }
    return parse_double(body, im);
}

// Parses `field` into the element at p; false when NumPy would not convert it.
bool store_field(std::string_view field, DType t, uint8_t* p) {
    switch (kind(t)) {
        case DKind::Float: {
            double d;
            if (!parse_double(field, d)) return false;
            if (t == DType::Float16) *reinterpret_cast<_Float16*>(p) = _Float16(d);
            else if (t == DType::Float32) *reinterpret_cast<float*>(p) = float(d);
            else *reinterpret_cast<double*>(p) = d;
            return true;
        }
        case DKind::Complex: {
            double re, im;
            if (!parse_complex(field, re, im)) return false;
            if (t == DType::Complex64) {
                reinterpret_cast<float*>(p)[0] = float(re);
                reinterpret_cast<float*>(p)[1] = float(im);
            } else {
                reinterpret_cast<double*>(p)[0] = re;
                reinterpret_cast<double*>(p)[1] = im;
            }
            return true;
        }
        default: {
            // Integers and bool (bool reads an integer: "2" is True).
            size_t n = itemsize(t);
            bool sign = kind(t) == DKind::Int;
            // -(2^63) itself: negating 1 << 63 would overflow.
            int64_t lo = t == DType::Bool || (sign && n == 8) ? INT64_MIN : sign ? -(int64_t(1) << (8 * n - 1)) : 0;
            uint64_t hi = t == DType::Bool ? UINT64_MAX : sign ? (uint64_t(1) << (8 * n - 1)) - 1
                                                              : (n == 8 ? UINT64_MAX : (uint64_t(1) << (8 * n)) - 1);
            uint64_t mag;
            bool neg;
            if (!parse_int(field, lo, hi, mag, neg)) return false;
            uint64_t bits = neg ? uint64_t(0) - mag : mag;
            if (t == DType::Bool) bits = mag != 0;
            std::memcpy(p, &bits, n);  // little-endian: the low bytes
            return true;
        }
    }
}

// One line without its comment, split into fields (none for a blank line).
std::vector<std::string_view> split_fields(std::string_view line, const TextOptions& o) {
    for (const std::string& c : o.comments) {
        size_t at = line.find(c);
        if (at != std::string_view::npos) line = line.substr(0, at);
    }
    std::vector<std::string_view> fields;
    if (o.delimiter < 0) {
        size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && is_space(line[i])) ++i;
            size_t b = i;
            while (i < line.size() && !is_space(line[i])) ++i;
            if (i > b) fields.push_back(line.substr(b, i - b));
        }
        return fields;
    }
    if (line.empty()) return fields;
    size_t b = 0;
    for (size_t i = 0; i <= line.size(); ++i) {
        if (i == line.size() || line[i] == char(o.delimiter)) {
            fields.push_back(line.substr(b, i - b));
            b = i + 1;
        }
    }
    return fields;
}

// Splits text into lines with Python's universal newlines (\n, \r\n, \r).
std::vector<std::string_view> split_lines(const std::string& text) {
    std::vector<std::string_view> lines;
    size_t b = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n' || text[i] == '\r') {
            lines.emplace_back(text.data() + b, i - b);
            if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            b = i + 1;
        }
    }
    if (b < text.size()) lines.emplace_back(text.data() + b, text.size() - b);
    return lines;
}

[[noreturn]] void value_error(const std::string& m) { raise(types::ValueError, m); }

int64_t nonneg_arg(const Value& v) {
    int64_t n = to_index(v);
    if (n < 0) value_error("argument must be nonnegative");
    return n;
}

// A single character (or None) for delimiter=.
int control_char(const Value* v) {
    if (!v || v->is_none()) return -1;
    const std::string& s = str_of(*v, "delimiter");
    if (s.size() != 1)
        raise(types::TypeError, "Text reading control character must be a single unicode character or None; but got: '" + s + "'");
    return static_cast<unsigned char>(s[0]);
}

TextOptions text_options(Interp& in, CallArgs& a) {
    TextOptions o;
    if (auto d = dtype_arg(in, a, 1)) o.dtype = *d;
    if (const Value* v = arg_not_none(a, 4, "converters"); v)
        raise(types::NotImplementedError, "loadtxt(converters=...) is not supported by gpy");
    if (const Value* v = arg_not_none(a, 6, "usecols")) {
        std::vector<Value> cols = (is_kind(*v, OK::List) || is_kind(*v, OK::Tuple) || as_array(*v)) ? to_vector(in, *v)
                                                                                                    : std::vector<Value>{*v};
        for (auto& c : cols) {
            if (!c.is_intlike() && !(as_array(c) && is_integer(as_array(c)->dtype)))
                raise(types::TypeError, std::string("usecols must be an int or a sequence of ints but it contains at least "
                                                    "one element of type '") + type_name(c) + "'");
            o.usecols.push_back(to_index(c));
        }
        o.has_usecols = true;
    }
    o.delimiter = control_char(arg(a, 3, "delimiter"));
    const Value* comments = arg(a, 2, "comments");
    if (!comments) o.comments = {"#"};
    else if (!comments->is_none())
        o.comments = is_kind(*comments, OK::Str) ? std::vector<std::string>{comments->as<StrObj>()->s} : [&] {
            std::vector<std::string> cs;
            for (auto& c : to_vector(in, *comments)) cs.push_back(str_of(c, "comments"));
            return cs;
        }();
    for (auto& c : o.comments)
        if (c.empty()) value_error("comments cannot be an empty string. Use comments=None to disable comments.");
    if (o.delimiter >= 0 && o.comments.size() > 1) {
        for (auto& c : o.comments)
            if (c == std::string(1, char(o.delimiter))) {
                std::vector<Value> items;
                for (auto& s : o.comments) items.push_back(make_str(s));
                raise(types::TypeError, "Comment characters '" + repr(in, make_tuple(items)) +
                                            "' cannot include the delimiter '" + char(o.delimiter) + "'");
            }
    }
    if (o.delimiter >= 0 && o.comments.size() == 1 && o.comments[0] == std::string(1, char(o.delimiter)))
        raise(types::TypeError, "The values for control characters 'comment' and 'delimiter' are incompatible");
    if (const Value* v = arg(a, 5, "skiprows")) o.skiprows = nonneg_arg(*v);
    if (const Value* v = arg_not_none(a, 10, "max_rows")) o.max_rows = nonneg_arg(*v);
    return o;
}

Value np_loadtxt(Interp& in, CallArgs& a) {
    const Value* fname = arg(a, 0, "fname");
    if (!fname) raise(types::TypeError, "loadtxt() missing required argument 'fname' (pos 0)");
    const std::string& path = path_arg(*fname, "loadtxt");
    int64_t ndmin = 0;
    if (const Value* v = arg(a, 8, "ndmin")) ndmin = to_index(*v);
    bool unpack = false;
    if (const Value* v = arg(a, 7, "unpack")) unpack = truthy(*v);
    if (const Value* v = kwarg(a, "quotechar"); v && !v->is_none())
        raise(types::NotImplementedError, "loadtxt(quotechar=...) is not supported by gpy");
    TextOptions o = text_options(in, a);
    if (ndmin < 0 || ndmin > 2) value_error("Illegal value of ndmin keyword: " + std::to_string(ndmin));

    std::string text;
    try {
        text = read_file_bytes(path);
    } catch (const GpyError& e) {
        // NumPy opens through np.lib._datasource, which words it this way.
        if (e.obj()->type != types::FileNotFoundError) throw;
        raise(types::FileNotFoundError, path + " not found.");
    }
    std::vector<std::string_view> lines = split_lines(text);

    size_t isz = itemsize(o.dtype);
    std::vector<uint8_t> data;
    int64_t nrows = 0, ncols = o.has_usecols ? int64_t(o.usecols.size()) : -1, file_cols = -1;
    for (size_t li = size_t(std::min<int64_t>(o.skiprows, int64_t(lines.size()))); li < lines.size(); ++li) {
        if (o.max_rows >= 0 && nrows >= o.max_rows) break;
        std::vector<std::string_view> fields = split_fields(lines[li], o);
        if (fields.empty()) continue;
        int64_t nf = int64_t(fields.size());
        std::vector<int64_t> cols;
        if (o.has_usecols) {
            for (int64_t c : o.usecols) {
                int64_t k = c < 0 ? c + nf : c;
                if (k < 0 || k >= nf)
                    value_error("invalid column index " + std::to_string(c) + " at row " + std::to_string(nrows + 1) +
                                " with " + std::to_string(nf) + " columns");
                cols.push_back(k);
            }
        } else {
            if (file_cols < 0) file_cols = ncols = nf;
            if (nf != file_cols)
                value_error("the number of columns changed from " + std::to_string(file_cols) + " to " +
                            std::to_string(nf) + " at row " + std::to_string(nrows + 1) +
                            "; use `usecols` to select a subset and avoid this error");
            for (int64_t k = 0; k < nf; ++k) cols.push_back(k);
        }
        size_t base = data.size();
        data.resize(base + cols.size() * isz);
        for (size_t k = 0; k < cols.size(); ++k) {
            std::string_view f = fields[size_t(cols[k])];
            if (!store_field(f, o.dtype, data.data() + base + k * isz))
                value_error("could not convert string " + fmt::str_repr(std::string(f)) + " to " + name(o.dtype) +
                            " at row " + std::to_string(nrows) + ", column " + std::to_string(cols[k] + 1) + ".");
        }
        ++nrows;
    }
    if (ncols < 0) ncols = 0;

    // NumPy builds (rows, columns), then _ensure_ndmin_ndarray and unpack.
    dag::Shape shape = nrows == 0 && !o.has_usecols ? dag::Shape{0} : dag::Shape{nrows, ncols};
    if (int64_t(shape.size()) > ndmin) {  // np.squeeze
        dag::Shape s;
        for (int64_t d : shape)
            if (d != 1) s.push_back(d);
        shape = s;
    }
    if (int64_t(shape.size()) < ndmin) {
        if (ndmin == 1) shape = {1};
        else shape = shape.empty() ? dag::Shape{1, 1} : dag::Shape{shape[0], 1};  // atleast_2d(a).T
    }
    if (nrows == 0) in.write_err("UserWarning: loadtxt: input contained no data: \"" + path + "\"\n");
    Value out = new_array(o.dtype, shape);
    ArrayObj* arr = out.as<ArrayObj>();
    if (!data.empty()) std::memcpy(arr->buffer.bytes(), data.data(), data.size());
    if (unpack && arr->ndim() > 1) {  // arr.T: a view
        std::reverse(arr->shape.begin(), arr->shape.end());
        std::reverse(arr->strides.begin(), arr->strides.end());
    }
    return out;
}

}  // namespace

void add_text_io_functions(Interp&, ModuleObj* m) {
    m->set("savetxt", make_builtin("savetxt", np_savetxt,
                                   "savetxt(fname, X, fmt='%.18e', delimiter=' ', newline='\\n', header='', footer='', comments='# ', encoding=None)",
                                   "Save an array to a text file."));
    m->set("loadtxt", make_builtin("loadtxt", np_loadtxt,
                                   "loadtxt(fname, dtype=float, comments='#', delimiter=None, converters=None, skiprows=0, usecols=None, unpack=False, ndmin=0, encoding=None, max_rows=None, *, quotechar=None, like=None)",
                                   "Load data from a text file."));
}

}  // namespace gpy
