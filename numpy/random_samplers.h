// One sample of each of np.random's distributions from a sequential source
// of uniforms. The methods are the textbook ones NumPy's also uses
// (Marsaglia-Tsang gamma, Hörmann's PTRS Poisson and BTRS binomial, Kemp's
// logarithmic, Devroye's Zipf, Best-Fisher von Mises, Michael-Schucany-Haas
// Wald), written from the papers: the same distributions, not NumPy's
// streams (NumPy's are PCG64/MT19937; gpy's are Philox, see random.cpp).
#pragma once

#include <cstdint>

#include "runtime/philox.h"

namespace gpy::rng {

// Uniforms in (0, 1) from one Philox key, read in order (a chunk of a draw
// owns one key, so a draw's numbers do not depend on how it was split among
// threads).
class Source {
public:
    explicit Source(uint64_t key) : stream_{key, 0} {}
    double uniform() {
        if (pos_ == kBuf) refill();
        return buf_[pos_++];
    }
    double normal();       // N(0, 1), polar Box-Muller
    double exponential();  // Exp(1)

private:
    static constexpr int kBuf = 128;
    void refill();
    philox::Stream stream_;
    uint64_t next_ = 0;  // the next output index of the stream
    double buf_[kBuf];
    int pos_ = kBuf;
    bool has_spare_ = false;
    double spare_ = 0;
};

// The key of chunk `chunk` of the draw that starts at generator round `base`.
uint64_t chunk_key(uint64_t seed, uint64_t base, uint64_t chunk);

double standard_gamma(Source& s, double shape);
double beta(Source& s, double a, double b);
double chisquare(Source& s, double df);
double noncentral_chisquare(Source& s, double df, double nonc);
double standard_t(Source& s, double df);
double vonmises(Source& s, double mu, double kappa);
double wald(Source& s, double mean, double scale);
double triangular(Source& s, double left, double mode, double right);

int64_t poisson(Source& s, double lam);
int64_t binomial(Source& s, int64_t n, double p);
int64_t geometric(Source& s, double p);
int64_t zipf(Source& s, double a);
int64_t logseries(Source& s, double p);
// Good items among `sample` drawn without replacement from good + bad.
int64_t hypergeometric(Source& s, int64_t good, int64_t bad, int64_t sample);

}  // namespace gpy::rng
