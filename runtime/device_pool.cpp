#include "runtime/device_pool.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "runtime/cuda_driver.h"

namespace gpy::cuda {

namespace {

// Free blocks of a destroyed stream: reachable only through their event.
const StreamKey kRetiredStream = reinterpret_cast<StreamKey>(~uintptr_t(1));

constexpr size_t kMiB = size_t(1) << 20;

// Segment sizes as PyTorch's caching allocator picks them: small requests
// share 2 MiB segments, medium ones 20 MiB, large ones get their own
// (rounded to 2 MiB), so few cuMemAlloc calls serve many arrays.
size_t segment_size_for(size_t size) {
    if (size <= kMiB) return 2 * kMiB;
    if (size <= 10 * kMiB) return 20 * kMiB;
    return (size + 2 * kMiB - 1) / (2 * kMiB) * (2 * kMiB);
}

std::string with_commas(size_t n) {
    std::string digits = std::to_string(n), s;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) s += ',';
        s += digits[i];
    }
    return s;
}

}  // namespace

OutOfMemory::OutOfMemory(size_t requested, size_t in_use, size_t limit)
    : message("Out of memory allocating " + with_commas(requested) + " bytes (allocated so far: " + with_commas(in_use) +
              " bytes" + (limit ? ", limit set to: " + with_commas(limit) + " bytes" : std::string()) + ")."),
      requested(requested), in_use(in_use), limit(limit) {}

BlockPool::~BlockPool() {
    release_free_segments();
    // Blocks still handed out keep their memory (the driver reclaims it at exit).
    for (auto& [ptr, seg] : segments_) {
        for (Block* b = seg->first; b;) {
            Block* next = b->next;
            delete b;
            b = next;
        }
    }
}

uintptr_t BlockPool::allocate(size_t bytes, StreamKey stream) {
    if (bytes == 0) return 0;
    std::lock_guard<std::mutex> lock(mu_);
    return allocate_locked(bytes, stream);
}

uintptr_t BlockPool::allocate_locked(size_t bytes, StreamKey stream) {
    size_t size = round_size(bytes);
    note_stream(stream);
    Block* b = take_free(size, stream);
    const bool reused = b != nullptr;  // a free block, maybe one freed before (CuPy's cached bytes)
    if (!b) b = new_segment(size, stream);
    // The OOM path: give cached segments back to the device and try once more.
    if (!b && release_free_segments()) b = new_segment(size, stream);
    if (!b) throw OutOfMemory(bytes, used_, limit_);
    split(b, size);
    b->allocated = true;
    b->stream = stream;
    b->event.reset();
    allocated_[b->ptr] = b;
    used_ += b->size;
    // A reuse consumes cached bytes (which freed block it came from is not
    // tracked: CuPy's counters are counts); a new segment's block does not.
    if (reused) {
        const size_t taken = std::min(cached_, b->size);
        cached_ -= taken;
        if (taken && cached_blocks_) --cached_blocks_;
        if (!cached_) cached_blocks_ = 0;
    }
    return b->ptr;
}

