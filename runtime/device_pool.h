// Pooled memory for the CUDA backend: a caching allocator per device (and one
// for pinned host staging memory) in the manner of CuPy's MemoryPool, with
// stream-safe reuse CuPy lacks.
//
// `BlockPool` is the bookkeeping, independent of CUDA: it talks to the device
// through `PoolBackend` (segments, events), so tests/unit/test_device_pool.cpp
// drives it with a fake driver on machines without a GPU.
//
//  - Sizes are rounded up to 512 bytes. Large segments come from the backend
//    and are split into blocks; a request takes the best-fitting free block
//    (smallest, then lowest address), splitting off the rest; a freed block
//    coalesces with its free neighbours of the same segment.
//  - Free lists are per stream. A block freed on stream A is reused at once by
//    A (stream order protects it); stream B takes it only once an event
//    recorded on A at free time has completed (queried, never waited for).
//    Until a second stream is seen no event is recorded (the common one-
//    stream case pays nothing); when one appears, one event per stream fences
//    the blocks freed before.
//  - A limit (0 = none) caps total_bytes(). When a segment cannot be had
//    (over the limit or the device is full) the pool frees its cached fully
//    free segments, retries, and then throws OutOfMemory; it stays consistent.
//
// Thread-safe (one mutex per pool).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace gpy::cuda {

// A stream as the pool sees it: an opaque key (a CUstream; nullptr is the
// legacy default stream).
using StreamKey = void*;
// Host code as a user of pinned memory: blocks freed on a stream are handed to
// it only after their event completed.
inline const StreamKey kHostStream = reinterpret_cast<StreamKey>(~uintptr_t(0));

// What BlockPool needs from a device.
struct PoolBackend {
    virtual ~PoolBackend() = default;
    // A new segment of `bytes`, or 0 when the device has no memory for it
    // (other failures throw).
    virtual uintptr_t allocate_segment(size_t bytes) = 0;
    virtual void free_segment(uintptr_t ptr) = 0;
    // An event recorded now on `stream`, later passed to event_done and once
    // to release_event.
    virtual void* record_event(StreamKey stream) = 0;
    virtual bool event_done(void* event) = 0;
    virtual void release_event(void* event) = 0;
};

// The pool could not satisfy a request. what() reads (CuPy's wording)
// "Out of memory allocating 1,024 bytes (allocated so far: 2,048 bytes, limit set to: 2,560 bytes)."
// A std::bad_alloc, so the interpreter raises it as a catchable MemoryError.
struct OutOfMemory : std::bad_alloc {
    OutOfMemory(size_t requested, size_t in_use, size_t limit);
    const char* what() const noexcept override { return message.c_str(); }
    std::string message;
    size_t requested, in_use, limit;  // limit 0: none set
};

class BlockPool {
public:
    static constexpr size_t kRound = 512;
    static size_t round_size(size_t bytes) { return (bytes + kRound - 1) / kRound * kRound; }

    explicit BlockPool(PoolBackend& backend) : backend_(backend) {}
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;
    // Gives back the cached segments; blocks still in use are left to the driver.
    ~BlockPool();

    // A block of at least `bytes` for use on `stream`; 0 for 0 bytes.
    uintptr_t allocate(size_t bytes, StreamKey stream);
    // Returns a block. `last_stream` is where it was last used (default: the
    // stream it was allocated for); its event is recorded there.
    void free(uintptr_t ptr);
    void free(uintptr_t ptr, StreamKey last_stream);

    // CuPy's counters: bytes in blocks handed out, and bytes held from the device.
    size_t used_bytes() const;
    size_t total_bytes() const;
    size_t free_bytes() const { return total_bytes() - used_bytes(); }
    size_t n_free_blocks() const;
    size_t n_segments() const;
    // CuPy's view of the pool, which hands out device memory in blocks of
    // their own size: the bytes and number of blocks freed and kept for
    // reuse (not the never-used rest of a segment). CuPy's total_bytes is
    // used_bytes() + cached_bytes(); free_all_blocks() forgets them.
    size_t cached_bytes() const;
    size_t n_cached_blocks() const;
    // Gives fully free segments back to the device.
    void free_all_blocks();
    void set_limit(size_t bytes);  // 0: no limit
    size_t get_limit() const;

    // Before a stream is destroyed: its free blocks, and blocks allocated on
    // it that are freed later, become usable by other streams once the work
    // queued on it so far completes. No event is recorded on it afterwards.
    void retire_stream(StreamKey stream);

private:
    struct Segment;
    struct Block {
        uintptr_t ptr = 0;
        size_t size = 0;
        Segment* segment = nullptr;
        Block* prev = nullptr;  // address neighbours within the segment
        Block* next = nullptr;
        bool allocated = false;
        StreamKey stream = nullptr;  // allocated for / free list it is on
        // Free blocks: the event other streams wait for; null once it completed
        // (or before a second stream was seen: see `fenced_`).
        std::shared_ptr<void> event;
    };
    struct Segment {
        uintptr_t ptr = 0;
        size_t size = 0;
        Block* first = nullptr;
    };
    struct BySize {
        bool operator()(const Block* a, const Block* b) const {
            return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
        }
    };
    using FreeList = std::set<Block*, BySize>;

    uintptr_t allocate_locked(size_t bytes, StreamKey stream);
    Block* take_allocated(uintptr_t ptr);
    void free_locked(Block* b, StreamKey last_stream);
    Block* take_free(size_t size, StreamKey stream);
    bool ready_for_others(Block* b);
    Block* new_segment(size_t size, StreamKey stream);
    bool release_free_segments();
    void split(Block* b, size_t size);
    void insert_free(Block* b);
    void erase_free(Block* b);
    void merge_into(Block* keep, Block* gone);
    std::shared_ptr<void> record(StreamKey stream);
    void note_stream(StreamKey stream);

    PoolBackend& backend_;
    mutable std::mutex mu_;
    std::map<StreamKey, FreeList> free_;
    std::unordered_map<uintptr_t, Block*> allocated_;
    std::map<uintptr_t, std::unique_ptr<Segment>> segments_;
    std::set<StreamKey> streams_seen_;
    bool fenced_ = false;  // events are recorded at free time (more than one stream seen)
    size_t used_ = 0, total_ = 0, limit_ = 0;
    size_t cached_ = 0, cached_blocks_ = 0;  // CuPy's view (cached_bytes)
};

// Parses GPY_GPU_MEMORY_LIMIT: bytes ("1073741824") or a percentage of the
// device's memory ("50%", "12.5%"). Throws std::invalid_argument naming the
// variable for anything else.
size_t parse_memory_limit(const std::string& text, size_t device_total);

// The pool of device `index` (created on first use, limit from
// GPY_GPU_MEMORY_LIMIT): device memory, or CUDA managed memory when
// `managed` (a separate pool, on request: np.cuda.malloc_managed), and the
// process's pinned host pool.
BlockPool& device_pool(int index, bool managed = false);
BlockPool& pinned_pool();

}  // namespace gpy::cuda
