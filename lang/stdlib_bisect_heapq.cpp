// Python's bisect and heapq over lists, natively, with CPython's algorithms
// (the same comparisons in the same order, so ties and keys behave alike).
#include <algorithm>

#include "lang/stdlib_modules.h"

namespace gpy {

namespace {

ListObj* list_arg(const Value& v, const char* fname) {
    if (!is_kind(v, OK::List)) raise(types::TypeError, std::string(fname) + "() argument must be list, not " + type_name(v));
    return v.as<ListObj>();
}

bool less(Interp& in, const Value& a, const Value& b) { return compare_op(in, CmpOp::Lt, a, b); }

// A comparison may run user code that changes the heap (CPython's check).
void check_size(const std::vector<Value>& h, size_t expected) {
    if (h.size() != expected) raise(types::RuntimeError, "list changed size during iteration");
}

// ---- bisect ----

// bisect_left/right(a, x, lo=0, hi=len(a), *, key=None): a sequence (any
// object with len and item access), x compared with key(a[i]).
int64_t bisect(Interp& in, CallArgs& a, bool right, const char* fname) {
    const Value& seq = stdlib_need(a, 0, "a", fname);
    const Value& x = stdlib_need(a, 1, "x", fname);
    const Value* lo_v = stdlib_arg(a, 2, "lo");
    const Value* hi_v = stdlib_arg(a, 3, "hi");
    const Value* key = kwarg(a, "key");
    int64_t lo = lo_v ? index_arg(*lo_v) : 0;
    if (lo < 0) raise(types::ValueError, "lo must be non-negative");
    int64_t hi = hi_v && !hi_v->is_none() ? index_arg(*hi_v) : length(in, seq);
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        Value item = get_item(in, seq, Value::integer(mid));
        if (key && !key->is_none()) item = in.call1(*key, item);
        if (right ? less(in, x, item) : less(in, item, x)) {
            if (right) hi = mid;
            else lo = mid + 1;
        } else {
            if (right) lo = mid + 1;
            else hi = mid;
        }
    }
    return lo;
}

Value bisect_left(Interp& in, CallArgs& a) { return Value::integer(bisect(in, a, false, "bisect_left")); }
Value bisect_right(Interp& in, CallArgs& a) { return Value::integer(bisect(in, a, true, "bisect_right")); }

Value insort(Interp& in, CallArgs& a, bool right, const char* fname) {
    // The key applies to the array's items; x itself is inserted (CPython: key(x) is searched).
    const Value* key = kwarg(a, "key");
    Value x = stdlib_need(a, 1, "x", fname);
    std::vector<Value> args(a.pos, a.pos + a.npos);
    std::vector<std::pair<std::string, Value>> kw = a.kw ? *a.kw : std::vector<std::pair<std::string, Value>>{};
    if (key && !key->is_none()) {
        Value kx = in.call1(*key, x);
        if (args.size() > 1) args[1] = kx;
        else
            for (auto& [n, v] : kw)
                if (n == "x") v = kx;
    }
    CallArgs c{args.data(), args.size(), kw.empty() ? nullptr : &kw};
    const int64_t at = bisect(in, c, right, fname);
    const Value& seq = stdlib_need(a, 0, "a", fname);
    if (is_kind(seq, OK::List)) {
        auto& items = seq.as<ListObj>()->items;
        // As list.insert: an index past the end appends (lo= may be past it).
        items.insert(items.begin() + std::min<int64_t>(at, int64_t(items.size())), x);
    } else {
        Value ins = get_attr(in, seq, "insert");
        Value call_args[2] = {Value::integer(at), x};
        CallArgs ic{call_args, 2, nullptr};
        in.call(ins, ic);
    }
    return Value::none();
}

Value insort_left(Interp& in, CallArgs& a) { return insort(in, a, false, "insort_left"); }
Value insort_right(Interp& in, CallArgs& a) { return insort(in, a, true, "insort_right"); }

// ---- heapq (CPython's _siftdown/_siftup) ----

void sift_down(Interp& in, std::vector<Value>& h, size_t start, size_t pos) {
    const size_t size = h.size();
    Value item = h[pos];
    while (pos > start) {
        const size_t parent = (pos - 1) >> 1;
        Value p = h[parent];
        const bool lt = less(in, item, p);
        check_size(h, size);
        if (lt) {
            h[pos] = h[parent];
            pos = parent;
            continue;
        }
        break;
    }
    h[pos] = item;
}

void sift_up(Interp& in, std::vector<Value>& h, size_t pos) {
    const size_t end = h.size(), start = pos;
    Value item = h[pos];
    size_t child = 2 * pos + 1;
    while (child < end) {
        const size_t right = child + 1;
        if (right < end) {
            Value l = h[child], r = h[right];
            const bool lt = less(in, l, r);
            check_size(h, end);
            if (!lt) child = right;
        }
        h[pos] = h[child];
        pos = child;
        child = 2 * pos + 1;
    }
    h[pos] = item;
    sift_down(in, h, start, pos);
}

Value heappush(Interp& in, CallArgs& a) {
    expect_args(a, "heappush", 2, 2);
    auto& h = list_arg(a[0], "heappush")->items;
    h.push_back(a[1]);
    sift_down(in, h, 0, h.size() - 1);
    return Value::none();
}

Value heappop(Interp& in, CallArgs& a) {
    expect_args(a, "heappop", 1, 1);
    auto& h = list_arg(a[0], "heappop")->items;
    if (h.empty()) raise(types::IndexError, "index out of range");
    Value last = h.back();
    h.pop_back();
    if (h.empty()) return last;
    Value top = h[0];
    h[0] = last;
    sift_up(in, h, 0);
    return top;
}

Value heapify(Interp& in, CallArgs& a) {
    expect_args(a, "heapify", 1, 1);
    auto& h = list_arg(a[0], "heapify")->items;
    for (size_t i = h.size() / 2; i-- > 0;) sift_up(in, h, i);
    return Value::none();
}

Value heapreplace(Interp& in, CallArgs& a) {
    expect_args(a, "heapreplace", 2, 2);
    auto& h = list_arg(a[0], "heapreplace")->items;
    if (h.empty()) raise(types::IndexError, "index out of range");
    Value top = h[0];
    h[0] = a[1];
    sift_up(in, h, 0);
    return top;
}

Value heappushpop(Interp& in, CallArgs& a) {
    expect_args(a, "heappushpop", 2, 2);
    auto& h = list_arg(a[0], "heappushpop")->items;
    Value item = a[1];
    const size_t size = h.size();
    if (!h.empty() && less(in, Value(h[0]), item)) {
        check_size(h, size);
        std::swap(item, h[0]);
        sift_up(in, h, 0);
    }
    return item;
}

// nlargest/nsmallest(n, iterable, key=None): as CPython's results (a stable
// sort of the items by key, the first n), ties in input order.
Value n_extreme(Interp& in, CallArgs& a, bool largest, const char* fname) {
    const int64_t n = index_arg(stdlib_need(a, 0, "n", fname));
    std::vector<Value> items = to_vector(in, stdlib_need(a, 1, "iterable", fname));
    const Value* key = kwarg(a, "key");
    if (n <= 0) return make_list({});
    sort_values(in, items, key && !key->is_none() ? key : nullptr, largest);
    if (int64_t(items.size()) > n) items.resize(size_t(n));
    return make_list(std::move(items));
}

Value nlargest(Interp& in, CallArgs& a) { return n_extreme(in, a, true, "nlargest"); }
Value nsmallest(Interp& in, CallArgs& a) { return n_extreme(in, a, false, "nsmallest"); }

}  // namespace

