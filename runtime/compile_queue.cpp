#include "runtime/compile_queue.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/nvrtc.h"

namespace gpy {

namespace {

class CompileQueue {
public:
    ~CompileQueue() { stop(); }

    // Lets running compiles finish, drops queued ones, and joins the workers.
    void stop() {
        {
            std::lock_guard<std::mutex> lock(mu_);
            stop_ = true;
            jobs_.clear();  // their futures report a broken promise; nobody waits at exit
            idle_.clear();
        }
        cv_.notify_all();
        for (std::thread& t : workers_)
            if (t.joinable()) t.join();
    }

    std::shared_future<std::string> submit(std::function<std::string()> job, CompilePriority priority) {
        std::packaged_task<std::string()> task(std::move(job));
        std::shared_future<std::string> result = task.get_future().share();
        std::lock_guard<std::mutex> lock(mu_);
        if (stop_) return result;  // after finish_background_compiles: never runs (a broken promise)
        if (priority == CompilePriority::Urgent) jobs_.push_front(std::move(task));
        else if (priority == CompilePriority::Normal) jobs_.push_back(std::move(task));
        else idle_.push_back(std::move(task));
        // NVRTC uses one core per compile and ~100 MB: a few at once, leaving
        // a core to the program.
        const size_t most = std::clamp<size_t>(std::thread::hardware_concurrency(), 2, 5) - 1;
        if (workers_.size() < std::min(most, jobs_.size() + idle_.size() + busy_)) workers_.emplace_back([this] { work(); });
        cv_.notify_one();
        return result;
    }

private:
    void work() {
        std::unique_lock<std::mutex> lock(mu_);
        for (;;) {
            cv_.wait(lock, [this] { return stop_ || !jobs_.empty() || !idle_.empty(); });
            if (stop_) return;
            auto& from = jobs_.empty() ? idle_ : jobs_;
            std::packaged_task<std::string()> task = std::move(from.front());
            from.pop_front();
            ++busy_;
            lock.unlock();
            task();
            lock.lock();
            --busy_;
        }
    }

    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::packaged_task<std::string()>> jobs_;  // urgent, then normal
    std::deque<std::packaged_task<std::string()>> idle_;
    std::vector<std::thread> workers_;
    size_t busy_ = 0;
    bool stop_ = false;
};

std::atomic<bool> g_created{false};

CompileQueue& queue() {
    // NVRTC's statics first, those its first compile creates included:
    // destroyed at exit after the queue, whose destructor waits for the
    // compiles that use them (else a compile running at exit crashes).
    static bool nvrtc_initialised = [] {
        try {
            nvrtc::compile("extern \"C\" __global__ void gpy_queue_init() {}", "gpy_queue_init.cu", "sm_80");
        } catch (const nvrtc::CompileError&) {
            // The jobs report what is wrong.
        }
        return true;
    }();
    (void)nvrtc_initialised;
    static CompileQueue q;
    g_created.store(true);
    return q;
}

}  // namespace

std::shared_future<std::string> compile_in_background(std::function<std::string()> job, CompilePriority priority) {
    return queue().submit(std::move(job), priority);
}

void finish_background_compiles() {
    if (g_created.load()) queue().stop();
}

}  // namespace gpy
