// The device pool's bookkeeping (runtime/device_pool) against a fake driver:
// rounding, splitting, coalescing, best fit, per-stream reuse through events,
// the limit, the OOM retry path, fragmentation and the counters. No GPU needed.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "runtime/device_pool.h"

namespace {

using gpy::cuda::BlockPool;
using gpy::cuda::OutOfMemory;
using gpy::cuda::StreamKey;

constexpr size_t KiB = 1024, MiB = 1024 * 1024;

// Segments are numbers spaced apart (never adjacent); events complete when the
// test says their stream is done.
struct FakeDriver : gpy::cuda::PoolBackend {
    size_t capacity = size_t(1) << 40;  // device memory
    size_t in_use = 0;
    uintptr_t next_addr = 1 << 30;
    std::map<uintptr_t, size_t> segments;
    int segment_allocs = 0, segment_frees = 0, queries = 0;
    struct Ev {
        StreamKey stream;
        bool done = false;
    };
    std::set<Ev*> live_events;

    uintptr_t allocate_segment(size_t bytes) override {
        if (in_use + bytes > capacity) return 0;
        uintptr_t p = next_addr;
        next_addr += bytes + 64 * MiB;
        segments[p] = bytes;
        in_use += bytes;
        ++segment_allocs;
        return p;
    }
    void free_segment(uintptr_t ptr) override {
        REQUIRE(segments.count(ptr) == 1);
        in_use -= segments[ptr];
        segments.erase(ptr);
        ++segment_frees;
    }
    std::set<StreamKey> destroyed;  // streams no event may be recorded on
    void* record_event(StreamKey stream) override {
        REQUIRE(destroyed.count(stream) == 0);
        Ev* e = new Ev{stream};
        live_events.insert(e);
        return e;
    }
    bool event_done(void* e) override {
        ++queries;
        REQUIRE(live_events.count(static_cast<Ev*>(e)) == 1);
        return static_cast<Ev*>(e)->done;
    }
    void release_event(void* e) override {
        REQUIRE(live_events.erase(static_cast<Ev*>(e)) == 1);
        delete static_cast<Ev*>(e);
    }
    // All work queued on `s` so far has finished.
    void finish(StreamKey s) {
        for (Ev* e : live_events)
            if (e->stream == s) e->done = true;
    }
    ~FakeDriver() override {
        for (Ev* e : live_events) delete e;
    }
};

StreamKey stream(int i) { return reinterpret_cast<StreamKey>(uintptr_t(0x1000 * i)); }
const StreamKey S1 = stream(1), S2 = stream(2);

}  // namespace

TEST_CASE("device pool: sizes are rounded to 512 bytes", "[device_pool]") {
    CHECK(BlockPool::round_size(1) == 512);
    CHECK(BlockPool::round_size(512) == 512);
    CHECK(BlockPool::round_size(513) == 1024);
    CHECK(BlockPool::round_size(0) == 0);
    FakeDriver drv;
    BlockPool pool(drv);
    CHECK(pool.allocate(0, S1) == 0);
    CHECK(pool.total_bytes() == 0);
    uintptr_t a = pool.allocate(1, S1);
    uintptr_t b = pool.allocate(513, S1);
    CHECK(b == a + 512);
    CHECK(pool.used_bytes() == 1536);
    pool.free(0);  // a no-op, as free(NULL)
    CHECK_THROWS_AS(pool.free(a + 1), std::invalid_argument);
}

TEST_CASE("device pool: segments are split and their blocks coalesce", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(1000, S1);
    uintptr_t b = pool.allocate(1000, S1);
    uintptr_t c = pool.allocate(1000, S1);
    CHECK(drv.segment_allocs == 1);  // one 2 MiB segment serves small requests
    CHECK(pool.total_bytes() == 2 * MiB);
    CHECK(b == a + 1024);
    CHECK(c == b + 1024);
    CHECK(pool.n_free_blocks() == 1);  // the segment's tail
    pool.free(a);
    pool.free(c);  // merges with the tail
    CHECK(pool.n_free_blocks() == 2);
    pool.free(b);  // joins both neighbours
    CHECK(pool.n_free_blocks() == 1);
    CHECK(pool.used_bytes() == 0);
    // The whole segment is one block again.
    CHECK(pool.allocate(2 * MiB, S1) == a);
    CHECK(drv.segment_allocs == 1);
}

