// The small containers of the array operation's hot path: SmallVec (dag::Shape),
// dag::Operands and FreeList (nodes' and arrays' memory). Each behaves as the
// std::vector / heap it replaced, inline and spilled.
#include <catch2/catch.hpp>

#include <cstdint>
#include <thread>
#include <vector>

#include "codegen/dag.h"
#include "codegen/free_list.h"
#include "codegen/small_vec.h"

using namespace gpy;

namespace {

// Applies the same edits to a SmallVec and a std::vector; they must agree.
template <size_t N>
void same_edits(int seed) {
    SmallVec<int64_t, N> s;
    std::vector<int64_t> v;
    uint64_t r = uint64_t(seed) * 2654435761u + 1;
    auto next = [&] {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        return r >> 33;
    };
    for (int step = 0; step < 300; ++step) {
        int64_t x = int64_t(next() % 1000);
        switch (next() % 7) {
            case 0:
            case 1:
                s.push_back(x);
                v.push_back(x);
                break;
            case 2: {
                size_t at = v.empty() ? 0 : size_t(next() % (v.size() + 1));
                s.insert(s.begin() + at, x);
                v.insert(v.begin() + at, x);
                break;
            }
            case 3:
                if (!v.empty()) {
                    size_t at = size_t(next() % v.size());
                    s.erase(s.begin() + at);
                    v.erase(v.begin() + at);
                }
                break;
            case 4: {
                size_t n = size_t(next() % 12);
                s.resize(n, x);
                v.resize(n, x);
                break;
            }
            case 5: {  // insert a range of itself
                std::vector<int64_t> copy(v);
                s.insert(s.begin(), s.begin(), s.end());
                v.insert(v.begin(), copy.begin(), copy.end());
                if (v.size() > 40) {
                    s.erase(s.begin() + 20, s.end());
                    v.erase(v.begin() + 20, v.end());
                }
                break;
            }
            case 6: {  // copy and move round trips
                SmallVec<int64_t, N> c(s);
                SmallVec<int64_t, N> m(std::move(c));
                s = m;
                SmallVec<int64_t, N> t;
                t = std::move(m);
                CHECK(m.empty());
                CHECK(t == s);
                break;
            }
        }
        REQUIRE(s.size() == v.size());
        REQUIRE(std::vector<int64_t>(s) == v);
        REQUIRE(s == v);
    }
}

}  // namespace

TEST_CASE("SmallVec: edits agree with std::vector, inline and spilled", "[containers]") {
    for (int seed = 0; seed < 20; ++seed) {
        same_edits<1>(seed);
        same_edits<4>(seed);
        same_edits<6>(seed);
    }
}

TEST_CASE("SmallVec: construction, comparison and conversion", "[containers]") {
    dag::Shape a{3, 4};
    dag::Shape b(2, 7);
    std::vector<int64_t> v{3, 4};
    dag::Shape c = v;
    CHECK(a.size() == 2);
    CHECK(b == std::vector<int64_t>{7, 7});
    CHECK(a == c);
    CHECK(a != b);
    CHECK(a < b);
    CHECK_FALSE(b < a);
    dag::Shape big(20, 1);  // past the inline rank
    big[19] = 5;
    dag::Shape big2 = big;
    CHECK(big2.size() == 20);
    CHECK(big2.back() == 5);
    CHECK_THROWS_AS(a.at(2), std::out_of_range);
    // Filling from one of its own elements while growing past the inline room.
    dag::Shape self{9, 8};
    self.resize(30, self[0]);
    CHECK(self.size() == 30);
    CHECK(self[29] == 9);
    self.assign(50, self[1]);
    CHECK(self.size() == 50);
    CHECK(self[49] == 8);
    const dag::Shape empty_const;
    CHECK(empty_const.empty());
}

TEST_CASE("dag::Operands: at most three, cleared in place", "[containers]") {
    auto x = dag::make_scalar(DType::Float32, dag::ScalarValue());
    auto y = dag::make_scalar(DType::Float32, dag::ScalarValue());
    auto w = dag::make_where(x, x, y, {});
    CHECK(w->in.size() == 3);
    CHECK(w->in[2] == y);
    CHECK(x.use_count() == 3);  // this test, and two operand slots
    w->in.clear();
    CHECK(w->in.empty());
    CHECK(x.use_count() == 1);  // clearing released the operands
    dag::Operands full{x, x, x};
    CHECK_THROWS_AS(full.push_back(y), std::logic_error);
}

// FreeList hands a released block back to the next allocation of its thread
// (last in, first out), keeps each thread's blocks apart, and new_node's
// blocks come back only once no weak reference holds them (count_pending
// relies on that: codegen/dag.cpp).
TEST_CASE("FreeList: reuse per thread, and nodes' blocks after their last weak reference", "[containers]") {
    if (GPY_FREE_LIST_OFF) return;  // AddressSanitizer: no lists, nothing reused
    using L = FreeList<48>;
    void* a = L::allocate();
    void* b = L::allocate();
    CHECK(a != b);
    L::release(a);
    L::release(b);
    CHECK(L::allocate() == b);
    CHECK(L::allocate() == a);
    void* mine = L::allocate();
    L::release(mine);
    bool theirs_fresh = false, theirs_reused = false;  // Catch's checks are not thread-safe
    std::thread t([&] {
        void* x = L::allocate();
        theirs_fresh = x != mine;  // another thread's list starts empty
        L::release(x);
        theirs_reused = L::allocate() == x;
        L::release(x);  // returned to the heap at the thread's exit
    });
    t.join();
    CHECK(theirs_fresh);
    CHECK(theirs_reused);
    CHECK(L::allocate() == mine);
    L::release(mine);

    dag::NodeP n = dag::new_node();
    const void* where = n.get();
    std::weak_ptr<dag::Node> w = n;
    n.reset();
    dag::NodeP m = dag::new_node();
    CHECK(m.get() != where);  // the weak reference still holds the block
    w.reset();
    dag::NodeP k = dag::new_node();
    CHECK(k.get() == where);
    dag::Node copy;
    copy.op = dag::Op::Scalar;
    CHECK(dag::new_node(copy)->op == dag::Op::Scalar);
}
