// The heap objects behind Value: types, strings, containers, functions,
// modules, exceptions, iterators. Each has one C++ class and one TypeObject.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lang/source.h"
#include "lang/value.h"

namespace gpy {

class Interp;
struct CallArgs;
using NativeFn = Value (*)(Interp&, CallArgs&);

// Which C++ class an instance of a type is; lets hot paths switch instead of
// dynamic_cast.
enum class BinOp : uint8_t;
enum class UnOp : uint8_t;
enum class CmpOp : uint8_t;

enum class OK : uint8_t {
    Type, Str, List, Tuple, Dict, Set, Function, Builtin, BoundMethod, Module, Exception, Cell, Range, Iter,
    DictView, Array, DType, Other
};

struct TypeObject : Object {
    std::string name;
    TypeObject* base;
    // A second base for isinstance/issubclass only (NumPy's float64 is also a
    // float, complex128 a complex); its methods are not inherited.
    TypeObject* base2 = nullptr;
    OK kind;
    // Methods and class attributes (methods are BuiltinObj taking self first).
    std::unordered_map<std::string, Value> dict;
    NativeFn construct = nullptr;  // what calling the type does
    std::string doc;
    // Protocol slots for types defined outside lang/ (arrays, dtypes, and
    // later user classes). Each may be null; a binary/compare slot returns an
    // Undef Value when it does not handle the operands.
    Value (*binary)(Interp&, BinOp, const Value& a, const Value& b) = nullptr;
    Value (*unary)(Interp&, UnOp, const Value&) = nullptr;
    Value (*compare)(Interp&, CmpOp, const Value& a, const Value& b) = nullptr;
    bool (*truth)(const Value&) = nullptr;
    Value (*inplace)(Interp&, BinOp, const Value& a, const Value& b) = nullptr;  // a op= b, in place
    std::string (*repr)(Interp&, const Value&) = nullptr;
    std::string (*str)(Interp&, const Value&) = nullptr;
    Value (*getattr)(Interp&, const Value&, const std::string&) = nullptr;  // data attributes (before methods)
    void (*setattr)(Interp&, const Value&, const std::string&, Value) = nullptr;
    Value (*getitem)(Interp&, const Value&, const Value&) = nullptr;
    void (*setitem)(Interp&, const Value&, const Value&, Value) = nullptr;
    int64_t (*len)(Interp&, const Value&) = nullptr;
    Value (*iter)(Interp&, const Value&) = nullptr;
    bool (*equal)(Interp&, const Value& a, const Value& b) = nullptr;  // Python-level ==, for hashing types
    uint64_t (*hash)(Interp&, const Value&) = nullptr;
    // A Python int/float/bool for int(), float(), format(), indexing (0-d arrays, scalars).
    Value (*scalar)(const Value&) = nullptr;
    // Python's __index__: the integer an object stands for where only an
    // integer will do (range(), sequence indices and repetition, hex());
    // false when it has none (then "cannot be interpreted as an integer").
    bool (*index)(const Value&, int64_t& out) = nullptr;
    // __format__(spec), for types whose format differs from str() even
    // with an empty spec (f"{np.float32(0.1)}" formats the Python float).
    std::string (*format)(Interp&, const Value&, std::string_view spec) = nullptr;
    // Called when a value is bound to a variable (arrays compute their pending value then).
    void (*on_bind)(const Value&) = nullptr;
    // A class a `class` statement made (lang/classes.cpp): its bases, its
    // method resolution order (itself first, C3), its qualified name and
    // module. Built-in types have no mro: their base chain is one.
    bool heap = false;
    std::vector<TypeObject*> bases, mro;
    std::vector<TypeObject*> subclasses;  // the classes naming it as a base (__subclasses__)
    std::string qualname, module_name;
    Interp* interp = nullptr;  // the interpreter whose class statement made it (slots without an Interp argument)
    TypeObject(std::string n, TypeObject* b, OK k);
    bool is_subtype_of(const TypeObject* other) const {
        if (other == types_object()) return true;
        if (!mro.empty()) {
            for (const TypeObject* t : mro)
                if (t == other || (t->base2 && t->base2->is_subtype_of(other))) return true;
            return false;
        }
        for (const TypeObject* t = this; t; t = t->base)
            if (t == other || (t->base2 && t->base2->is_subtype_of(other))) return true;
        return false;
    }
    const Value* lookup(const std::string& attr) const {
        if (!mro.empty()) {
            for (const TypeObject* t : mro) {
                auto it = t->dict.find(attr);
                if (it != t->dict.end()) return &it->second;
            }
            return nullptr;
        }
        for (const TypeObject* t = this; t; t = t->base) {
            auto it = t->dict.find(attr);
            if (it != t->dict.end()) return &it->second;
        }
        return nullptr;
    }
    static TypeObject* types_object();  // `object`, every class's base (lang/types.cpp)
};

// The process-wide built-in types (immortal, immutable after init_types()).
namespace types {
extern TypeObject *object, *type, *none, *boolean, *integer, *real, *complex, *str, *list, *tuple, *dict, *set, *function,
    *builtin, *method, *module, *range, *cell, *iterator, *dict_keys, *dict_values, *dict_items, *ellipsis,
    *slice;
// Exceptions
extern TypeObject *BaseException, *Exception, *ArithmeticError, *ZeroDivisionError, *OverflowError, *LookupError,
    *IndexError, *KeyError, *ValueError, *TypeError, *NameError, *UnboundLocalError, *AttributeError, *ImportError,
    *ModuleNotFoundError, *RuntimeError, *RecursionError, *NotImplementedError, *MemoryError, *SystemError, *AssertionError,
    *KeyboardInterrupt, *SystemExit, *StopIteration, *GeneratorExit, *UnicodeError, *OSError, *FileNotFoundError, *FloatingPointError,
    *BufferError;
void init();  // idempotent, thread-safe
const std::vector<TypeObject*>& all_exceptions();
}  // namespace types

TypeObject* type_of(const Value& v);
inline bool is_kind(const Value& v, OK k) { return v.is_obj() && v.o->type->kind == k; }

struct StrObj : Object {
    std::string s;
    mutable int64_t hash = -1;
    explicit StrObj(std::string str) : Object(types::str), s(std::move(str)) {}
    bool ascii() const {
        for (unsigned char c : s)
            if (c >= 0x80) return false;
        return true;
    }
};

struct ListObj : Object {
    std::vector<Value> items;
    ListObj() : Object(types::list) {}
    explicit ListObj(std::vector<Value> v) : Object(types::list), items(std::move(v)) {}
};

struct TupleObj : Object {
    std::vector<Value> items;
    TupleObj() : Object(types::tuple) {}
    explicit TupleObj(std::vector<Value> v) : Object(types::tuple), items(std::move(v)) {}
};

// Insertion-ordered hash table shared by dict and set. Keys are compared with
// Python equality (1 == 1.0 == True) and hashed consistently with it.
struct HashTable {
    struct Entry {
        Value key, value;  // key is Undef for a deleted entry
        uint64_t hash;
    };
    std::vector<Entry> entries;
    std::vector<int32_t> slots;  // -1 empty, -2 tombstone, else index into entries
    size_t live = 0;

