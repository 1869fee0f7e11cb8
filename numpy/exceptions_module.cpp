// np.exceptions: NumPy's exception and warning classes (AxisError is the
// array module's own, raised by axis checks; the others exist so that
// scripts can name and catch them).
#include "numpy/array.h"
#include "numpy/module_parts.h"

namespace gpy {

namespace {

TypeObject* builtin_type(Interp& in, const char* name) {
    auto it = in.builtins.find(name);
    return it->second.as<TypeObject>();
}

}  // namespace

void add_exceptions_module(Interp& in, ModuleObj* m) {
    // Process-wide and immutable once made, like the builtin exception types.
    struct Types {
        TypeObject *promotion, *too_hard, *complex_warning, *rank_warning, *visible_deprecation, *module_deprecation;
    };
    static const Types t = [&] {
        auto make = [](const char* name, TypeObject* base, const char* doc) {
            auto* type = new TypeObject(name, base, OK::Exception);
            type->doc = doc;
            return type;
        };
        return Types{
            make("DTypePromotionError", types::TypeError, "Multiple DTypes could not be converted to a common one."),
            make("TooHardError", types::RuntimeError, "max_work was exceeded."),
            make("ComplexWarning", builtin_type(in, "RuntimeWarning"), "Casting a complex dtype to a real one discards its imaginary part."),
            make("RankWarning", builtin_type(in, "RuntimeWarning"), "Matrix is rank deficient."),
            make("VisibleDeprecationWarning", builtin_type(in, "UserWarning"), "Visible deprecation warning."),
            make("ModuleDeprecationWarning", builtin_type(in, "DeprecationWarning"), "Module deprecation warning."),
        };
    }();
    auto* e = new ModuleObj("numpy.exceptions");
    e->doc = "NumPy's exceptions and warnings.";
    e->set("AxisError", Value::object(types::AxisError));
    for (TypeObject* type : {t.promotion, t.too_hard, t.complex_warning, t.rank_warning, t.visible_deprecation, t.module_deprecation})
        e->set(type->name, Value::object(type));
    m->set("exceptions", Value::object(e));
}

}  // namespace gpy
