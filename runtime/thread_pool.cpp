// The CPU worker pool: see thread_pool.h for the contract.
#include "runtime/thread_pool.h"

#include "base/interrupt.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpy {

namespace {

// True on pool workers and on a caller while it runs its own loop.
thread_local bool tl_in_parallel = false;

struct Job {
    const std::function<void(int64_t, int64_t)>* fn = nullptr;
    int64_t n = 0, chunk = 1, chunks = 0;
    std::atomic<int64_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex error_mutex;
    std::exception_ptr error;
    // The calling interpreter's Ctrl-C flag: polled before each range.
    volatile std::sig_atomic_t* interrupt = nullptr;
    std::atomic<bool> interrupted{false};

    void run_chunks() {
        while (!stop.load(std::memory_order_relaxed)) {
            if (interrupt && *interrupt) {
                interrupted.store(true, std::memory_order_relaxed);
                stop.store(true, std::memory_order_relaxed);
                break;
            }
            int64_t c = next.fetch_add(1, std::memory_order_relaxed);
            if (c >= chunks) break;
            int64_t begin = c * chunk;
            int64_t end = std::min(n, begin + chunk);
            try {
                (*fn)(begin, end);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) error = std::current_exception();
                stop.store(true, std::memory_order_relaxed);
            }
        }
    }
};

int configured_threads() {
    if (const char* env = std::getenv("GPY_NUM_THREADS"); env && *env) {
        char* end = nullptr;
        long v = std::strtol(env, &end, 10);
        if (end && *end == '\0' && v >= 1) return int(std::min<long>(v, 1024));
    }
    unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : int(std::min<unsigned>(hw, 1024));
}

class Pool {
public:
    explicit Pool(int threads) : threads_(threads) {
        for (int i = 1; i < threads_; ++i) workers_.emplace_back([this] { worker(); });
    }
    // Never destroyed (see pool()).

    int threads() const { return threads_; }

    // Runs the job on the caller and all workers; false (nothing run) when
    // another caller holds the pool.
    bool run(Job& job) {
        std::unique_lock<std::mutex> owner(run_mutex_, std::try_to_lock);
        if (!owner.owns_lock()) return false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            job_ = &job;
            active_ = int(workers_.size());
            ++generation_;
        }
        work_cv_.notify_all();
        tl_in_parallel = true;
        job.run_chunks();
        tl_in_parallel = false;
        std::unique_lock<std::mutex> lock(mutex_);
        done_cv_.wait(lock, [&] { return active_ == 0; });
        job_ = nullptr;
        return true;
    }

private:
    void worker() {
        tl_in_parallel = true;
        uint64_t seen = 0;
        for (;;) {
            std::unique_lock<std::mutex> lock(mutex_);
            work_cv_.wait(lock, [&] { return generation_ != seen; });
            seen = generation_;
            Job* job = job_;
            lock.unlock();
            job->run_chunks();
            lock.lock();
            if (--active_ == 0) done_cv_.notify_one();
        }
    }

    const int threads_;
    std::vector<std::thread> workers_;
    std::mutex run_mutex_;  // one parallel_for at a time owns the workers
    std::mutex mutex_;
    std::condition_variable work_cv_, done_cv_;
    uint64_t generation_ = 0;
    Job* job_ = nullptr;
    int active_ = 0;
};

Pool& pool() {
    // Leaked on purpose: workers block forever on the condition variable and
    // die with the process; no std::thread is destroyed while joinable.
    static Pool* p = new Pool(configured_threads());
    return *p;
}

}  // namespace

int num_threads() {
    static const int n = configured_threads();
    return n;
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
    if (n <= 0) return;
    if (grain < 1) grain = 1;
    int threads = num_threads();
    if (n <= grain || tl_in_parallel || (threads == 1 && !t_interrupt_flag)) {
        fn(0, n);
        return;
    }
    // About four ranges per thread for balance. Ranges are whole multiples of
    // grain, so every range begins at a multiple of grain whatever the thread
    // count: with a grain that is a multiple of the vector width, which
    // elements a kernel handles in its vector body and which in its scalar
    // tail (libmvec vs libm for exp, sin...) does not depend on the threads.
    int64_t target = int64_t(threads) * 4;
    int64_t per = (n + target - 1) / target;
    int64_t chunk = ((per + grain - 1) / grain) * grain;
    // A long loop is cut into ranges of at most ~2^20 iterations (rounded to
    // grain), so Ctrl-C stops it within milliseconds, not after a quarter of it.
    const int64_t kMaxChunk = int64_t(1) << 20;
    if (t_interrupt_flag && chunk > kMaxChunk) chunk = std::max(grain, (kMaxChunk / grain) * grain);
    int64_t chunks = (n + chunk - 1) / chunk;
    if (chunks <= 1) {
        fn(0, n);
        return;
    }
    Job job;
    job.fn = &fn;
    job.n = n;
    job.chunk = chunk;
    job.chunks = chunks;
    job.interrupt = t_interrupt_flag;
    if (!pool().run(job)) job.run_chunks();  // the pool is busy with another thread's loop: the same ranges here
    if (job.error) std::rethrow_exception(job.error);
    if (job.interrupted.load()) throw Interrupted();
}

}  // namespace gpy
