// The hardware floor under gpy's "tiny statement" (bench/gpu/workloads.gpy):
// one kernel per statement, z = z * 1.0001 + 0.5 on 1,000 float32, written
// directly against the CUDA runtime with no interpreter, no allocator and no
// argument packing. Prints microseconds per statement for device memory and
// managed memory (gpy's arrays live in managed memory), the host time of the
// launch call alone, and an empty kernel.
//
//   nvcc -O2 -arch=native -o /tmp/launch_floor bench/gpu/launch_floor.cu && /tmp/launch_floor
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void step(const float* x, float* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = x[i] * 1.0001f + 0.5f;
}
__global__ void empty() {}

using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point t0, int n) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / n; }

// Best of 5 rounds of `iters` statements, alternating two buffers as gpy's pool does.
void measure(const char* what, float* a, float* b, int n) {
    const int iters = 10000;
    double best_total = 1e9, best_launch = 1e9;
    for (int round = 0; round < 5; ++round) {
        cudaDeviceSynchronize();
        auto t0 = Clock::now();
        for (int i = 0; i < iters; ++i) {
            if (n) step<<<1, 256>>>(i & 1 ? b : a, i & 1 ? a : b, n);
            else empty<<<1, 32>>>();
        }
        double launch = us_since(t0, iters);
        cudaDeviceSynchronize();
        double total = us_since(t0, iters);
        if (total < best_total) best_total = total, best_launch = launch;
    }
    std::printf("%-34s %6.2f us per statement (launch calls alone %5.2f us)\n", what, best_total, best_launch);
}

int main() {
    const int n = 1000;
    float *da, *db, *ma, *mb;
    cudaMalloc(&da, n * 4);
    cudaMalloc(&db, n * 4);
    cudaMallocManaged(&ma, n * 4);
    cudaMallocManaged(&mb, n * 4);
    cudaMemset(da, 0, n * 4);
    cudaMemset(ma, 0, n * 4);
    measure("empty kernel", nullptr, nullptr, 0);
    measure("z*1.0001+0.5, device memory", da, db, n);
    measure("z*1.0001+0.5, managed memory", ma, mb, n);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
