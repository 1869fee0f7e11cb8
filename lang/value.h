// Value: what a gpy variable holds. Small scalars (None, bool, int, float) are
// stored inline so arithmetic never allocates; everything else is a
// reference-counted Object.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace gpy {

struct Object;
struct TypeObject;

enum class VK : uint8_t { Undef, None, Bool, Int, Float, Obj };

// Intrusive reference counting. Objects with refcount < 0 are immortal
// (process-wide type objects, shared constants): never counted, never freed,
// so interpreters on different threads can share them without races.
struct Object {
    int32_t refcount = 0;
    TypeObject* type;
    explicit Object(TypeObject* t) : type(t) {}
    virtual ~Object() = default;
    void make_immortal() { refcount = -1; }
};

// Frees an object whose count reached zero. Deeply nested containers are freed
// iteratively (a "trashcan" as in CPython), never by unbounded recursion.
void destroy(Object* o);

inline void incref(Object* o) { if (o->refcount >= 0) ++o->refcount; }
inline void decref(Object* o) {
    if (o->refcount > 0 && --o->refcount == 0) destroy(o);
}

class Value {
public:
    VK kind = VK::Undef;
    union {
        bool b;
        int64_t i;
        double f;
        Object* o;
    };

    Value() : i(0) {}
    static Value none() { Value v; v.kind = VK::None; return v; }
    static Value boolean(bool x) { Value v; v.kind = VK::Bool; v.i = 0; v.b = x; return v; }
    static Value integer(int64_t x) { Value v; v.kind = VK::Int; v.i = x; return v; }
    static Value real(double x) { Value v; v.kind = VK::Float; v.f = x; return v; }
    // Takes a new reference to `obj`.
    static Value object(Object* obj) { Value v; v.kind = VK::Obj; v.o = obj; incref(obj); return v; }

    Value(const Value& other) : kind(other.kind), i(other.i) { if (kind == VK::Obj) incref(o); }
    Value(Value&& other) noexcept : kind(other.kind), i(other.i) { other.kind = VK::Undef; }
    Value& operator=(const Value& other) {
        if (other.kind == VK::Obj) incref(other.o);
        if (kind == VK::Obj) decref(o);
        kind = other.kind;
        i = other.i;
        return *this;
    }
    Value& operator=(Value&& other) noexcept {
        if (this != &other) {
            if (kind == VK::Obj) decref(o);
            kind = other.kind;
            i = other.i;
            other.kind = VK::Undef;
        }
        return *this;
    }
    ~Value() { if (kind == VK::Obj) decref(o); }

    bool is_undef() const { return kind == VK::Undef; }
    bool is_none() const { return kind == VK::None; }
    bool is_bool() const { return kind == VK::Bool; }
    bool is_int() const { return kind == VK::Int; }
    bool is_float() const { return kind == VK::Float; }
    bool is_obj() const { return kind == VK::Obj; }
    // int or bool (bool is a subclass of int, as in Python)
    bool is_intlike() const { return kind == VK::Int || kind == VK::Bool; }
    bool is_number() const { return kind == VK::Int || kind == VK::Bool || kind == VK::Float; }
    int64_t as_int() const { return kind == VK::Bool ? int64_t(b) : i; }
    double as_float() const { return kind == VK::Float ? f : double(as_int()); }

    template <class O> O* as() const { return static_cast<O*>(o); }
};

// Owning pointer to an Object subclass.
template <class O>
class Ref {
public:
    Ref() = default;
    Ref(O* p) : p_(p) { if (p_) incref(p_); }
    Ref(const Ref& r) : p_(r.p_) { if (p_) incref(p_); }
    Ref(Ref&& r) noexcept : p_(r.p_) { r.p_ = nullptr; }
    Ref& operator=(Ref r) { std::swap(p_, r.p_); return *this; }
    ~Ref() { if (p_) decref(p_); }
    O* get() const { return p_; }
    O* operator->() const { return p_; }
    O& operator*() const { return *p_; }
    explicit operator bool() const { return p_ != nullptr; }
    Value value() const { return Value::object(p_); }
private:
    O* p_ = nullptr;
};

template <class O, class... Args>
Ref<O> make(Args&&... args) { return Ref<O>(new O(std::forward<Args>(args)...)); }

}  // namespace gpy