ModuleObj* make_bisect(Interp&) {
    auto* m = new ModuleObj("bisect");
    m->doc = "Bisection algorithms (Python's bisect).";
    stdlib_def(m, "bisect_left", bisect_left, "bisect_left(a, x, lo=0, hi=None, *, key=None)", "Return the index where to insert item x in list a, assuming a is sorted.");
    stdlib_def(m, "bisect_right", bisect_right, "bisect_right(a, x, lo=0, hi=None, *, key=None)", "Return the index where to insert item x in list a, assuming a is sorted.");
    stdlib_def(m, "bisect", bisect_right, "bisect(a, x, lo=0, hi=None, *, key=None)", "Alias for bisect_right().");
    stdlib_def(m, "insort_left", insort_left, "insort_left(a, x, lo=0, hi=None, *, key=None)", "Insert item x in list a, and keep it sorted assuming a is sorted.");
    stdlib_def(m, "insort_right", insort_right, "insort_right(a, x, lo=0, hi=None, *, key=None)", "Insert item x in list a, and keep it sorted assuming a is sorted.");
    stdlib_def(m, "insort", insort_right, "insort(a, x, lo=0, hi=None, *, key=None)", "Alias for insort_right().");
    return m;
}

ModuleObj* make_heapq(Interp&) {
    auto* m = new ModuleObj("heapq");
    m->doc = "Heap queue algorithm (a.k.a. priority queue), as Python's heapq.";
    stdlib_def(m, "heappush", heappush, "heappush(heap, item, /)", "Push item onto heap, maintaining the heap invariant.");
    stdlib_def(m, "heappop", heappop, "heappop(heap, /)", "Pop the smallest item off the heap, maintaining the heap invariant.");
    stdlib_def(m, "heapify", heapify, "heapify(heap, /)", "Transform list into a heap, in-place, in O(len(heap)) time.");
    stdlib_def(m, "heapreplace", heapreplace, "heapreplace(heap, item, /)", "Pop and return the current smallest value, and add the new item.");
    stdlib_def(m, "heappushpop", heappushpop, "heappushpop(heap, item, /)", "Push item on the heap, then pop and return the smallest item from the heap.");
    stdlib_def(m, "nlargest", nlargest, "nlargest(n, iterable, key=None)", "Find the n largest elements in a dataset.");
    stdlib_def(m, "nsmallest", nsmallest, "nsmallest(n, iterable, key=None)", "Find the n smallest elements in a dataset.");
    return m;
}

}  // namespace gpy