void BlockPool::free(uintptr_t ptr) {
    if (ptr == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    Block* b = take_allocated(ptr);
    free_locked(b, b->stream);
}

void BlockPool::free(uintptr_t ptr, StreamKey last_stream) {
    if (ptr == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    free_locked(take_allocated(ptr), last_stream);
}

BlockPool::Block* BlockPool::take_allocated(uintptr_t ptr) {
    auto it = allocated_.find(ptr);
    if (it == allocated_.end()) throw std::invalid_argument("BlockPool::free: pointer not allocated by this pool");
    Block* b = it->second;
    allocated_.erase(it);
    return b;
}

void BlockPool::free_locked(Block* b, StreamKey last_stream) {
    used_ -= b->size;
    cached_ += b->size;
    ++cached_blocks_;
    b->allocated = false;
    if (b->stream == kRetiredStream && last_stream == b->stream) {
        // Allocated on a stream destroyed since: it keeps the event recorded
        // when that stream retired (no event can be recorded on it now).
    } else {
        note_stream(last_stream);
        b->stream = last_stream;
        b->event = fenced_ ? record(last_stream) : nullptr;
    }
    // Coalesce: a neighbour joins if it is free on the same stream or already
    // free for everyone. The merged block keeps b's event, the newest: events
    // of one stream complete in order (retired blocks may come from different
    // streams, so they join only when ready).
    auto joins = [&](Block* n) {
        return n && !n->allocated && ((n->stream == b->stream && b->stream != kRetiredStream) || ready_for_others(n));
    };
    if (Block* p = b->prev; joins(p)) {
        erase_free(p);
        p->stream = b->stream;
        p->event = std::move(b->event);
        merge_into(p, b);
        b = p;
    }
    if (Block* n = b->next; joins(n)) {
        erase_free(n);
        merge_into(b, n);
    }
    insert_free(b);
}

BlockPool::Block* BlockPool::take_free(size_t size, StreamKey stream) {
    Block probe;
    probe.size = size;
    FreeList& own = free_[stream];
    if (auto it = own.lower_bound(&probe); it != own.end()) {
        Block* b = *it;
        own.erase(it);
        return b;
    }
    // Another stream's block, smallest first, once its event shows that stream is done with it.
    Block* best = nullptr;
    for (auto& [key, list] : free_) {
        if (key == stream) continue;
        for (auto it = list.lower_bound(&probe); it != list.end(); ++it) {
            if (best && !BySize{}(*it, best)) break;
            if (ready_for_others(*it)) {
                best = *it;
                break;
            }
        }
    }
    if (best) erase_free(best);
    return best;
}

bool BlockPool::ready_for_others(Block* b) {
    if (b->event && !backend_.event_done(b->event.get())) return false;
    b->event.reset();  // done: no need to ask again
    return true;
}

BlockPool::Block* BlockPool::new_segment(size_t size, StreamKey stream) {
    size_t seg_size = segment_size_for(size);
    auto fits = [&](size_t n) { return limit_ == 0 || total_ + n <= limit_; };
    if (!fits(seg_size)) seg_size = size;  // near the limit: exactly what is asked
    if (!fits(seg_size)) return nullptr;
    uintptr_t ptr = backend_.allocate_segment(seg_size);
    if (!ptr && seg_size > size) ptr = backend_.allocate_segment(seg_size = size);
    if (!ptr) return nullptr;
    auto seg = std::make_unique<Segment>();
    seg->ptr = ptr;
    seg->size = seg_size;
    Block* b = new Block;
    b->ptr = ptr;
    b->size = seg_size;
    b->segment = seg.get();
    b->stream = stream;
    seg->first = b;
    segments_[ptr] = std::move(seg);
    total_ += seg_size;
    return b;
}

bool BlockPool::release_free_segments() {
    bool any = false;
    for (auto it = segments_.begin(); it != segments_.end();) {
        Block* b = it->second->first;
        if (b->allocated || b->next) {
            ++it;
            continue;
        }
        erase_free(b);
        backend_.free_segment(it->second->ptr);
        total_ -= it->second->size;
        delete b;
        it = segments_.erase(it);
        any = true;
    }
    return any;
}

void BlockPool::split(Block* b, size_t size) {
    if (b->size - size < kRound) return;
    Block* rest = new Block;
    rest->ptr = b->ptr + size;
    rest->size = b->size - size;
    rest->segment = b->segment;
    rest->prev = b;
    rest->next = b->next;
    rest->stream = b->stream;  // stays on the free list it came from, with its event
    rest->event = b->event;
    if (b->next) b->next->prev = rest;
    b->next = rest;
    b->size = size;
    insert_free(rest);
}

void BlockPool::insert_free(Block* b) { free_[b->stream].insert(b); }

void BlockPool::erase_free(Block* b) { free_[b->stream].erase(b); }

void BlockPool::merge_into(Block* keep, Block* gone) {
    keep->size += gone->size;
    keep->next = gone->next;
    if (gone->next) gone->next->prev = keep;
    delete gone;
}

std::shared_ptr<void> BlockPool::record(StreamKey stream) {
    // The host needs no event: its frees are ordered with its own allocations.
    if (stream == kHostStream) return nullptr;
    PoolBackend* be = &backend_;
    return std::shared_ptr<void>(be->record_event(stream), [be](void* e) { be->release_event(e); });
}

void BlockPool::note_stream(StreamKey stream) {
    if (!streams_seen_.insert(stream).second || fenced_ || streams_seen_.size() < 2) return;
    // A second stream: blocks freed so far carry no event; one event per
    // stream, recorded now (after those frees), stands in for theirs.
    fenced_ = true;
    for (auto& [key, list] : free_) {
        if (list.empty() || key == kRetiredStream) continue;
        std::shared_ptr<void> ev = record(key);
        for (Block* b : list)
            if (!b->event) b->event = ev;
    }
}

void BlockPool::retire_stream(StreamKey stream) {
    std::lock_guard<std::mutex> lock(mu_);
    // The last event the stream will ever have: all its work is queued.
    std::shared_ptr<void> last = record(stream);
    auto it = free_.find(stream);
    if (it != free_.end()) {
        FreeList& retired = free_[kRetiredStream];
        for (Block* b : it->second) {
            // Without fencing, a block's missing event means "not tracked".
            if (!b->event) b->event = last;
            b->stream = kRetiredStream;
            retired.insert(b);
        }
        free_.erase(it);
    }
    // Blocks still in use that were allocated on it are freed to the retired
    // list later; they wait for the same event (free_locked).
    for (auto& [ptr, b] : allocated_) {
        if (b->stream != stream) continue;
        b->stream = kRetiredStream;
        b->event = last;
    }
    streams_seen_.erase(stream);
}

size_t BlockPool::used_bytes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return used_;
}

size_t BlockPool::total_bytes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return total_;
}