TEST_CASE("device pool: best fit picks the smallest free block", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(1024, S1);
    uintptr_t x = pool.allocate(512, S1);
    uintptr_t b = pool.allocate(4096, S1);
    uintptr_t y = pool.allocate(512, S1);
    pool.free(b);
    pool.free(a);
    CHECK(pool.allocate(3000, S1) == b);  // 4096 fits better than the segment's tail
    CHECK(pool.allocate(700, S1) == a);
    // A split leaves the rest free: 1024 - 512 after taking 512 from a's block.
    pool.free(a);
    uintptr_t h = pool.allocate(512, S1);
    CHECK(h == a);
    CHECK(pool.allocate(512, S1) == a + 512);
    (void)x, (void)y;
}

TEST_CASE("device pool: sizes of segments", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    pool.allocate(3 * MiB, S1);
    CHECK(pool.total_bytes() == 20 * MiB);
    pool.allocate(12 * MiB + 1, S1);  // fits in the 20 MiB segment's tail
    CHECK(pool.total_bytes() == 20 * MiB);
    pool.allocate(11 * MiB, S1);  // large: its own segment, rounded to 2 MiB
    CHECK(pool.total_bytes() == 32 * MiB);
}

TEST_CASE("device pool: a block is reused on its stream at once", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(1000, S1);
    pool.free(a);
    CHECK(drv.live_events.empty());  // one stream: no event is recorded
    CHECK(pool.allocate(1000, S1) == a);
    pool.allocate(1000, S2);  // a second stream: from now on frees record events
    uintptr_t c = pool.allocate(1000, S1);
    pool.free(c);
    CHECK(!drv.live_events.empty());
    CHECK(pool.allocate(1000, S1) == c);  // same stream: its event need not have completed
}

// Large requests get exact segments (no free tail), so whether a block was
// handed over shows in the addresses and the segment count.
TEST_CASE("device pool: another stream reuses a block only after its event completed", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(12 * MiB, S1);
    pool.allocate(12 * MiB, S2);
    pool.free(a);  // an event is recorded on S1
    uintptr_t c = pool.allocate(12 * MiB, S2);
    CHECK(c != a);  // S1 may still be using a
    CHECK(drv.segment_allocs == 3);
    drv.finish(S1);
    CHECK(pool.allocate(12 * MiB, S2) == a);  // handed over after a query, no wait
    CHECK(drv.segment_allocs == 3);
    CHECK(drv.queries > 0);
}

TEST_CASE("device pool: a second stream fences the blocks freed before it appeared", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(1 * MiB, S1);  // the segment's 1 MiB tail is free on S1, untracked
    pool.allocate(512, S2);
    CHECK(drv.segment_allocs == 2);  // S2 may not take S1's tail yet
    drv.finish(S1);
    // A third stream picks the best fit among the blocks now free for everyone.
    CHECK(pool.allocate(1 * MiB, stream(3)) == a + MiB);
}

TEST_CASE("device pool: free on the stream that used the block last", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    pool.allocate(512, S2);
    uintptr_t a = pool.allocate(12 * MiB, S1);
    pool.free(a, S2);  // a was last used by S2
    CHECK(pool.allocate(12 * MiB, S1) != a);
    drv.finish(S2);
    CHECK(pool.allocate(12 * MiB, S1) == a);
}

TEST_CASE("device pool: a retired stream's blocks wait for its event", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(12 * MiB, S1);
    pool.free(a);
    pool.retire_stream(S1);
    CHECK(pool.allocate(12 * MiB, S2) != a);
    drv.finish(S1);
    CHECK(pool.allocate(12 * MiB, S2) == a);
}

