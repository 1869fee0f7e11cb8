// Python's itertools, natively: lazy iterator objects (IterObj) with
// CPython 3.11's semantics, argument checks and error messages.
#include <algorithm>
#include <deque>
#include <memory>

#include "lang/interp.h"
#include "lang/stdlib_modules.h"

namespace gpy {

namespace {

Value tuple_of(const std::vector<Value>& pool, const std::vector<size_t>& idx, size_t r) {
    std::vector<Value> items(r);
    for (size_t k = 0; k < r; ++k) items[k] = pool[idx[k]];
    return make_tuple(std::move(items));
}

// r= of combinatoric iterators: None (the pool's size) or a non-negative int.
size_t r_arg(const Value* v, size_t n, const char* fname) {
    if (!v || v->is_none()) return n;
    if (!v->is_intlike()) raise(types::TypeError, std::string("Expected int as r"));
    if (v->as_int() < 0) raise(types::ValueError, "r must be non-negative");
    (void)fname;
    return size_t(v->as_int());
}

struct CountIter : IterObj {
    Value n, step;
    bool next(Interp& in, Value& out) override {
        out = n;
        n = binary_op(in, BinOp::Add, n, step);
        return true;
    }
    const char* type_name() const override { return "itertools.count"; }
};

struct CycleIter : IterObj {
    Value it;
    std::vector<Value> saved;
    size_t at = 0;
    bool exhausted = false;
    bool next(Interp& in, Value& out) override {
        if (!exhausted) {
            if (iter_next(in, it, out)) {
                saved.push_back(out);
                return true;
            }
            exhausted = true;
        }
        if (saved.empty()) return false;
        out = saved[at];
        at = (at + 1) % saved.size();
        return true;
    }
    const char* type_name() const override { return "itertools.cycle"; }
};

struct RepeatIter : IterObj {
    Value v;
    int64_t left = -1;  // -1: forever
    bool next(Interp&, Value& out) override {
        if (left == 0) return false;
        if (left > 0) --left;
        out = v;
        return true;
    }
    const char* type_name() const override { return "itertools.repeat"; }
};

struct AccumulateIter : IterObj {
    Value it, fn, total;
    bool started = false;
    bool next(Interp& in, Value& out) override {
        if (!started && !total.is_undef()) {  // initial=
            started = true;
            out = total;
            return true;
        }
        Value item;
        if (!iter_next(in, it, item)) return false;
        if (!started && total.is_undef()) total = item;
        else if (fn.is_none()) total = binary_op(in, BinOp::Add, total, item);
        else {
            Value args[2] = {total, item};
            CallArgs c{args, 2, nullptr};
            total = in.call(fn, c);
        }
        started = true;
        out = total;
        return true;
    }
    const char* type_name() const override { return "itertools.accumulate"; }
};

struct ChainIter : IterObj {
    Value sources;  // an iterator of iterables
    Value current;
    bool next(Interp& in, Value& out) override {
        for (;;) {
            if (!current.is_undef() && iter_next(in, current, out)) return true;
            Value src;
            if (!iter_next(in, sources, src)) return false;
            current = get_iter(in, src);
        }
    }
    const char* type_name() const override { return "itertools.chain"; }
};

struct CompressIter : IterObj {
    Value data, selectors;
    bool next(Interp& in, Value& out) override {
        Value d, s;
        while (iter_next(in, data, d) && iter_next(in, selectors, s))
            if (truthy(s)) {
                out = d;
                return true;
            }
        return false;
    }
    const char* type_name() const override { return "itertools.compress"; }
};

struct WhileIter : IterObj {
    Value pred, it;
    bool take;          // takewhile (else dropwhile)
    bool done = false;  // takewhile: stopped; dropwhile: dropping over
    WhileIter(Value p, Value i, bool t) : pred(std::move(p)), it(std::move(i)), take(t) {}
    bool next(Interp& in, Value& out) override {
        if (take) {
            if (done || !iter_next(in, it, out)) return false;
            if (truthy(in.call1(pred, out))) return true;
            done = true;
            return false;
        }
        while (iter_next(in, it, out)) {
            if (done || !truthy(in.call1(pred, out))) {
                done = true;
                return true;
            }
        }
        return false;
    }
    const char* type_name() const override { return take ? "itertools.takewhile" : "itertools.dropwhile"; }
};

struct FilterFalseIter : IterObj {
    Value pred, it;
    bool next(Interp& in, Value& out) override {
        while (iter_next(in, it, out))
            if (!truthy(pred.is_none() ? out : in.call1(pred, out))) return true;
        return false;
    }
    const char* type_name() const override { return "itertools.filterfalse"; }
};

// groupby: the groups share the source iterator, as CPython's: moving the
// groupby on leaves the previous group empty.
struct GroupByState {
    Value it, key;
    Value curr_key, curr_value;  // the next unconsumed element (Undef: none read)
    bool exhausted = false;
    uint64_t generation = 0;  // which group is current
    bool advance(Interp& in) {
        if (exhausted) return false;
        Value v;
        if (!iter_next(in, it, v)) {
            exhausted = true;
            curr_value = Value();
            return false;
        }
        curr_value = v;
        curr_key = key.is_none() ? v : in.call1(key, v);
        return true;
    }
};

struct GrouperIter : IterObj {
    std::shared_ptr<GroupByState> s;
    Value tgt_key;
    uint64_t generation;
    bool next(Interp& in, Value& out) override {
        if (s->generation != generation) return false;
        if (s->curr_value.is_undef() && !s->advance(in)) return false;
        if (!values_equal(in, s->curr_key, tgt_key)) return false;
        out = s->curr_value;
        s->curr_value = Value();
        return true;
    }
    const char* type_name() const override { return "itertools._grouper"; }
};

struct GroupByIter : IterObj {
    std::shared_ptr<GroupByState> s = std::make_shared<GroupByState>();
    Value tgt_key;
    bool started = false;
    bool next(Interp& in, Value& out) override {
        // Skip what is left of the current group.
        for (;;) {
            if (s->curr_value.is_undef() && !s->advance(in)) return false;
            if (!started || !values_equal(in, s->curr_key, tgt_key)) break;
            s->curr_value = Value();
        }
        started = true;
        tgt_key = s->curr_key;
        ++s->generation;
        auto* g = new GrouperIter();
        Value group = Value::object(g);
        g->s = s;
        g->tgt_key = tgt_key;
        g->generation = s->generation;
        out = make_tuple({tgt_key, group});
        return true;
    }
    const char* type_name() const override { return "itertools.groupby"; }
};

struct ISliceIter : IterObj {
    Value it;
    int64_t next_index, stop, step;  // stop -1: none
    int64_t at = 0;
    bool next(Interp& in, Value& out) override {
        if (stop >= 0 && next_index >= stop) return false;
        while (at < next_index) {
            Value skip;
            if (!iter_next(in, it, skip)) return false;
            ++at;
        }
        if (!iter_next(in, it, out)) return false;
        ++at;
        next_index += step;
        if (stop >= 0 && next_index > stop) next_index = stop;
        return true;
    }
    const char* type_name() const override { return "itertools.islice"; }
};

struct PairwiseIter : IterObj {
    Value it, prev;
    bool next(Interp& in, Value& out) override {
        if (prev.is_undef() && !iter_next(in, it, prev)) return false;
        Value cur;
        if (!iter_next(in, it, cur)) return false;
        out = make_tuple({prev, cur});
        prev = cur;
        return true;
    }
    const char* type_name() const override { return "itertools.pairwise"; }
};

struct StarmapIter : IterObj {
    Value fn, it;
    bool next(Interp& in, Value& out) override {
        Value args;
        if (!iter_next(in, it, args)) return false;
        std::vector<Value> v = to_vector(in, args);
        CallArgs c{v.data(), v.size(), nullptr};
        out = in.call(fn, c);
        return true;
    }
    const char* type_name() const override { return "itertools.starmap"; }
};

struct TeeData {
    Value it;
    std::deque<Value> buffer;  // items some tee has not read yet
    uint64_t first = 0;        // the index of buffer.front()
    std::vector<uint64_t*> positions;
};

struct TeeIter : IterObj {
    std::shared_ptr<TeeData> d;
    uint64_t pos = 0;
    ~TeeIter() override {
        if (d) d->positions.erase(std::remove(d->positions.begin(), d->positions.end(), &pos), d->positions.end());
    }
    bool next(Interp& in, Value& out) override {
        if (pos - d->first < d->buffer.size()) {
            out = d->buffer[size_t(pos - d->first)];
        } else {
            if (!iter_next(in, d->it, out)) return false;
            d->buffer.push_back(out);
        }
        ++pos;
        // Drop what every tee has read.
        uint64_t low = pos;
        for (uint64_t* p : d->positions) low = std::min(low, *p);
        while (d->first < low && !d->buffer.empty()) {
            d->buffer.pop_front();
            ++d->first;
        }
        return true;
    }
    const char* type_name() const override { return "itertools._tee"; }
};

struct ZipLongestIter : IterObj {
    std::vector<Value> its;
    std::vector<bool> done;
    size_t live;
    Value fill;
    bool next(Interp& in, Value& out) override {
        if (live == 0) return false;
        std::vector<Value> items(its.size());
        for (size_t k = 0; k < its.size(); ++k) {
            if (done[k] || !iter_next(in, its[k], items[k])) {
                if (!done[k]) {
                    done[k] = true;
                    if (--live == 0) return false;
                }
                items[k] = fill;
            }
        }
        out = make_tuple(std::move(items));
        return true;
    }
    const char* type_name() const override { return "itertools.zip_longest"; }
};

struct ProductIter : IterObj {
    std::vector<std::vector<Value>> pools;
    std::vector<size_t> idx;
    bool first = true, done = false;
    bool next(Interp&, Value& out) override {
        if (done) return false;
        if (first) {
            first = false;
            for (auto& p : pools)
                if (p.empty()) {
                    done = true;
                    return false;
                }
            idx.assign(pools.size(), 0);
        } else {
            size_t k = pools.size();
            while (k > 0) {
                --k;
                if (++idx[k] < pools[k].size()) break;
                idx[k] = 0;
                if (k == 0) {
                    done = true;
                    return false;
                }
            }
            if (pools.empty()) {
                done = true;
                return false;
            }
        }
        std::vector<Value> items(pools.size());
        for (size_t k = 0; k < pools.size(); ++k) items[k] = pools[k][idx[k]];
        out = make_tuple(std::move(items));
        return true;
    }
    const char* type_name() const override { return "itertools.product"; }
};

// permutations, combinations and combinations_with_replacement, as the
// algorithms itertools' documentation gives.
struct CombinatoricIter : IterObj {
    enum Kind { Permutations, Combinations, WithReplacement } kind;
    std::vector<Value> pool;
    size_t r;
    std::vector<size_t> idx, cycles;
    bool first = true, done = false;
    bool next(Interp&, Value& out) override {
        const size_t n = pool.size();
        if (done) return false;
        if (first) {
            first = false;
            if ((kind != WithReplacement && r > n) || (kind == WithReplacement && n == 0 && r > 0)) {
                done = true;
                return false;
            }
            if (kind == Permutations) {
                idx.resize(n);
                for (size_t k = 0; k < n; ++k) idx[k] = k;
                cycles.resize(r);
                for (size_t k = 0; k < r; ++k) cycles[k] = n - k;
            } else if (kind == Combinations) {
                idx.resize(r);
                for (size_t k = 0; k < r; ++k) idx[k] = k;
            } else {
                idx.assign(r, 0);
            }
            out = tuple_of(pool, idx, r);
            return true;
        }
        if (kind == Permutations) {
            for (size_t i = r; i-- > 0;) {
                if (--cycles[i] == 0) {
                    std::rotate(idx.begin() + long(i), idx.begin() + long(i) + 1, idx.end());
                    cycles[i] = n - i;
                } else {
                    std::swap(idx[i], idx[n - cycles[i]]);
                    out = tuple_of(pool, idx, r);
                    return true;
                }
            }
        } else if (kind == Combinations) {
            for (size_t i = r; i-- > 0;) {
                if (idx[i] != i + n - r) {
                    ++idx[i];
                    for (size_t j = i + 1; j < r; ++j) idx[j] = idx[j - 1] + 1;
                    out = tuple_of(pool, idx, r);
                    return true;
                }
            }
        } else {
            for (size_t i = r; i-- > 0;) {
                if (idx[i] != n - 1) {
                    const size_t v = idx[i] + 1;
                    for (size_t j = i; j < r; ++j) idx[j] = v;
                    out = tuple_of(pool, idx, r);
                    return true;
                }
            }
        }
        done = true;
        return false;
    }
    const char* type_name() const override {
        return kind == Permutations ? "itertools.permutations" : kind == Combinations ? "itertools.combinations" : "itertools.combinations_with_replacement";
    }
};

template <class T>
Value wrap(T* it) {
    return Value::object(it);
}

Value it_count(Interp&, CallArgs& a) {
    expect_args(a, "count", 0, 2);
    auto* c = new CountIter();
    const Value* start = stdlib_arg(a, 0, "start");
    const Value* step = stdlib_arg(a, 1, "step");
    c->n = start ? *start : Value::integer(0);
    c->step = step ? *step : Value::integer(1);
    for (const Value* v : {&c->n, &c->step})
        if (!v->is_number()) raise(types::TypeError, "a number is required");
    return wrap(c);
}

Value it_cycle(Interp& in, CallArgs& a) {
    expect_args(a, "cycle", 1, 1);
    no_kwargs(a, "cycle");
    auto* c = new CycleIter();
    Value keep = wrap(c);
    c->it = get_iter(in, a[0]);
    return keep;
}

Value it_repeat(Interp&, CallArgs& a) {
    expect_args(a, "repeat", 1, 2);
    auto* r = new RepeatIter();
    Value keep = wrap(r);
    r->v = stdlib_need(a, 0, "object", "repeat");
    if (const Value* t = stdlib_arg(a, 1, "times")) r->left = std::max<int64_t>(0, index_arg(*t));
    return keep;
}

Value it_accumulate(Interp& in, CallArgs& a) {
    expect_args(a, "accumulate", 1, 2);
    auto* r = new AccumulateIter();
    Value keep = wrap(r);
    r->it = get_iter(in, stdlib_need(a, 0, "iterable", "accumulate"));
    const Value* f = stdlib_arg(a, 1, "func");
    r->fn = f ? *f : Value::none();
    if (const Value* init = kwarg(a, "initial"); init && !init->is_none()) r->total = *init;
    return keep;
}

Value it_chain(Interp& in, CallArgs& a) {
    no_kwargs(a, "chain");
    auto* c = new ChainIter();
    Value keep = wrap(c);
    std::vector<Value> srcs(a.pos + 1, a.pos + a.npos);  // pos[0]: the chain type (a constructor)
    c->sources = get_iter(in, make_tuple(std::move(srcs)));
    return keep;
}

Value it_chain_from_iterable(Interp& in, CallArgs& a) {
    expect_args(a, "from_iterable", 1, 1);
    auto* c = new ChainIter();
    Value keep = wrap(c);
    c->sources = get_iter(in, a[0]);
    return keep;
}

Value it_compress(Interp& in, CallArgs& a) {
    expect_args(a, "compress", 2, 2);
    auto* c = new CompressIter();
    Value keep = wrap(c);
    c->data = get_iter(in, stdlib_need(a, 0, "data", "compress"));
    c->selectors = get_iter(in, stdlib_need(a, 1, "selectors", "compress"));
    return keep;
}

Value it_takewhile(Interp& in, CallArgs& a) {
    expect_args(a, "takewhile", 2, 2);
    no_kwargs(a, "takewhile");
    return wrap(new WhileIter(a[0], get_iter(in, a[1]), true));
}

Value it_dropwhile(Interp& in, CallArgs& a) {
    expect_args(a, "dropwhile", 2, 2);
    no_kwargs(a, "dropwhile");
    return wrap(new WhileIter(a[0], get_iter(in, a[1]), false));
}

Value it_filterfalse(Interp& in, CallArgs& a) {
    expect_args(a, "filterfalse", 2, 2);
    no_kwargs(a, "filterfalse");
    auto* f = new FilterFalseIter();
    Value keep = wrap(f);
    f->pred = a[0];
    f->it = get_iter(in, a[1]);
    return keep;
}

Value it_groupby(Interp& in, CallArgs& a) {
    expect_args(a, "groupby", 1, 2);
    auto* g = new GroupByIter();
    Value keep = wrap(g);
    g->s->it = get_iter(in, stdlib_need(a, 0, "iterable", "groupby"));
    const Value* key = stdlib_arg(a, 1, "key");
    g->s->key = key ? *key : Value::none();
    return keep;
}

Value it_islice(Interp& in, CallArgs& a) {
    no_kwargs(a, "islice");
    if (a.npos < 2 || a.npos > 4)
        raise(types::TypeError, a.npos < 2 ? "islice expected at least 2 arguments, got " + std::to_string(a.npos)
                                           : "islice expected at most 4 arguments, got " + std::to_string(a.npos));
    auto index = [](const Value& v, int64_t dflt, const char* what) -> int64_t {
        if (v.is_none()) return dflt;
        int64_t x = 0;
        if (!index_value(v, x) || x < 0)
            raise(types::ValueError, std::string(what) + " for islice() must be None or an integer: 0 <= x <= sys.maxsize.");
        return x;
    };
    auto* s = new ISliceIter();
    Value keep = wrap(s);
    s->it = get_iter(in, a[0]);
    int64_t start = 0, stop = -1, step = 1;
    if (a.npos == 2) {
        stop = index(a[1], -1, "Stop argument");
    } else {
        start = index(a[1], 0, "Indices");
        stop = index(a[2], -1, "Stop argument");
        if (a.npos == 4) {
            int64_t x = 0;
            if (!a[3].is_none() && (!index_value(a[3], x) || x <= 0))
                raise(types::ValueError, "Step for islice() must be a positive integer or None.");
            step = a[3].is_none() ? 1 : x;
        }
    }
    s->next_index = start;
    s->stop = stop;
    s->step = step;
    return keep;
}

Value it_pairwise(Interp& in, CallArgs& a) {
    expect_args(a, "pairwise", 1, 1);
    no_kwargs(a, "pairwise");
    auto* p = new PairwiseIter();
    Value keep = wrap(p);
    p->it = get_iter(in, a[0]);
    return keep;
}

Value it_starmap(Interp& in, CallArgs& a) {
    expect_args(a, "starmap", 2, 2);
    no_kwargs(a, "starmap");
    auto* s = new StarmapIter();
    Value keep = wrap(s);
    s->fn = a[0];
    s->it = get_iter(in, a[1]);
    return keep;
}

Value it_tee(Interp& in, CallArgs& a) {
    expect_args(a, "tee", 1, 2);
    no_kwargs(a, "tee");
    const int64_t n = a.npos > 1 ? index_arg(a[1]) : 2;
    if (n < 0) raise(types::ValueError, "n must be >= 0");
    auto d = std::make_shared<TeeData>();
    d->it = get_iter(in, a[0]);
    std::vector<Value> tees;
    for (int64_t k = 0; k < n; ++k) {
        auto* t = new TeeIter();
        tees.push_back(wrap(t));
        t->d = d;
        d->positions.push_back(&t->pos);
    }
    return make_tuple(std::move(tees));
}

Value it_zip_longest(Interp& in, CallArgs& a) {
    auto* z = new ZipLongestIter();
    Value keep = wrap(z);
    z->fill = Value::none();
    for (size_t k = 0; k < a.nkw(); ++k) {
        if ((*a.kw)[k].first != "fillvalue") raise(types::TypeError, "zip_longest() got an unexpected keyword argument '" + (*a.kw)[k].first + "'");
        z->fill = (*a.kw)[k].second;
    }
    for (size_t k = 0; k < a.npos; ++k) z->its.push_back(get_iter(in, a[k]));
    z->done.assign(z->its.size(), false);
    z->live = z->its.size();
    return keep;
}

Value it_product(Interp& in, CallArgs& a) {
    int64_t repeat = 1;
    for (size_t k = 0; k < a.nkw(); ++k) {
        if ((*a.kw)[k].first != "repeat") raise(types::TypeError, "product() got an unexpected keyword argument '" + (*a.kw)[k].first + "'");
        repeat = index_arg((*a.kw)[k].second);
        if (repeat < 0) raise(types::ValueError, "repeat argument cannot be negative");
    }
    auto* p = new ProductIter();
    Value keep = wrap(p);
    std::vector<std::vector<Value>> pools;
    for (size_t k = 0; k < a.npos; ++k) pools.push_back(to_vector(in, a[k]));
    for (int64_t r = 0; r < repeat; ++r) p->pools.insert(p->pools.end(), pools.begin(), pools.end());
    return keep;
}

Value combinatoric(Interp& in, CallArgs& a, CombinatoricIter::Kind kind, const char* fname) {
    auto* c = new CombinatoricIter();
    Value keep = wrap(c);
    c->kind = kind;
    const Value* it = stdlib_arg(a, 0, "iterable");
    if (!it) raise(types::TypeError, std::string(fname) + "() missing required argument 'iterable' (pos 1)");
    c->pool = to_vector(in, *it);
    const Value* r = stdlib_arg(a, 1, "r");
    if (kind != CombinatoricIter::Permutations && !r)
        raise(types::TypeError, std::string(fname) + "() missing required argument 'r' (pos 2)");
    c->r = r_arg(r, c->pool.size(), fname);
    return keep;
}

Value it_permutations(Interp& in, CallArgs& a) { return combinatoric(in, a, CombinatoricIter::Permutations, "permutations"); }
Value it_combinations(Interp& in, CallArgs& a) { return combinatoric(in, a, CombinatoricIter::Combinations, "combinations"); }
Value it_combinations_wr(Interp& in, CallArgs& a) {
    return combinatoric(in, a, CombinatoricIter::WithReplacement, "combinations_with_replacement");
}

}  // namespace

ModuleObj* make_itertools(Interp&) {
    auto* m = new ModuleObj("itertools");
    m->doc = "Functions creating iterators for efficient looping (Python's itertools).";
    stdlib_def(m, "count", it_count, "count(start=0, step=1)", "Return a count object whose .__next__() method returns consecutive values.");
    stdlib_def(m, "cycle", it_cycle, "cycle(iterable, /)", "Return elements from the iterable until it is exhausted. Then repeat the sequence indefinitely.");
    stdlib_def(m, "repeat", it_repeat, "repeat(object, times=None)", "Create an iterator which returns the object for the specified number of times.");
    stdlib_def(m, "accumulate", it_accumulate, "accumulate(iterable, func=None, *, initial=None)", "Return series of accumulated sums (or other binary function results).");
    // chain is a type: chain(*iterables) and chain.from_iterable(iterable).
    auto* chain = new TypeObject("itertools.chain", nullptr, OK::Other);
    chain->construct = [](Interp& in, CallArgs& a) {
        CallArgs rest{a.pos, a.npos, a.kw};
        std::vector<Value> with_self;
        with_self.push_back(Value::none());
        for (size_t k = 0; k < a.npos; ++k) with_self.push_back(a.pos[k]);
        rest.pos = with_self.data();
        rest.npos = with_self.size();
        return it_chain(in, rest);
    };
    chain->dict["from_iterable"] = make_builtin("from_iterable", it_chain_from_iterable, "from_iterable(iterable, /)",
                                                "Alternative chain() constructor taking a single iterable argument that evaluates lazily.");
    m->set("chain", Value::object(chain));
    stdlib_def(m, "compress", it_compress, "compress(data, selectors)", "Return data elements corresponding to true selector elements.");
    stdlib_def(m, "dropwhile", it_dropwhile, "dropwhile(predicate, iterable, /)", "Drop items from the iterable while predicate(item) is true.");
    stdlib_def(m, "takewhile", it_takewhile, "takewhile(predicate, iterable, /)", "Return successive entries from an iterable as long as the predicate evaluates to true for each entry.");
    stdlib_def(m, "filterfalse", it_filterfalse, "filterfalse(function, iterable, /)", "Return those items of iterable for which function(item) is false.");
    stdlib_def(m, "groupby", it_groupby, "groupby(iterable, key=None)", "make an iterator that returns consecutive keys and groups from the iterable");
    stdlib_def(m, "islice", it_islice, "islice(iterable, stop) / islice(iterable, start, stop[, step])", "Return an iterator whose next() method returns selected values from an iterable.");
    stdlib_def(m, "pairwise", it_pairwise, "pairwise(iterable, /)", "Return an iterator of overlapping pairs taken from the input iterator.");
    stdlib_def(m, "starmap", it_starmap, "starmap(function, iterable, /)", "Return an iterator whose values are returned from the function evaluated with an argument tuple taken from the given sequence.");
    stdlib_def(m, "tee", it_tee, "tee(iterable, n=2, /)", "Returns a tuple of n independent iterators.");
    stdlib_def(m, "zip_longest", it_zip_longest, "zip_longest(*iterables, fillvalue=None)", "Return a zip_longest object.");
    stdlib_def(m, "product", it_product, "product(*iterables, repeat=1)", "Cartesian product of input iterables.  Equivalent to nested for-loops.");
    stdlib_def(m, "permutations", it_permutations, "permutations(iterable, r=None)", "Return successive r-length permutations of elements in the iterable.");
    stdlib_def(m, "combinations", it_combinations, "combinations(iterable, r)", "Return successive r-length combinations of elements in the iterable.");
    stdlib_def(m, "combinations_with_replacement", it_combinations_wr, "combinations_with_replacement(iterable, r)",
               "Return successive r-length combinations of elements in the iterable allowing individual elements to have successive repeats.");
    return m;
}

}  // namespace gpy
