// x.flags: NumPy's flagsobj (attribute and item access, repr), a snapshot of
// the array's memory layout taken when the attribute is read.
#include <optional>

#include "numpy/shape_funcs.h"

namespace gpy {

namespace {

TypeObject* g_flags_type = nullptr;

struct FlagsObj : Object {
    bool c, f, owndata;
    FlagsObj(bool c_, bool f_, bool own) : Object(g_flags_type), c(c_), f(f_), owndata(own) {}
};

// gpy has no read-only arrays and allocates every buffer aligned.
constexpr bool kWriteable = true, kAligned = true;

// The flag named `key` (an attribute name or a dictionary key); nullopt if unknown.
std::optional<bool> flag(const FlagsObj* x, const std::string& key, bool attribute) {
    struct Entry {
        const char* attr;       // nullptr: no attribute of that name
        const char* keys[3];    // dictionary keys
        bool value;
    };
    bool behaved = kAligned && kWriteable;
    const Entry entries[] = {
        {"c_contiguous", {"C_CONTIGUOUS", "C", "CONTIGUOUS"}, x->c},
        {"contiguous", {}, x->c},
        {"f_contiguous", {"F_CONTIGUOUS", "F", "FORTRAN"}, x->f},
        {"fortran", {}, x->f},
        {"owndata", {"OWNDATA", "O"}, x->owndata},
        {"writeable", {"WRITEABLE", "W"}, kWriteable},
        {"aligned", {"ALIGNED", "A"}, kAligned},
        {"writebackifcopy", {"WRITEBACKIFCOPY", "X"}, false},
        {"fnc", {"FNC"}, x->f && !x->c},
        {"forc", {"FORC"}, x->f || x->c},
        {"behaved", {"BEHAVED", "B"}, behaved},
        {"carray", {"CARRAY", "CA"}, behaved && x->c},
        {"farray", {"FARRAY", "FA"}, behaved && x->f && !x->c},
    };
    for (const Entry& e : entries) {
        if (attribute) {
            if (key == e.attr) return e.value;
            continue;
        }
        for (const char* k : e.keys)
            if (k && key == k) return e.value;
    }
    return std::nullopt;
}

std::string flags_repr(Interp&, const Value& v) {
    auto* x = v.as<FlagsObj>();
    auto line = [](const char* name, bool b) { return std::string("  ") + name + " : " + (b ? "True" : "False") + "\n"; };
    return line("C_CONTIGUOUS", x->c) + line("F_CONTIGUOUS", x->f) + line("OWNDATA", x->owndata) +
           line("WRITEABLE", kWriteable) + line("ALIGNED", kAligned) + line("WRITEBACKIFCOPY", false);
}

Value flags_getattr(Interp&, const Value& v, const std::string& name) {
    auto b = flag(v.as<FlagsObj>(), name, true);
    return b ? Value::boolean(*b) : Value();
}

Value flags_getitem(Interp&, const Value& v, const Value& key) {
    std::optional<bool> b;
    if (is_kind(key, OK::Str)) b = flag(v.as<FlagsObj>(), key.as<StrObj>()->s, false);
    if (!b) raise(types::KeyError, "Unknown flag");
    return Value::boolean(*b);
}

}  // namespace

void install_flags_type() {
    g_flags_type = new TypeObject("numpy._core.multiarray.flagsobj", nullptr, OK::Other);
    g_flags_type->doc = "Information about the memory layout of the array.";
    g_flags_type->repr = flags_repr;
    g_flags_type->str = flags_repr;
    g_flags_type->getattr = flags_getattr;
    g_flags_type->getitem = flags_getitem;
}

Value array_flags(ArrayObj* x) {
    materialize(x);  // a pending result has no layout yet
    return Value::object(new FlagsObj(is_c_contiguous(x), is_f_contiguous(x), x->owndata));
}

}  // namespace gpy
