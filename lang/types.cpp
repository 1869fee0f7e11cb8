// The built-in type objects and the exception hierarchy.
#include <mutex>

#include "lang/interp.h"

namespace gpy {

TypeObject* TypeObject::types_object() { return types::object; }

TypeObject::TypeObject(std::string n, TypeObject* b, OK k)
    : Object(types::type), name(std::move(n)), base(b), kind(k) {
    make_immortal();
}

namespace types {

TypeObject *object, *type, *none, *boolean, *integer, *real, *complex, *str, *list, *tuple, *dict, *set, *function, *builtin,
    *method, *module, *range, *cell, *iterator, *dict_keys, *dict_values, *dict_items, *ellipsis, *slice;
TypeObject *BaseException, *Exception, *ArithmeticError, *ZeroDivisionError, *OverflowError, *LookupError,
    *IndexError, *KeyError, *ValueError, *TypeError, *NameError, *UnboundLocalError, *AttributeError, *ImportError,
    *ModuleNotFoundError, *RuntimeError, *RecursionError, *NotImplementedError, *MemoryError, *SystemError, *AssertionError,
    *KeyboardInterrupt, *SystemExit, *StopIteration, *GeneratorExit, *UnicodeError, *OSError, *FileNotFoundError, *FloatingPointError,
    *BufferError;

static std::vector<TypeObject*> g_exceptions;

const std::vector<TypeObject*>& all_exceptions() { return g_exceptions; }

static TypeObject* exc(const char* name, TypeObject* base, const char* doc) {
    auto* t = new TypeObject(name, base, OK::Exception);
    t->doc = doc;
    g_exceptions.push_back(t);
    return t;
}

void init() {
    static std::once_flag once;
    std::call_once(once, [] {
        // `type` is its own type: create it first, then fix up its header.
        type = new TypeObject("type", nullptr, OK::Type);
        type->type = type;
        auto mk = [](const char* n, OK k, TypeObject* base = nullptr) { return new TypeObject(n, base, k); };
        object = mk("object", OK::Other);
        none = mk("NoneType", OK::Other);
        integer = mk("int", OK::Other);
        boolean = mk("bool", OK::Other, integer);
        real = mk("float", OK::Other);
        complex = mk("complex", OK::Other);
        str = mk("str", OK::Str);
        list = mk("list", OK::List);
        tuple = mk("tuple", OK::Tuple);
        dict = mk("dict", OK::Dict);
        set = mk("set", OK::Set);
        function = mk("function", OK::Function);
        builtin = mk("builtin_function_or_method", OK::Builtin);
        method = mk("method", OK::BoundMethod);
        module = mk("module", OK::Module);
        range = mk("range", OK::Range);
        cell = mk("cell", OK::Cell);
        iterator = mk("iterator", OK::Iter);
        dict_keys = mk("dict_keys", OK::DictView);
        dict_values = mk("dict_values", OK::DictView);
        dict_items = mk("dict_items", OK::DictView);
        ellipsis = mk("ellipsis", OK::Other);
        ellipsis->repr = [](Interp&, const Value&) { return std::string("Ellipsis"); };
        slice = mk("slice", OK::Other);

        BaseException = exc("BaseException", nullptr, "Common base class for all exceptions");
        SystemExit = exc("SystemExit", BaseException, "Request to exit from the interpreter.");
        KeyboardInterrupt = exc("KeyboardInterrupt", BaseException, "Program interrupted by user.");
        Exception = exc("Exception", BaseException, "Common base class for all non-exit exceptions.");
        ArithmeticError = exc("ArithmeticError", Exception, "Base class for arithmetic errors.");
        ZeroDivisionError = exc("ZeroDivisionError", ArithmeticError, "Second argument to a division or modulo operation was zero.");
        OverflowError = exc("OverflowError", ArithmeticError, "Result too large to be represented.");
        LookupError = exc("LookupError", Exception, "Base class for lookup errors.");
        IndexError = exc("IndexError", LookupError, "Sequence index out of range.");
        KeyError = exc("KeyError", LookupError, "Mapping key not found.");
        ValueError = exc("ValueError", Exception, "Inappropriate argument value (of correct type).");
        UnicodeError = exc("UnicodeError", ValueError, "Unicode related error.");
        TypeError = exc("TypeError", Exception, "Inappropriate argument type.");
        NameError = exc("NameError", Exception, "Name not found globally.");
        UnboundLocalError = exc("UnboundLocalError", NameError, "Local name referenced but not bound to a value.");
        AttributeError = exc("AttributeError", Exception, "Attribute not found.");
        ImportError = exc("ImportError", Exception, "Import can't find module, or can't find name in module.");
        ModuleNotFoundError = exc("ModuleNotFoundError", ImportError, "Module not found.");
        RuntimeError = exc("RuntimeError", Exception, "Unspecified run-time error.");
        RecursionError = exc("RecursionError", RuntimeError, "Recursion limit exceeded.");
        NotImplementedError = exc("NotImplementedError", RuntimeError, "Method or function hasn't been implemented yet.");
        MemoryError = exc("MemoryError", Exception, "Out of memory.");
        SystemError = exc("SystemError", Exception, "Internal error in the Python interpreter.");
        AssertionError = exc("AssertionError", Exception, "Assertion failed.");
        StopIteration = exc("StopIteration", Exception, "Signal the end from iterator.__next__().");
        GeneratorExit = exc("GeneratorExit", BaseException, "Request that a generator exit.");
        OSError = exc("OSError", Exception, "Base class for I/O related errors.");
        FileNotFoundError = exc("FileNotFoundError", OSError, "File not found.");
        FloatingPointError = exc("FloatingPointError", ArithmeticError, "Floating-point operation failed.");
        BufferError = exc("BufferError", Exception, "Buffer error.");
        // The warning categories, so that scripts can name them (gpy issues none).
        TypeObject* warning = exc("Warning", Exception, "Base class for warning categories.");
        for (const char* w : {"UserWarning", "DeprecationWarning", "PendingDeprecationWarning", "SyntaxWarning", "RuntimeWarning",
                              "FutureWarning", "ImportWarning", "UnicodeWarning", "BytesWarning", "ResourceWarning"})
            exc(w, warning, "Base class for warnings of this category.");
        install_type_methods();
    });
}

}  // namespace types

TypeObject* type_of(const Value& v) {
    switch (v.kind) {
        case VK::Undef: case VK::None: return types::none;
        case VK::Bool: return types::boolean;
        case VK::Int: return types::integer;
        case VK::Float: return types::real;
        case VK::Obj: return v.o->type;
    }
    return types::none;
}

const char* type_name(const Value& v) { return type_of(v)->name.c_str(); }

bool isinstance(const Value& v, const TypeObject* t) { return type_of(v)->is_subtype_of(t); }

}  // namespace gpy
