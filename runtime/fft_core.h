// The CPU FFT core behind np.fft: one-dimensional complex and real transforms
// of any length n >= 1, in float or double, with no dependencies beyond the
// standard library.
//
// Lengths whose prime factors are small run a mixed-radix Stockham FFT
// (radix 4, 2, 3, 5 butterflies, radix 8 for arrays of 256 MB and more, and a
// generic butterfly for odd primes up to 127);
// lengths with a large prime factor run Bluestein's chirp-z algorithm, a
// convolution done with FFTs of a 2^a 3^b 5^c length >= 2n - 1. Twiddles are
// computed in long double and rounded once, so float and double get errors of
// about eps * log2(n) relative RMS, like NumPy's pocketfft.
//
// A Plan is built once per (n, precision) and is immutable afterwards: any
// number of threads may execute the same plan at the same time. Execution
// takes its scratch from a per-thread buffer (kept between calls up to a
// limit), so repeated calls do not allocate. Building a plan costs about as
// much as a few executions: callers should cache plans (as NumPy does).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace gpy::fft {

namespace detail {
template <class T>
struct PlanData;
}

template <class T>
class Plan {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "Plan<float> or Plan<double>");

public:
    // Throws std::invalid_argument for n < 1.
    explicit Plan(int64_t n);
    ~Plan();
    Plan(Plan&&) noexcept;
    Plan& operator=(Plan&&) noexcept;

    int64_t size() const { return n_; }

    // out[k] = fct * sum_j in[j] * exp(sign * 2*pi*i*j*k/n), sign = -1 forward,
    // +1 backward. in and out are contiguous length-n arrays and may be the
    // same array.
    void c2c(const std::complex<T>* in, std::complex<T>* out, bool backward, T fct) const;

    // Real input of length n -> the n/2+1 complex outputs k = 0..n/2 of the
    // forward (sign -1) transform, times fct.
    void r2c(const T* in, std::complex<T>* out, T fct) const;

    // n/2+1 complex inputs, the first half of a Hermitian spectrum -> the n
    // real outputs of the backward (sign +1) transform, times fct. The
    // imaginary parts of in[0] (and of in[n/2] for even n) are ignored, as in
    // NumPy.
    void c2r(const std::complex<T>* in, T* out, T fct) const;

private:
    int64_t n_;
    std::unique_ptr<const detail::PlanData<T>> d_;
};

extern template class Plan<float>;
extern template class Plan<double>;

}  // namespace gpy::fft
