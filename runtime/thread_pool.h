// A process-wide pool of worker threads for CPU kernels.
//
// num_threads() threads share each parallel_for: the caller plus
// num_threads() - 1 persistent workers, started on first use. The count is
// std::thread::hardware_concurrency(), or $GPY_NUM_THREADS when set (>= 1).
//
// parallel_for(n, grain, fn) calls fn(begin, end) on disjoint ranges covering
// [0, n), each a whole multiple of `grain` long (except possibly the last, so
// every begin is a multiple of grain whatever the thread count), and returns
// when all calls have returned. It runs fn(0, n) inline on the caller when
// n <= grain or there is only one thread, and also when called from inside
// another parallel_for or while the pool is busy with another caller's loop
// (so nested and concurrent calls never deadlock). The first exception thrown
// by fn stops the handing out of further ranges and is rethrown to the caller
// once every running call has returned.
#pragma once

#include <cstdint>
#include <functional>

namespace gpy {

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t begin, int64_t end)>& fn);

int num_threads();

}  // namespace gpy