    // Index of the entry holding `key`, or -1. May raise (unhashable key).
    long find(Interp& in, const Value& key) const;
    // Inserts or overwrites; returns the entry index.
    size_t set(Interp& in, const Value& key, Value value);
    bool erase(Interp& in, const Value& key);
    void clear() { entries.clear(); slots.clear(); live = 0; }

private:
    long probe(Interp& in, const Value& key, uint64_t h, bool for_insert, long* insert_slot) const;
    void rebuild(size_t capacity);
};

struct DictObj : Object {
    HashTable table;
    DictObj() : Object(types::dict) {}
};

struct SetObj : Object {
    HashTable table;
    SetObj() : Object(types::set) {}
};

// The arguments of a call: positional values, then keyword (name, value) pairs.
struct CallArgs {
    Value* pos = nullptr;
    size_t npos = 0;
    std::vector<std::pair<std::string, Value>>* kw = nullptr;
    size_t nkw() const { return kw ? kw->size() : 0; }
    const Value& operator[](size_t k) const { return pos[k]; }
};

struct BuiltinObj : Object {
    std::string name;
    NativeFn fn;
    std::string signature;  // e.g. "len(obj, /)"
    std::string doc;        // one line
    Value bound;            // for natively bound methods (e.g. rng.random): prepended as pos[0]
    // Set by check_keywords_from_signature: the keyword names the signature
    // lists, and a call with any other keyword raises TypeError before fn runs
    // (so an unsupported out= or dtype= is never silently ignored).
    bool checks_keywords = false;
    std::vector<std::string> keywords;
    BuiltinObj(std::string n, NativeFn f, std::string sig, std::string d)
        : Object(types::builtin), name(std::move(n)), fn(f), signature(std::move(sig)), doc(std::move(d)) {}
};

// Turns on b's keyword check from its signature text; a signature with
// `**kwargs` or `...` (or none) accepts any keyword and stays unchecked.
void check_keywords_from_signature(BuiltinObj* b);
// Raises "NAME() got an unexpected keyword argument 'K'" for a keyword that
// b's signature does not list.
void reject_unknown_keywords(const BuiltinObj* b, const CallArgs& a);

struct BoundMethodObj : Object {
    Value self, func;
    BoundMethodObj(Value s, Value f) : Object(types::method), self(std::move(s)), func(std::move(f)) {}
};

struct CellObj : Object {
    Value value;
    CellObj() : Object(types::cell) {}
};

struct FuncInfo;  // AST-side description of a def / lambda
struct ModuleObj;

struct FunctionObj : Object {
    const FuncInfo* info;
    std::vector<Value> defaults;  // one per parameter that has a default, in order
    std::vector<Ref<CellObj>> closure;
    ModuleObj* module;            // its globals (not owned: modules outlive functions)
    TypeObject* owner = nullptr;  // the class whose body defined it (super() starts after it)
    FunctionObj(const FuncInfo* i, ModuleObj* m) : Object(types::function), info(i), module(m) {}
};

struct ModuleObj : Object {
    std::string name;
    std::vector<Value> values;  // global slots; Undef = not yet bound
    std::unordered_map<std::string, int> index;
    std::vector<std::string> names;
    std::string doc;
    explicit ModuleObj(std::string n) : Object(types::module), name(std::move(n)) {}
    int slot(const std::string& n) {
        auto it = index.find(n);
        if (it != index.end()) return it->second;
        int k = int(values.size());
        index.emplace(n, k);
        names.push_back(n);
        values.emplace_back();
        return k;
    }
    const Value* get(const std::string& n) const {
        auto it = index.find(n);
        if (it == index.end() || values[it->second].is_undef()) return nullptr;
        return &values[it->second];
    }
    void set(const std::string& n, Value v) { values[slot(n)] = std::move(v); }
};

struct TraceEntry {
    Span span;
    std::string function;
};

// An instance's attributes, in the order they were first set (a few: a
// vector searched in order beats hashing).
struct AttrDict {
    std::vector<std::pair<std::string, Value>> items;
    Value* find(const std::string& name) {
        for (auto& [k, v] : items)
            if (k == name) return &v;
        return nullptr;
    }
    void set(const std::string& name, Value v) {
        if (Value* slot = find(name)) *slot = std::move(v);
        else items.emplace_back(name, std::move(v));
    }
    bool erase(const std::string& name) {
        for (size_t i = 0; i < items.size(); ++i)
            if (items[i].first == name) {
                items.erase(items.begin() + ptrdiff_t(i));
                return true;
            }
        return false;
    }
};

// An instance of a class a `class` statement made (unless it derives from an
// exception: then an ExceptionObj).
struct InstanceObj : Object {
    AttrDict attrs;
    // Once the program asks for obj.__dict__, the attributes move into this
    // dict (so writes through it are the object's): a DictObj, else Undef.
    Value dict;
    explicit InstanceObj(TypeObject* t) : Object(t) {}
};

struct ExceptionObj : Object {
    Value args;  // a tuple
    AttrDict attrs;  // an instance of a user exception class: its attributes
    std::vector<TraceEntry> traceback;  // innermost first
    // The frame that already recorded where the exception passed through it
    // (set when a `try` in that frame first sees it), so re-raising keeps the
    // original line instead of the handler's.
    const void* noted_frame = nullptr;
    explicit ExceptionObj(TypeObject* t) : Object(t) {}
    std::string message() const;  // str(e)
};

struct RangeObj : Object {
    int64_t start, stop, step;
    RangeObj(int64_t a, int64_t b, int64_t s) : Object(types::range), start(a), stop(b), step(s) {}
    // The number of elements; up to 2^64 - 1 (range(-2**63, 2**63 - 1)).
    uint64_t count() const;
    // count() for len() and indexing: OverflowError past int64, as CPython's ssize_t.
    int64_t length() const;
};

// Lazy iterators (list_iterator, enumerate, zip, map, ...).
struct IterObj : Object {
    explicit IterObj(TypeObject* t = types::iterator) : Object(t) {}
    virtual bool next(Interp& in, Value& out) = 0;
    virtual const char* type_name() const { return "iterator"; }
};

struct SliceObj : Object {
    Value start, stop, step;  // None where omitted
    SliceObj(Value a, Value b, Value c) : Object(types::slice), start(std::move(a)), stop(std::move(b)), step(std::move(c)) {}
    // Python's slice.indices(): clamps to a sequence of length n.
    void indices(int64_t n, int64_t& begin, int64_t& end, int64_t& stride, int64_t& count) const;
};

// Python's complex: two doubles (lang/complex.cpp holds its operations).
struct ComplexObj : Object {
    double re, im;
    ComplexObj(double r, double i) : Object(types::complex), re(r), im(i) {}
};
inline ComplexObj* as_complex(const Value& v) { return v.is_obj() && v.o->type == types::complex ? v.as<ComplexObj>() : nullptr; }

struct DictViewObj : Object {
    Ref<DictObj> dict;
    int which;  // 0 keys, 1 values, 2 items
    DictViewObj(DictObj* d, int w)
        : Object(w == 0 ? types::dict_keys : w == 1 ? types::dict_values : types::dict_items), dict(d), which(w) {}
};

// Thrown (as a C++ exception) to raise a gpy exception.
struct GpyError {
    Value exc;  // an ExceptionObj
    ExceptionObj* obj() const { return exc.as<ExceptionObj>(); }
};

[[noreturn]] void raise(TypeObject* type, std::string message);
Value make_exception(TypeObject* type, std::string message);

// Constructors for common values.
Value make_str(std::string s);
Value make_list(std::vector<Value> items = {});
Value make_tuple(std::vector<Value> items = {});
// A named tuple type (Python's collections.namedtuple, NumPy's result
// tuples such as EighResult): a tuple whose fields are also attributes and
// whose repr names them. Immortal; make one per name and keep it.
TypeObject* make_named_tuple_type(const std::string& name, const std::vector<std::string>& fields);
Value make_named_tuple(TypeObject* type, std::vector<Value> items);
Value make_builtin(std::string name, NativeFn fn, std::string sig, std::string doc);
Value make_complex(double re, double im);  // lang/complex.cpp

}  // namespace gpy
