// Python's json (dumps, loads, JSONDecodeError), natively, with CPython
// 3.11's output: separators, indent, sort_keys, ensure_ascii escapes, NaN and
// Infinity, keys converted to strings, default=, and the decoder's messages
// ("Expecting value: line 1 column 1 (char 0)").
#include <cerrno>
#include <cmath>
#include <cstring>
#include <optional>

#include "lang/stdlib_modules.h"
#include "lang/utf8.h"

namespace gpy {

namespace {

TypeObject* decode_error_type() {
    static TypeObject* t = [] {
        auto* e = new TypeObject("JSONDecodeError", types::ValueError, OK::Exception);
        e->doc = "Subclass of ValueError with the position of the error (json.decoder.JSONDecodeError).";
        return e;
    }();
    return t;
}

void escape_into(std::string& out, std::string_view s, bool ascii) {
    out += '"';
    size_t i = 0;
    char buf[16];
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (c < 0x20) {
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += char(c);
                }
            }
            continue;
        }
        const size_t start = i;
        char32_t cp = decode_utf8(s, i);
        if (!ascii) {
            out.append(s.substr(start, i - start));
            continue;
        }
        if (cp >= 0x10000) {  // a surrogate pair, as CPython writes it
            cp -= 0x10000;
            std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", unsigned(0xd800 + (cp >> 10)), unsigned(0xdc00 + (cp & 0x3ff)));
        } else {
            std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(cp));
        }
        out += buf;
    }
    out += '"';
}

struct Encoder {
    Interp& in;
    bool ascii = true, allow_nan = true, sort_keys = false, skipkeys = false;
    std::string indent;  // none when !indented
    bool indented = false;
    std::string item_sep = ", ", key_sep = ": ";
    Value default_fn;
    std::vector<const Object*> stack;  // check_circular

    std::string float_text(double d) {
        if (std::isnan(d) || std::isinf(d)) {
            if (!allow_nan) raise(types::ValueError, "Out of range float values are not JSON compliant");
            return std::isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
        }
        return repr(in, Value::real(d));
    }

    void newline(std::string& out, size_t depth) {
        out += '\n';
        for (size_t k = 0; k < depth; ++k) out += indent;
    }

    // A dict key as JSON's string key (CPython's conversions), or nullopt to skip it.
    std::optional<std::string> key_text(const Value& k) {
        if (is_kind(k, OK::Str)) return k.as<StrObj>()->s;
        if (k.kind == VK::Bool) return std::string(k.b ? "true" : "false");
        if (k.kind == VK::Int) return std::to_string(k.i);
        if (k.kind == VK::Float) return float_text(k.f);
        if (k.is_none()) return std::string("null");
        if (skipkeys) return std::nullopt;
        raise(types::TypeError, std::string("keys must be str, int, float, bool or None, not ") + type_name(k));
    }

    void enter(const Value& v) {
        for (const Object* o : stack)
            if (o == v.o) raise(types::ValueError, "Circular reference detected");
        stack.push_back(v.o);
    }

