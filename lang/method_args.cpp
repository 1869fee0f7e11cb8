#include "lang/method_args.h"

#include "lang/interp.h"

namespace gpy::margs {

void type_error(std::string m) { raise(types::TypeError, std::move(m)); }
void value_error(std::string m) { raise(types::ValueError, std::move(m)); }
std::string plural_args(size_t n) { return n == 1 ? " argument" : " arguments"; }

void check_self(CallArgs& a, TypeObject* t, const char* name) {
    if (a.npos == 0) type_error("unbound method " + t->name + "." + name + "() needs an argument");
    if (!isinstance(a.pos[0], t))
        type_error(std::string("descriptor '") + name + "' for '" + t->name + "' objects doesn't apply to a '" +
                   type_name(a.pos[0]) + "' object");
}

static void no_keywords(CallArgs& a, TypeObject* t, const char* name) {
    if (a.nkw()) type_error(t->name + "." + name + "() takes no keyword arguments");
}

void noargs(CallArgs& a, TypeObject* t, const char* name) {
    check_self(a, t, name);
    no_keywords(a, t, name);
    if (a.npos != 1) type_error(t->name + "." + name + "() takes no arguments (" + std::to_string(a.npos - 1) + " given)");
}

void onearg(CallArgs& a, TypeObject* t, const char* name) {
    check_self(a, t, name);
    no_keywords(a, t, name);
    if (a.npos != 2)
        type_error(t->name + "." + name + "() takes exactly one argument (" + std::to_string(a.npos - 1) + " given)");
}

void clinic(CallArgs& a, TypeObject* t, const char* name, size_t mn, size_t mx, bool kw_ok) {
    check_self(a, t, name);
    if (!kw_ok) no_keywords(a, t, name);
    size_t n = a.npos - 1;
    if (n < mn)
        type_error(std::string(name) + " expected " + (mn == mx ? "" : "at least ") + std::to_string(mn) + plural_args(mn) + ", got " + std::to_string(n));
    if (n > mx)
        type_error(std::string(name) + " expected " + (mn == mx ? "" : "at most ") + std::to_string(mx) + plural_args(mx) + ", got " + std::to_string(n));
}

void tuple_style(CallArgs& a, TypeObject* t, const char* name, size_t mn, size_t mx) {
    check_self(a, t, name);
    no_keywords(a, t, name);
    size_t n = a.npos - 1;
    if (n < mn) type_error(std::string(name) + "() takes at least " + std::to_string(mn) + plural_args(mn) + " (" + std::to_string(n) + " given)");
    if (n > mx) type_error(std::string(name) + "() takes at most " + std::to_string(mx) + plural_args(mx) + " (" + std::to_string(n) + " given)");
}

void varargs(CallArgs& a, TypeObject* t, const char* name) {
    check_self(a, t, name);
    no_keywords(a, t, name);
}

void bind_args(CallArgs& a, TypeObject* t, const char* name, std::initializer_list<const char*> params, Value* out) {
    check_self(a, t, name);
    size_t np = params.size(), n = a.npos - 1;
    if (n + a.nkw() > np)
        type_error(std::string(name) + "() takes at most " + std::to_string(np) + plural_args(np) + " (" + std::to_string(n + a.nkw()) + " given)");
    for (size_t k = 0; k < n; ++k) out[k] = a.pos[k + 1];
    if (!a.kw) return;
    for (auto& [key, v] : *a.kw) {
        size_t k = 0;
        for (const char* p : params) {
            if (key == p) break;
            ++k;
        }
        if (k == np) type_error("'" + key + "' is an invalid keyword argument for " + name + "()");
        if (k < n)
            type_error(std::string("argument for ") + name + "() given by name ('" + key + "') and position (" + std::to_string(k + 1) + ")");
        out[k] = v;
    }
}

int64_t int_arg(const Value& v) {
    if (int64_t i; index_value(v, i)) return i;
    type_error(std::string("'") + type_name(v) + "' object cannot be interpreted as an integer");
}

}  // namespace gpy::margs
