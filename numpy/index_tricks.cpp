// np.mgrid, np.ogrid, np.r_, np.c_, np.s_ and np.index_exp: objects whose
// only job is x[key]. The object is native (the language has no classes);
// what a key means is numpy/py/index_tricks.py's _index_trick(kind, key).
#include <cstdio>

#include "numpy/module_parts.h"
#include "numpy/np_args.h"

namespace gpy {

namespace {

struct IndexTrickObj : Object {
    std::string kind;
    IndexTrickObj(TypeObject* t, std::string k) : Object(t), kind(std::move(k)) {}
};

Value trick_getitem(Interp& in, const Value& self, const Value& key) {
    const Value* f = in.import_module("numpy")->get("_index_trick");
    if (!f) raise(types::RuntimeError, "numpy._index_trick is missing");
    Value args[2] = {make_str(self.as<IndexTrickObj>()->kind), key};
    CallArgs ca{args, 2, nullptr};
    return in.call(*f, ca);
}

std::string trick_repr(Interp&, const Value& v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "<numpy index trick '%s' at 0x%llx>", v.as<IndexTrickObj>()->kind.c_str(),
                  (unsigned long long)(uintptr_t)v.o);
    return buf;
}

// One type for all six (process-wide, immutable once built).
TypeObject* trick_type() {
    static TypeObject* type = [] {
        auto* t = new TypeObject("numpy.IndexTrick", nullptr, OK::Other);
        t->getitem = trick_getitem;
        t->repr = trick_repr;
        return t;
    }();
    return type;
}

}  // namespace

void add_index_tricks(Interp&, ModuleObj* m) {
    for (const char* k : {"mgrid", "ogrid", "r_", "c_", "s_", "index_exp"})
        m->set(k, Value::object(new IndexTrickObj(trick_type(), k)));
}

}  // namespace gpy
