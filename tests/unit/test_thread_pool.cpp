// The CPU worker pool (runtime/thread_pool): ranges cover [0, n) exactly once,
// small loops run inline, exceptions reach the caller, and nested or
// concurrent loops finish.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/thread_pool.h"

namespace {

// Runs parallel_for and checks that the ranges are disjoint, cover [0, n),
// begin at multiples of `grain` and (except the last) are multiples of it.
void check_cover(int64_t n, int64_t grain) {
    std::vector<std::atomic<int>> hits(size_t(std::max<int64_t>(n, 0)));
    std::mutex m;
    std::vector<std::pair<int64_t, int64_t>> ranges;
    gpy::parallel_for(n, grain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) hits[size_t(i)].fetch_add(1, std::memory_order_relaxed);
        std::lock_guard<std::mutex> lock(m);
        ranges.emplace_back(b, e);
    });
    for (int64_t i = 0; i < n; ++i) REQUIRE(hits[size_t(i)].load() == 1);
    std::sort(ranges.begin(), ranges.end());
    int64_t g = std::max<int64_t>(grain, 1);
    for (size_t i = 0; i < ranges.size(); ++i) {
        REQUIRE(ranges[i].first < ranges[i].second);
        REQUIRE(ranges[i].first % g == 0);
        if (ranges[i].second != n) REQUIRE((ranges[i].second - ranges[i].first) % g == 0);
    }
}

}  // namespace

TEST_CASE("thread pool: num_threads is at least one", "[thread_pool]") {
    CHECK(gpy::num_threads() >= 1);
}

TEST_CASE("thread pool: ranges cover [0, n) exactly once", "[thread_pool]") {
    for (int64_t n : {1, 2, 3, 7, 100, 1000, 4097, 100003, 1000000})
        for (int64_t grain : {0, 1, 3, 64, 1000, 50000}) {
            INFO("n=" << n << " grain=" << grain);
            check_cover(n, grain);
        }
}

TEST_CASE("thread pool: nothing to do calls nothing", "[thread_pool]") {
    int calls = 0;
    gpy::parallel_for(0, 1, [&](int64_t, int64_t) { ++calls; });
    gpy::parallel_for(-5, 1, [&](int64_t, int64_t) { ++calls; });
    CHECK(calls == 0);
}

TEST_CASE("thread pool: small loops run inline on the caller", "[thread_pool]") {
    std::vector<std::pair<int64_t, int64_t>> ranges;
    std::thread::id who;
    gpy::parallel_for(10, 100, [&](int64_t b, int64_t e) {
        ranges.emplace_back(b, e);
        who = std::this_thread::get_id();
    });
    REQUIRE(ranges.size() == 1);
    CHECK(ranges[0] == std::make_pair<int64_t, int64_t>(0, 10));
    CHECK(who == std::this_thread::get_id());
}

TEST_CASE("thread pool: large loops use several threads when there are some", "[thread_pool]") {
    if (gpy::num_threads() < 2) return;
    std::mutex m;
    std::vector<std::thread::id> ids;
    std::atomic<int> inside{0}, max_inside{0};
    gpy::parallel_for(64, 1, [&](int64_t, int64_t) {
        int now = inside.fetch_add(1) + 1;
        int prev = max_inside.load();
        while (now > prev && !max_inside.compare_exchange_weak(prev, now)) {}
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        inside.fetch_sub(1);
        std::lock_guard<std::mutex> lock(m);
        ids.push_back(std::this_thread::get_id());
    });
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    CHECK(ids.size() >= 2);
    CHECK(max_inside.load() >= 2);
}

TEST_CASE("thread pool: an exception reaches the caller and the pool stays usable", "[thread_pool]") {
    std::atomic<int64_t> done{0};
    try {
        gpy::parallel_for(1000000, 100, [&](int64_t b, int64_t e) {
            if (b <= 500000 && 500000 < e) throw std::runtime_error("boom at 500000");
            done.fetch_add(e - b);
        });
        FAIL("expected an exception");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "boom at 500000");
    }
    CHECK(done.load() < 1000000);
    // every range throws: exactly one exception comes back
    REQUIRE_THROWS_AS(gpy::parallel_for(100000, 10, [](int64_t, int64_t) { throw std::logic_error("all"); }),
                      std::logic_error);
    // inline path too
    REQUIRE_THROWS_AS(gpy::parallel_for(5, 100, [](int64_t, int64_t) { throw std::out_of_range("small"); }),
                      std::out_of_range);
    check_cover(123457, 17);
}

TEST_CASE("thread pool: nested loops do not deadlock", "[thread_pool]") {
    std::vector<std::atomic<int>> hits(200 * 300);
    gpy::parallel_for(200, 1, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
            gpy::parallel_for(300, 1, [&](int64_t b2, int64_t e2) {
                for (int64_t j = b2; j < e2; ++j) hits[size_t(i * 300 + j)].fetch_add(1);
            });
    });
    for (auto& h : hits) REQUIRE(h.load() == 1);
}

TEST_CASE("thread pool: loops from several threads at once all finish", "[thread_pool]") {
    std::atomic<int> bad{0};
    auto work = [&] {
        for (int rep = 0; rep < 50; ++rep) {
            std::vector<std::atomic<int>> hits(20000);
            gpy::parallel_for(20000, 64, [&](int64_t b, int64_t e) {
                for (int64_t i = b; i < e; ++i) hits[size_t(i)].fetch_add(1);
            });
            for (auto& h : hits)
                if (h.load() != 1) bad.fetch_add(1);
        }
    };
    std::thread t1(work), t2(work), t3(work);
    t1.join();
    t2.join();
    t3.join();
    CHECK(bad.load() == 0);
}