size_t BlockPool::n_free_blocks() const {
    std::lock_guard<std::mutex> lock(mu_);
    size_t n = 0;
    for (auto& [key, list] : free_) n += list.size();
    return n;
}

size_t BlockPool::n_segments() const {
    std::lock_guard<std::mutex> lock(mu_);
    return segments_.size();
}

void BlockPool::free_all_blocks() {
    std::lock_guard<std::mutex> lock(mu_);
    release_free_segments();
    cached_ = cached_blocks_ = 0;
}

size_t BlockPool::cached_bytes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return cached_;
}

size_t BlockPool::n_cached_blocks() const {
    std::lock_guard<std::mutex> lock(mu_);
    return cached_blocks_;
}

void BlockPool::set_limit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    limit_ = bytes;
}

size_t BlockPool::get_limit() const {
    std::lock_guard<std::mutex> lock(mu_);
    return limit_;
}

size_t parse_memory_limit(const std::string& text, size_t device_total) {
    auto bad = [&] {
        return std::invalid_argument("GPY_GPU_MEMORY_LIMIT (or CUPY_GPU_MEMORY_LIMIT) must be a number of bytes or a percentage such as 50%, got '" +
                                     text + "'");
    };
    if (text.empty()) throw bad();
    const char* s = text.c_str();
    char* end = nullptr;
    errno = 0;
    if (text.back() == '%') {
        double pct = std::strtod(s, &end);
        if (end == s || end != s + text.size() - 1 || errno || !std::isfinite(pct) || pct < 0 || pct > 100) throw bad();
        return size_t(double(device_total) * pct / 100.0);
    }
    if (text.find_first_not_of("0123456789") != std::string::npos) throw bad();
    unsigned long long n = std::strtoull(s, &end, 10);
    if (errno) throw bad();
    return size_t(n);
}