    void encode(std::string& out, const Value& held, size_t depth) {
        const Value v = held;  // held here: the caller's container may change under user code
        if (v.is_none()) { out += "null"; return; }
        if (v.kind == VK::Bool) { out += v.b ? "true" : "false"; return; }
        if (v.kind == VK::Int) { out += std::to_string(v.i); return; }
        if (v.kind == VK::Float) { out += float_text(v.f); return; }
        if (is_kind(v, OK::Str)) { escape_into(out, v.as<StrObj>()->s, ascii); return; }
        if (is_kind(v, OK::List) || is_kind(v, OK::Tuple)) {
            // A copy: default= may run user code that changes the list.
            const std::vector<Value> items = is_kind(v, OK::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items;
            if (items.empty()) { out += "[]"; return; }
            enter(v);
            out += '[';
            for (size_t k = 0; k < items.size(); ++k) {
                if (k) out += item_sep;
                if (indented) newline(out, depth + 1);
                encode(out, items[k], depth + 1);
            }
            if (indented) newline(out, depth);
            out += ']';
            stack.pop_back();
            return;
        }
        if (is_kind(v, OK::Dict)) {
            auto* d = v.as<DictObj>();
            std::vector<std::pair<Value, Value>> entries;
            for (const auto& e : d->table.entries)
                if (!e.key.is_undef()) entries.emplace_back(e.key, e.value);
            if (entries.empty()) { out += "{}"; return; }
            if (sort_keys) {
                std::vector<Value> keys;
                for (auto& [k, val] : entries) keys.push_back(k);
                sort_values(in, keys, nullptr, false);
                std::vector<std::pair<Value, Value>> sorted;
                for (const Value& k : keys) sorted.emplace_back(k, d->table.entries[size_t(d->table.find(in, k))].value);
                entries = std::move(sorted);
            }
            enter(v);
            out += '{';
            bool first = true;
            for (auto& [k, val] : entries) {
                std::optional<std::string> key = key_text(k);
                if (!key) continue;
                if (!first) out += item_sep;
                first = false;
                if (indented) newline(out, depth + 1);
                escape_into(out, *key, ascii);
                out += key_sep;
                encode(out, val, depth + 1);
            }
            if (indented) newline(out, depth);
            out += '}';
            stack.pop_back();
            return;
        }
        // A NumPy float64 scalar is a Python float (a subclass in NumPy); other objects go to default=.
        if (v.is_obj() && v.o->type->scalar && std::string(v.o->type->name) == "numpy.float64") {
            out += float_text(to_double(v.o->type->scalar(v), "dumps"));
            return;
        }
        if (!default_fn.is_undef() && !default_fn.is_none()) {
            enter(v);
            encode(out, in.call1(default_fn, v), depth);
            stack.pop_back();
            return;
        }
        std::string tn = type_name(v);
        if (size_t dot = tn.rfind('.'); dot != std::string::npos) tn = tn.substr(dot + 1);
        raise(types::TypeError, "Object of type " + tn + " is not JSON serializable");
    }
};

Value json_dumps(Interp& in, CallArgs& a) {
    expect_args(a, "dumps", 1, 1);
    Encoder e{in};
    for (size_t k = 0; k < a.nkw(); ++k) {
        const std::string& n = (*a.kw)[k].first;
        const Value& v = (*a.kw)[k].second;
        if (n == "ensure_ascii") e.ascii = truthy(v);
        else if (n == "allow_nan") e.allow_nan = truthy(v);
        else if (n == "sort_keys") e.sort_keys = truthy(v);
        else if (n == "skipkeys") e.skipkeys = truthy(v);
        else if (n == "default") e.default_fn = v;
        else if (n == "check_circular" || n == "cls") continue;
        else if (n == "indent") {
            if (v.is_none()) continue;
            e.indented = true;
            if (is_kind(v, OK::Str)) e.indent = v.as<StrObj>()->s;
            else e.indent = std::string(size_t(std::max<int64_t>(0, index_arg(v))), ' ');
        } else if (n == "separators") {
            if (v.is_none()) continue;
            std::vector<Value> seps = to_vector(in, v);
            if (seps.size() != 2) raise(types::ValueError, "too many values to unpack (expected 2)");
            e.item_sep = str_of(seps[0], "separators");
            e.key_sep = str_of(seps[1], "separators");
        } else {
            raise(types::TypeError, "dumps() got an unexpected keyword argument '" + n + "'");
        }
    }
    // With indent and no separators, CPython's item separator is "," (no trailing space).
    bool custom_seps = false;
    for (size_t k = 0; k < a.nkw(); ++k) custom_seps |= (*a.kw)[k].first == "separators" && !(*a.kw)[k].second.is_none();
    if (e.indented && !custom_seps) e.item_sep = ",";
    std::string out;
    e.encode(out, a[0], 0);
    return make_str(std::move(out));
}

// ---- loads ----

struct Decoder {
    Interp& in;
    std::string_view s;
    size_t i = 0;