TEST_CASE("device pool: a block allocated on a stream destroyed since is freed without touching it", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(12 * MiB, S1);
    uintptr_t b = pool.allocate(12 * MiB, S2);  // a second stream: frees record events
    pool.retire_stream(S1);
    drv.destroyed.insert(S1);
    pool.free(a);  // records nothing on S1 (the fake driver checks)
    uintptr_t c = pool.allocate(12 * MiB, S2);
    CHECK(c != a);  // S1's work may still run
    drv.finish(S1);
    CHECK(pool.allocate(12 * MiB, S2) == a);
    pool.free(b);
    pool.free(c);
    CHECK(pool.used_bytes() == 12 * MiB);  // a alone
}

TEST_CASE("device pool: pinned host blocks wait for the stream that copied from them", "[device_pool]") {
    using gpy::cuda::kHostStream;
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(12 * MiB, kHostStream);
    pool.free(a);  // the host never handed it to a stream
    CHECK(pool.allocate(12 * MiB, kHostStream) == a);
    pool.free(a, S1);  // an async copy on S1 read it
    CHECK(pool.allocate(12 * MiB, kHostStream) != a);
    drv.finish(S1);
    CHECK(pool.allocate(12 * MiB, kHostStream) == a);
}

TEST_CASE("device pool: fragmentation", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t q[4];
    for (auto& p : q) p = pool.allocate(512 * KiB, S1);  // fills the 2 MiB segment
    CHECK(pool.n_free_blocks() == 0);
    pool.free(q[0]);
    pool.free(q[2]);
    CHECK(pool.free_bytes() == 1 * MiB);
    uintptr_t big = pool.allocate(1 * MiB, S1);  // 1 MiB free, but not in one piece
    CHECK(drv.segment_allocs == 2);
    pool.free(big);
    pool.free(q[1]);  // q[0..2] become one 1.5 MiB block
    CHECK(pool.allocate(1 * MiB, S1) == q[0]);
    CHECK(drv.segment_allocs == 2);
}

TEST_CASE("device pool: free_all_blocks gives back fully free segments", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(3 * MiB, S1);
    uintptr_t b = pool.allocate(512, S2);
    uintptr_t c = pool.allocate(512, S2);
    pool.free(a);
    pool.free(b);
    CHECK(pool.total_bytes() == 22 * MiB);
    CHECK(pool.used_bytes() == 512);
    pool.free_all_blocks();
    CHECK(pool.total_bytes() == 2 * MiB);  // c's segment stays
    CHECK(drv.segment_frees == 1);
    pool.free(c);
    pool.free_all_blocks();
    CHECK(pool.total_bytes() == 0);
    CHECK(pool.n_free_blocks() == 0);
    CHECK(drv.in_use == 0);
    CHECK(drv.live_events.empty());  // every event recorded was released
}

TEST_CASE("device pool: the limit caps total_bytes", "[device_pool]") {
    FakeDriver drv;
    BlockPool pool(drv);
    pool.set_limit(4 * MiB);
    CHECK(pool.get_limit() == 4 * MiB);
    uintptr_t a = pool.allocate(3 * MiB, S1);  // a 20 MiB segment would pass the limit: exactly 3 MiB
    CHECK(pool.total_bytes() == 3 * MiB);
    try {
        pool.allocate(2 * MiB, S1);
        FAIL("no OutOfMemory");
    } catch (const OutOfMemory& e) {
        CHECK(std::string(e.what()) ==
              "Out of memory allocating 2,097,152 bytes (allocated so far: 3,145,728 bytes, limit set to: 4,194,304 bytes).");
        CHECK(e.requested == 2 * MiB);
        CHECK(e.in_use == 3 * MiB);
        CHECK(e.limit == 4 * MiB);
    }
    // Consistent afterwards: the memory can be reused.
    pool.free(a);
    uintptr_t b = pool.allocate(2 * MiB, S1);
    CHECK(b == a);
    pool.set_limit(0);
    pool.allocate(4 * MiB, S1);
    CHECK(pool.total_bytes() == 3 * MiB + 20 * MiB);
}