namespace {

// True once the work recorded before `event` has finished (never waits).
bool query_event(void* event) {
    CUresult r = api().cuEventQuery(CUevent(event));
    if (r == CUDA_ERROR_NOT_READY) return false;
    check(r, "cuEventQuery(event)");
    return true;
}

// Memory of one GPU through the driver: device memory (cuMemAlloc), whose
// host mirror runtime/cuda_memory.cpp keeps coherent, or CUDA managed memory
// on request, which the host reads in place once the GPU's work is done and
// the driver migrates page by page (slow for the host; it can oversubscribe
// the card, docs/differences.md).
class DeviceBackend final : public PoolBackend {
public:
    DeviceBackend(Device& d, bool managed) : d_(d), managed_(managed) {}
    uintptr_t allocate_segment(size_t bytes) override {
        d_.make_current();
        CUdeviceptr p = 0;
        CUresult r = managed_ ? api().cuMemAllocManaged(&p, bytes, CU_MEM_ATTACH_GLOBAL) : api().cuMemAlloc(&p, bytes);
        if (r == CUDA_ERROR_OUT_OF_MEMORY) return 0;
        check(r, managed_ ? "cuMemAllocManaged(&p, bytes, CU_MEM_ATTACH_GLOBAL)" : "cuMemAlloc(&p, bytes)");
        return uintptr_t(p);
    }
    void free_segment(uintptr_t ptr) override {
        d_.make_current();
        // Work queued on any stream may still use the segment's last blocks.
        GPY_CU(cuCtxSynchronize());
        GPY_CU(cuMemFree(CUdeviceptr(ptr)));
    }
    void* record_event(StreamKey stream) override {
        d_.make_current();
        CUevent e = nullptr;
        if (spare_events_.empty()) {
            GPY_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
        } else {
            e = spare_events_.back();
            spare_events_.pop_back();
        }
        GPY_CU(cuEventRecord(e, CUstream(stream)));
        return e;
    }
    bool event_done(void* event) override { return query_event(event); }
    // Events are reused (creating one costs more than recording it) and live
    // as long as the pool, i.e. the process.
    void release_event(void* event) override { spare_events_.push_back(CUevent(event)); }

private:
    Device& d_;
    bool managed_;
    std::vector<CUevent> spare_events_;
};

// Pinned (page-locked) host memory. Under unified addressing (every 64-bit
// platform CUDA supports) it is usable from every device's context.
class PinnedBackend final : public PoolBackend {
public:
    uintptr_t allocate_segment(size_t bytes) override {
        bind_some_context();
        void* p = nullptr;
        CUresult r = api().cuMemAllocHost(&p, bytes);
        if (r == CUDA_ERROR_OUT_OF_MEMORY) return 0;
        check(r, "cuMemAllocHost(&p, bytes)");
        return uintptr_t(p);
    }
    void free_segment(uintptr_t ptr) override { GPY_CU(cuMemFreeHost(reinterpret_cast<void*>(ptr))); }
    // In the context current on the calling thread: the one of `stream`'s device.
    void* record_event(StreamKey stream) override {
        CUevent e = nullptr;
        GPY_CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
        GPY_CU(cuEventRecord(e, CUstream(stream)));
        return e;
    }
    bool event_done(void* event) override { return query_event(event); }
    void release_event(void* event) override { api().cuEventDestroy(CUevent(event)); }

private:
    static void bind_some_context() {
        CUcontext cur = nullptr;
        GPY_CU(cuCtxGetCurrent(&cur));
        if (!cur) device(0).make_current();
    }
};

template <class B> struct OwnedPool {
    template <class... A> explicit OwnedPool(A&&... a) : backend(std::forward<A>(a)...), pool(backend) {}
    B backend;
    BlockPool pool;
};

}  // namespace

BlockPool& device_pool(int index, bool managed) {
    static std::mutex m;
    // Never destroyed: pools may be used until exit, after static destructors run.
    static auto* pools = new std::map<std::pair<int, bool>, OwnedPool<DeviceBackend>*>();
    std::lock_guard<std::mutex> lock(m);
    auto& slot = (*pools)[{index, managed}];
    if (!slot) {
        Device& d = device(index);
        // Managed memory can oversubscribe the device (pages then thrash
        // between host and GPU); its default limit keeps the pool within the
        // device's memory, so a request beyond it is a MemoryError instead.
        // Device memory cannot oversubscribe: no limit (0) unless one is set,
        // as CuPy's (CUPY_GPU_MEMORY_LIMIT is read too).
        size_t limit = managed ? d.total_memory : 0;
        const char* env = std::getenv("GPY_GPU_MEMORY_LIMIT");
        if (!env || !*env) env = std::getenv("CUPY_GPU_MEMORY_LIMIT");
        if (env && *env) limit = parse_memory_limit(env, d.total_memory);
        slot = new OwnedPool<DeviceBackend>(d, managed);
        slot->pool.set_limit(limit);
    }
    return slot->pool;
}

BlockPool& pinned_pool() {
    static auto* p = new OwnedPool<PinnedBackend>();
    return p->pool;
}

}  // namespace gpy::cuda