    [[noreturn]] void fail(const std::string& msg, size_t pos) {
        size_t line = 1, col = 1;
        for (size_t k = 0; k < pos && k < s.size(); ++k) {
            if (s[k] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        // CPython counts columns in characters; positions are character indices too.
        const int64_t chars = count_code_points(s.substr(0, pos));
        int64_t colc = 1;
        for (size_t k = pos; k > 0 && s[k - 1] != '\n'; --k)
            if (!is_continuation(static_cast<unsigned char>(s[k - 1]))) ++colc;
        (void)col;
        raise(decode_error_type(), msg + ": line " + std::to_string(line) + " column " + std::to_string(colc) + " (char " + std::to_string(chars) + ")");
    }
    void ws() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
    }
    bool lit(const char* w) {
        const size_t n = std::strlen(w);
        if (s.compare(i, n, w) == 0) {
            i += n;
            return true;
        }
        return false;
    }
    Value string() {
        const size_t begin = i;  // at the opening quote
        ++i;
        std::string out;
        for (;;) {
            if (i >= s.size()) fail("Unterminated string starting at", begin);
            const unsigned char c = static_cast<unsigned char>(s[i]);
            if (c == '"') {
                ++i;
                return make_str(std::move(out));
            }
            if (c < 0x20) fail("Invalid control character at", i);
            if (c != '\\') {
                out += char(c);
                ++i;
                continue;
            }
            if (i + 1 >= s.size()) fail("Unterminated string starting at", begin);
            const char e = s[i + 1];
            i += 2;
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                auto hex4 = [&](size_t at) -> int {
                    if (at + 4 > s.size()) fail("Invalid \\uXXXX escape", at - 1);
                    int v = 0;
                    for (size_t k = at; k < at + 4; ++k) {
                        const char h = s[k];
                        v <<= 4;
                        if (h >= '0' && h <= '9') v |= h - '0';
                        else if (h >= 'a' && h <= 'f') v |= h - 'a' + 10;
                        else if (h >= 'A' && h <= 'F') v |= h - 'A' + 10;
                        else fail("Invalid \\uXXXX escape", at - 1);
                    }
                    return v;
                };
                char32_t cp = char32_t(hex4(i));
                i += 4;
                if (cp >= 0xd800 && cp < 0xdc00 && i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u') {
                    const int lo = hex4(i + 2);
                    if (lo >= 0xdc00 && lo < 0xe000) {
                        cp = 0x10000 + ((cp - 0xd800) << 10) + char32_t(lo - 0xdc00);
                        i += 6;
                    }
                }
                append_utf8(out, cp);
                break;
            }
            default: fail("Invalid \\escape", i - 2);
            }
        }
    }
    Value number() {
        const size_t begin = i;
        if (s[i] == '-') ++i;
        if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) {
            if (lit("Infinity")) return Value::real(-INFINITY);
            fail("Expecting value", begin);
        }
        if (s[i] == '0') ++i;
        else
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        bool is_float = false;
        if (i + 1 < s.size() && s[i] == '.' && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
            is_float = true;
            ++i;
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        }
        if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
            size_t j = i + 1;
            if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
            if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
                is_float = true;
                i = j;
                while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
            }
        }
        const std::string text(s.substr(begin, i - begin));
        if (is_float) return Value::real(std::strtod(text.c_str(), nullptr));
        errno = 0;
        const long long v = std::strtoll(text.c_str(), nullptr, 10);
        if (errno == ERANGE) raise(types::OverflowError, "JSON integer " + text + " does not fit in 64 bits (gpy's ints)");
        return Value::integer(v);
    }
    Value value(int depth) {
        if (depth > 1000) raise(types::RecursionError, "maximum recursion depth exceeded while decoding a JSON document");
        ws();
        if (i >= s.size()) fail("Expecting value", i);
        const char c = s[i];
        if (c == '"') return string();
        if (c == '{') {
            const size_t open = i;
            ++i;
            auto* d = new DictObj();
            Value r = Value::object(d);
            ws();
            if (i < s.size() && s[i] == '}') {
                ++i;
                return r;
            }
            for (;;) {
                ws();
                if (i >= s.size() || s[i] != '"') fail("Expecting property name enclosed in double quotes", i);
                Value k = string();
                ws();
                if (i >= s.size() || s[i] != ':') fail("Expecting ':' delimiter", i);
                ++i;
                Value v = value(depth + 1);
                d->table.set(in, k, v);
                ws();
                if (i < s.size() && s[i] == ',') {
                    ++i;
                    continue;
                }
                if (i < s.size() && s[i] == '}') {
                    ++i;
                    return r;
                }
                (void)open;
                fail("Expecting ',' delimiter", i);
            }
        }
        if (c == '[') {
            ++i;
            std::vector<Value> items;
            ws();
            if (i < s.size() && s[i] == ']') {
                ++i;
                return make_list({});
            }
            for (;;) {
                items.push_back(value(depth + 1));
                ws();
                if (i < s.size() && s[i] == ',') {
                    ++i;
                    continue;
                }
                if (i < s.size() && s[i] == ']') {
                    ++i;
                    return make_list(std::move(items));
                }
                fail("Expecting ',' delimiter", i);
            }
        }
        if (lit("true")) return Value::boolean(true);
        if (lit("false")) return Value::boolean(false);
        if (lit("null")) return Value::none();
        if (lit("NaN")) return Value::real(NAN);
        if (lit("Infinity")) return Value::real(INFINITY);
        if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) return number();
        fail("Expecting value", i);
    }
};

Value json_loads(Interp& in, CallArgs& a) {
    expect_args(a, "loads", 1, 1);
    if (!is_kind(a[0], OK::Str)) raise(types::TypeError, std::string("the JSON object must be str, bytes or bytearray, not ") + type_name(a[0]));
    Decoder d{in, a[0].as<StrObj>()->s};
    Value v = d.value(0);
    d.ws();
    if (d.i != d.s.size()) d.fail("Extra data", d.i);
    return v;
}

}  // namespace

ModuleObj* make_json(Interp&) {
    auto* m = new ModuleObj("json");
    m->doc = "JSON encoder and decoder (Python's json: dumps and loads).";
    stdlib_def(m, "dumps", json_dumps, "dumps(obj, *, skipkeys=False, ensure_ascii=True, allow_nan=True, indent=None, separators=None, default=None, sort_keys=False)",
               "Serialize obj to a JSON formatted str.");
    stdlib_def(m, "loads", json_loads, "loads(s)", "Deserialize s (a str instance containing a JSON document) to a Python object.");
    m->set("JSONDecodeError", Value::object(decode_error_type()));
    return m;
}

}  // namespace gpy
