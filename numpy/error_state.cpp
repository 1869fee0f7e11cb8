// np.geterr / np.seterr / np.errstate and
// np.printoptions: an interpreter's floating-point error modes and print
// options, read, set, and set for a `with` block. The modes are kept and
// reported as NumPy's; 'raise' raises NumPy's FloatingPointError from the
// ufunc that met the error (numpy/ufuncs.cpp), the other modes compute as
// 'ignore': gpy issues no warnings (docs/differences.md).
#include "numpy/array_state.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"

namespace gpy {

namespace {

constexpr const char* kErrKinds[4] = {"divide", "over", "under", "invalid"};

Value errstate_dict(Interp& in) {
    Value d = Value::object(new DictObj());
    for (int k = 0; k < 4; ++k) set_item(in, d, make_str(kErrKinds[k]), make_str(array_state(in).errstate[k]));
    return d;
}

std::string checked_mode(const Value& v) {
    const std::string& m = str_of(v, "mode");
    for (const char* ok : {"ignore", "warn", "raise", "call", "print", "log"})
        if (m == ok) return m;
    raise(types::ValueError, "invalid error mode '" + m + "'");
}

// Applies all=/divide=/over=/under=/invalid= keywords (checked first, so a
// bad one changes nothing).
void apply_errstate(Interp& in, CallArgs& a, const char* fname) {
    std::string modes[4];
    for (int k = 0; k < 4; ++k) modes[k] = array_state(in).errstate[k];
    if (const Value* all = kwarg(a, "all"); all && !all->is_none())
        for (auto& m : modes) m = checked_mode(*all);
    for (int k = 0; k < 4; ++k)
        if (const Value* v = kwarg(a, kErrKinds[k]); v && !v->is_none()) modes[k] = checked_mode(*v);
    (void)fname;
    for (int k = 0; k < 4; ++k) array_state(in).set_errstate(k, modes[k]);
}

Value np_geterr(Interp& in, CallArgs& a) {
    expect_args(a, "geterr", 0, 0);
    return errstate_dict(in);
}

Value np_seterr(Interp& in, CallArgs& a) {
    expect_args(a, "seterr", 0, 5);
    Value old = errstate_dict(in);
    apply_errstate(in, a, "seterr");
    return old;
}

// errstate(**kwargs): the modes to set while its `with` block runs.
struct ErrStateObj : Object {
    std::vector<std::pair<std::string, Value>> kw;
    std::vector<std::string> saved;
    using Object::Object;
};

TypeObject* errstate_type();

Value errstate_new(Interp& in, CallArgs& a) {
    if (a.npos > 0) raise(types::TypeError, "errstate() takes 0 positional arguments but " + std::to_string(a.npos) + " were given");
    auto* e = new ErrStateObj(errstate_type());
    if (a.kw)
        for (auto& [k, v] : *a.kw) {
            bool known = k == "all" || k == "call";
            for (const char* n : kErrKinds) known |= k == n;
            if (!known) raise(types::TypeError, "errstate.__init__() got an unexpected keyword argument '" + k + "'");
            e->kw.push_back({k, v});
        }
    return Value::object(e);
}

Value errstate_enter(Interp& in, CallArgs& a) {
    auto* e = a.pos[0].as<ErrStateObj>();
    e->saved.assign(array_state(in).errstate, array_state(in).errstate + 4);
    std::vector<std::pair<std::string, Value>> kw;
    for (auto& [k, v] : e->kw)
        if (k != "call") kw.push_back({k, v});
    CallArgs ca{nullptr, 0, &kw};
    apply_errstate(in, ca, "errstate");
    return Value::none();
}

Value errstate_exit(Interp& in, CallArgs& a) {
    auto* e = a.pos[0].as<ErrStateObj>();
    if (e->saved.size() == 4)
        for (int k = 0; k < 4; ++k) array_state(in).set_errstate(k, e->saved[size_t(k)]);
    return Value::boolean(false);
}

TypeObject* errstate_type() {
    static TypeObject* type = [] {
        auto* t = new TypeObject("numpy.errstate", nullptr, OK::Other);
        t->construct = errstate_new;
        def_method(t, "__enter__", errstate_enter, "__enter__()", "Sets the error modes for the block.");
        def_method(t, "__exit__", errstate_exit, "__exit__(*exc_info)", "Restores the modes from before the block.");
        return t;
    }();
    return type;
}

// ---- print options ----

// printoptions(**kwargs): set_printoptions for a `with` block.
struct PrintOptionsObj : Object {
    std::vector<std::pair<std::string, Value>> kw;
    PrintOptions saved;
    using Object::Object;
};

TypeObject* printoptions_type();

Value printoptions_new(Interp& in, CallArgs& a) {
    if (a.npos > 0) raise(types::TypeError, "printoptions() takes 0 positional arguments");
    auto* p = new PrintOptionsObj(printoptions_type());
    if (a.kw) p->kw = *a.kw;
    return Value::object(p);
}

Value printoptions_enter(Interp& in, CallArgs& a) {
    auto* p = a.pos[0].as<PrintOptionsObj>();
    p->saved = array_state(in).print;
    const Value* set = in.import_module("numpy")->get("set_printoptions");
    CallArgs ca{nullptr, 0, &p->kw};
    in.call(*set, ca);
    return np_get_printoptions(in, *std::make_unique<CallArgs>(CallArgs{nullptr, 0, nullptr}));
}

Value printoptions_exit(Interp& in, CallArgs& a) {
    array_state(in).print = a.pos[0].as<PrintOptionsObj>()->saved;
    return Value::boolean(false);
}

TypeObject* printoptions_type() {
    static TypeObject* type = [] {
        auto* t = new TypeObject("numpy.printoptions", nullptr, OK::Other);
        t->construct = printoptions_new;
        def_method(t, "__enter__", printoptions_enter, "__enter__()", "Sets the print options for the block.");
        def_method(t, "__exit__", printoptions_exit, "__exit__(*exc_info)", "Restores the options from before the block.");
        return t;
    }();
    return type;
}

}  // namespace

void add_error_state_functions(Interp&, ModuleObj* m) {
    m->set("geterr", make_builtin("geterr", np_geterr, "geterr()", "The current floating-point error modes."));
    m->set("seterr", make_builtin("seterr", np_seterr, "seterr(all=None, divide=None, over=None, under=None, invalid=None)",
                                  "Sets the floating-point error modes; returns the old ones."));
    m->set("errstate", Value::object(errstate_type()));
    m->set("printoptions", Value::object(printoptions_type()));
}

}  // namespace gpy
