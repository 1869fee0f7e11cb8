// cuFFT, loaded with dlopen on first use (like cuBLAS): np.fft's transforms
// on the CUDA backend, in double precision (as the CPU's: NumPy 2 rounds
// its float32 transforms from float64). Looked for where
// dynlib::cuda_library_candidates says ($GPY_CUFFT_LIB first).
#pragma once

#include <cstdint>
#include <string>

namespace gpy::cufft {

// Whether libcufft could be loaded; when not, `why` says what was tried.
bool available(std::string* why = nullptr);

enum class Kind { Forward, Backward, RealForward, RealBackward };

// `batch` transforms of length n on device `device`'s current stream: lines
// of n_in = (RealBackward ? n/2+1 : n) complex128 (RealForward: float64)
// values in `in`, back to back, to lines of n_out = (RealForward ? n/2+1 :
// n) complex128 (RealBackward: float64) values in `out`. Unnormalised.
// RealBackward overwrites `in`. Queued, not waited for. Throws
// std::runtime_error naming the cuFFT status.
void execute(int device, Kind kind, int64_t n, int64_t batch, void* in, void* out);

}  // namespace gpy::cufft