TEST_CASE("device pool: out of device memory frees cached segments and retries", "[device_pool]") {
    FakeDriver drv;
    drv.capacity = 4 * MiB;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(1 * MiB, S1);
    pool.free(a);  // its 2 MiB segment stays cached
    uintptr_t b = pool.allocate(3 * MiB, S1);  // 20 MiB fails, 3 MiB fails, free the cache, 3 MiB again
    CHECK(b != 0);
    CHECK(drv.segment_frees == 1);
    CHECK(pool.total_bytes() == 3 * MiB);
    CHECK(pool.used_bytes() == 3 * MiB);
}

TEST_CASE("device pool: out of device memory after the retry throws", "[device_pool]") {
    FakeDriver drv;
    drv.capacity = 4 * MiB;
    BlockPool pool(drv);
    uintptr_t a = pool.allocate(3 * MiB, S1);
    CHECK_THROWS_WITH(pool.allocate(2 * MiB - 100, S1),
                      "Out of memory allocating 2,097,052 bytes (allocated so far: 3,145,728 bytes).");
    CHECK(pool.used_bytes() == 3 * MiB);
    CHECK(pool.total_bytes() == 3 * MiB);
    pool.free(a);
    CHECK(pool.allocate(4 * MiB, S1) != 0);  // the cached 3 MiB segment is given back first
    CHECK(pool.total_bytes() == 4 * MiB);
}

TEST_CASE("device pool: GPY_GPU_MEMORY_LIMIT values", "[device_pool]") {
    using gpy::cuda::parse_memory_limit;
    CHECK(parse_memory_limit("1073741824", 0) == 1073741824);
    CHECK(parse_memory_limit("0", 100) == 0);
    CHECK(parse_memory_limit("50%", 1000) == 500);
    CHECK(parse_memory_limit("12.5%", 1000) == 125);
    CHECK(parse_memory_limit("100%", 1000) == 1000);
    for (const char* bad : {"", "abc", "50 %", "150%", "-1", "1e9", "%", "12GB"})
        CHECK_THROWS_AS(parse_memory_limit(bad, 1000), std::invalid_argument);
    CHECK_THROWS_WITH(parse_memory_limit("lots", 1000),
                      "GPY_GPU_MEMORY_LIMIT (or CUPY_GPU_MEMORY_LIMIT) must be a number of bytes or a percentage such as 50%, got 'lots'");
}

TEST_CASE("device pool: CuPy's counters (its documented sequence)", "[device_pool]") {
    // CuPy's memory-management page: a 400-byte array makes used and total
    // 512; dropping it leaves total 512 in one free block; free_all_blocks
    // leaves nothing. total_bytes is used + cached in CuPy's sense.
    FakeDriver drv;
    BlockPool pool(drv);
    CHECK(pool.used_bytes() + pool.cached_bytes() == 0);
    uintptr_t a = pool.allocate(400, S1);
    CHECK(pool.used_bytes() == 512);
    CHECK(pool.used_bytes() + pool.cached_bytes() == 512);
    pool.free(a);
    CHECK(pool.used_bytes() == 0);
    CHECK(pool.used_bytes() + pool.cached_bytes() == 512);
    CHECK(pool.n_cached_blocks() == 1);
    uintptr_t big = pool.allocate(4 * MiB, S1);  // a new segment: the cached block stays cached
    CHECK(pool.cached_bytes() == 512);
    pool.free(big);
    CHECK(pool.cached_bytes() == 512 + 4 * MiB);
    CHECK(pool.n_cached_blocks() == 2);
    pool.free_all_blocks();
    uintptr_t b = pool.allocate(300, S1);
    CHECK(pool.cached_bytes() == 0);
    pool.free(b);
    b = pool.allocate(300, S1);  // reuses the cached block
    CHECK(pool.cached_bytes() == 0);
    CHECK(pool.n_cached_blocks() == 0);
    pool.free(b);
    pool.free_all_blocks();
    CHECK(pool.used_bytes() + pool.cached_bytes() == 0);
    CHECK(pool.n_cached_blocks() == 0);
    CHECK(pool.total_bytes() == 0);  // the segment went back to the device too
}
