// NumPy 2's array and scalar printing; see array_print.h.
//
// Layout of this file:
//   1. a small fixed-size big integer;
//   2. Dragon4 digit generation (shortest "unique" digits with optional
//      cutoffs, or exact digits), as NumPy's dragon4.c defines it;
//   3. positional / scientific layout (trim modes, padding) on those digits;
//   4. the formatters of numpy/_core/arrayprint.py (FloatingFormat,
//      ComplexFloatingFormat, IntegerFormat, BoolFormat);
//   5. _formatArray (nesting, wrapping, summarisation) and str/repr;
//   6. scalar str/repr (scalartypes.c.src rules).
#include "lang/utf8.h"
#include "numpy/array_print.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gpy {

namespace {

// ---------------------------------------------------------------------------
// 1. Big unsigned integer, little-endian 32-bit limbs. Large enough for every
// float64 (values and scales stay below ~1200 bits).

class Big {
public:
    static constexpr int kLimbs = 80;

    Big() = default;
    explicit Big(uint64_t v) { set(v); }

    void set(uint64_t v) {
        n_ = 0;
        while (v) {
            d_[n_++] = uint32_t(v);
            v >>= 32;
        }
    }
    void set_pow2(int e) {
        n_ = e / 32 + 1;
        for (int i = 0; i < n_; ++i) d_[i] = 0;
        d_[n_ - 1] = uint32_t(1) << (e % 32);
    }
    bool is_zero() const { return n_ == 0; }

    void mul_small(uint32_t m) {
        uint64_t carry = 0;
        for (int i = 0; i < n_; ++i) {
            uint64_t p = uint64_t(d_[i]) * m + carry;
            d_[i] = uint32_t(p);
            carry = p >> 32;
        }
        if (carry) push(uint32_t(carry));
        if (m == 0) n_ = 0;
    }
    void mul_pow10(int k) {
        static const uint32_t kPow[10] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                          1000000000};
        while (k >= 9) {
            mul_small(kPow[9]);
            k -= 9;
        }
        if (k > 0) mul_small(kPow[k]);
    }
    void shl(int bits) {
        if (n_ == 0 || bits == 0) return;
        int limbs = bits / 32, b = bits % 32;
        if (n_ + limbs + 1 > kLimbs) throw std::length_error("Big overflow");
        if (b == 0) {
            for (int i = n_ - 1; i >= 0; --i) d_[i + limbs] = d_[i];
        } else {
            d_[n_ + limbs] = 0;
            for (int i = n_ - 1; i >= 0; --i) {
                d_[i + limbs + 1] |= d_[i] >> (32 - b);
                d_[i + limbs] = d_[i] << b;
            }
        }
        for (int i = 0; i < limbs; ++i) d_[i] = 0;
        n_ += limbs + 1;
        trim();
    }
    // this = a + b
    void set_sum(const Big& a, const Big& b) {
        const Big& lo = a.n_ < b.n_ ? a : b;
        const Big& hi = a.n_ < b.n_ ? b : a;
        uint64_t carry = 0;
        int n = hi.n_;
        for (int i = 0; i < n; ++i) {
            uint64_t s = uint64_t(hi.d_[i]) + (i < lo.n_ ? lo.d_[i] : 0) + carry;
            d_[i] = uint32_t(s);
            carry = s >> 32;
        }
        n_ = n;
        if (carry) push(uint32_t(carry));
    }
    // this -= b, requires this >= b
    void sub(const Big& b) {
        int64_t borrow = 0;
        for (int i = 0; i < n_; ++i) {
            int64_t s = int64_t(d_[i]) - (i < b.n_ ? int64_t(b.d_[i]) : 0) - borrow;
            borrow = s < 0;
            d_[i] = uint32_t(s + (borrow << 32));
        }
        trim();
    }
    friend int cmp(const Big& a, const Big& b) {
        if (a.n_ != b.n_) return a.n_ < b.n_ ? -1 : 1;
        for (int i = a.n_ - 1; i >= 0; --i)
            if (a.d_[i] != b.d_[i]) return a.d_[i] < b.d_[i] ? -1 : 1;
        return 0;
    }
    // this %= s, returning the quotient (the caller guarantees it is < 10)
    uint32_t divmod_digit(const Big& s) {
        uint32_t q = 0;
        while (cmp(*this, s) >= 0) {
            sub(s);
            ++q;
        }
        return q;
    }

private:
    void push(uint32_t v) {
        if (n_ >= kLimbs) throw std::length_error("Big overflow");
        d_[n_++] = v;
    }
    void trim() {
        while (n_ > 0 && d_[n_ - 1] == 0) --n_;
    }
    uint32_t d_[kLimbs] = {};
    int n_ = 0;
};

// ---------------------------------------------------------------------------
// 2. Dragon4.

// A finite float taken apart: value = mantissa * 2^exponent.
struct FloatParts {
    bool negative = false;
    bool is_nan = false, is_inf = false;
    uint64_t mantissa = 0;
    int exponent = 0;
    int mantissa_bit = 0;           // index of the highest set bit of mantissa
    bool unequal_margins = false;   // the gap below is half the gap above
};

int highest_bit(uint64_t v) {
    int b = -1;
    while (v) {
        ++b;
        v >>= 1;
    }
    return b;
}

FloatParts decompose(DType t, uint64_t bits) {
    int mbits, ebits, bias;
    switch (t) {
        case DType::Float16: mbits = 10, ebits = 5, bias = 15; break;
        case DType::Float32: mbits = 23, ebits = 8, bias = 127; break;
        default: mbits = 52, ebits = 11, bias = 1023; break;
    }
    FloatParts p;
    uint64_t frac = bits & ((uint64_t(1) << mbits) - 1);
    uint64_t bexp = (bits >> mbits) & ((uint64_t(1) << ebits) - 1);
    p.negative = (bits >> (mbits + ebits)) & 1;
    if (bexp == (uint64_t(1) << ebits) - 1) {
        if (frac) p.is_nan = true;
        else p.is_inf = true;
        return p;
    }
    if (bexp != 0) {
        p.mantissa = (uint64_t(1) << mbits) | frac;
        p.exponent = int(bexp) - bias - mbits;
        p.mantissa_bit = mbits;
        p.unequal_margins = bexp != 1 && frac == 0;
    } else {
        p.mantissa = frac;
        p.exponent = 1 - bias - mbits;
        p.mantissa_bit = frac ? highest_bit(frac) : 0;
        p.unequal_margins = false;
    }
    return p;
}

enum class Cutoff { Total, Fraction };

struct Digits {
    std::string d;  // significant digits, first one non-zero unless the value is 0
    int exp10 = 0;  // decimal exponent of the first digit
};

// NumPy's "output buffer" limit; only reachable by exact-mode digits of huge
// or tiny values, kept so such output is cut where NumPy cuts it.
constexpr int kBufferSize = 16384;

Digits dragon4(const FloatParts& f, bool unique, Cutoff mode, int cutoff_max, int cutoff_min,
               int buffer_size) {
    Digits out;
    if (f.mantissa == 0) {
        out.d = "0";
        out.exp10 = 0;
        return out;
    }
    const bool even = (f.mantissa & 1) == 0;
    Big scale, value, mlow, mhigh;
    value.set(f.mantissa);
    const bool unequal = f.unequal_margins;
    // value/scale is the number, mlow/scale and mhigh/scale half the gaps to
    // its neighbours; everything carries a factor 2 (4 with unequal gaps).
    const int extra = unequal ? 2 : 1;
    if (f.exponent > 0) {
        value.shl(f.exponent + extra);
        scale.set(uint64_t(1) << extra);
        mlow.set_pow2(f.exponent);
    } else {
        value.shl(extra);
        scale.set_pow2(-f.exponent + extra);
        mlow.set(1);
    }
    auto refresh_high = [&] {
        if (unequal) {
            mhigh = mlow;
            mhigh.shl(1);
        }
    };
    refresh_high();
    const Big& high_margin = unequal ? mhigh : mlow;

    // Estimate of floor(log10(v)) + 1: exact or one too small.
    int k = int(std::ceil(double(f.mantissa_bit + f.exponent) * 0.30102999566398119521373889472449 - 0.69));
    if (cutoff_max >= 0 && mode == Cutoff::Fraction && k <= -cutoff_max) k = -cutoff_max + 1;
    if (k > 0) {
        scale.mul_pow10(k);
    } else if (k < 0) {
        value.mul_pow10(-k);
        mlow.mul_pow10(-k);
        refresh_high();
    }
    if (cmp(value, scale) >= 0) {
        k += 1;
    } else {
        value.mul_small(10);
        mlow.mul_small(10);
        refresh_high();
    }

    int cut_max = k - buffer_size;
    if (cutoff_max >= 0) {
        int want = mode == Cutoff::Total ? k - cutoff_max : -cutoff_max;
        cut_max = std::max(cut_max, want);
    }
    int cut_min = k;
    if (cutoff_min >= 0) {
        int want = mode == Cutoff::Total ? k - cutoff_min : -cutoff_min;
        cut_min = std::min(cut_min, want);
    }
    out.exp10 = k - 1;

    bool low = false, high = false;
    uint32_t digit = 0;
    if (unique) {
        Big value_high;
        for (;;) {
            --k;
            digit = value.divmod_digit(scale);
            value_high.set_sum(value, high_margin);
            int c = cmp(value, mlow);
            low = even ? c <= 0 : c < 0;
            c = cmp(value_high, scale);
            high = even ? c >= 0 : c > 0;
            if (((low || high) && k <= cut_min) || k == cut_max) break;
            out.d.push_back(char('0' + digit));
            value.mul_small(10);
            mlow.mul_small(10);
            refresh_high();
        }
    } else {
        for (;;) {
            --k;
            digit = value.divmod_digit(scale);
            if (value.is_zero() || k == cut_max) break;
            out.d.push_back(char('0' + digit));
            value.mul_small(10);
        }
    }

    bool round_down = low;
    if (low == high) {
        value.shl(1);
        int c = cmp(value, scale);
        round_down = c < 0;
        if (c == 0) round_down = (digit & 1) == 0;
    }
    if (round_down) {
        out.d.push_back(char('0' + digit));
    } else if (digit < 9) {
        out.d.push_back(char('0' + digit + 1));
    } else {
        // carry through trailing nines
        for (;;) {
            if (out.d.empty()) {
                out.d = "1";
                out.exp10 += 1;
                break;
            }
            char last = out.d.back();
            out.d.pop_back();
            if (last != '9') {
                out.d.push_back(char(last + 1));
                break;
            }
        }
    }
    return out;
}

// ---------------------------------------------------------------------------
// 3. Layout.

enum class Trim { None, Zeros, LeaveOneZero, DptZeros };

Trim trim_from_char(char c) {
    switch (c) {
        case 'k': return Trim::None;
        case '.': return Trim::Zeros;
        case '0': return Trim::LeaveOneZero;
        case '-': return Trim::DptZeros;
        default: throw std::invalid_argument("trim must be one of 'k', '.', '0', '-'");
    }
}

std::string inf_nan_text(const FloatParts& f, bool sign) {
    if (f.is_nan) return "nan";
    if (f.negative) return "-inf";
    return sign ? "+inf" : "inf";
}

std::string positional(const FloatParts& f, bool unique, Cutoff mode, int precision, int min_digits,
                       bool sign, Trim trim, int pad_left, int pad_right) {
    if (f.is_nan || f.is_inf) return inf_nan_text(f, sign);
    std::string s;
    int has_sign = 0;
    if (f.negative) {
        s = "-";
        has_sign = 1;
    } else if (sign) {
        s = "+";
        has_sign = 1;
    }
    const int max_print = kBufferSize - 1;
    Digits dg = dragon4(f, unique, mode, precision, min_digits, max_print - has_sign);
    const int ndig = int(dg.d.size());
    int whole = 0, frac = 0;
    if (dg.exp10 >= 0) {
        whole = dg.exp10 + 1;
        if (ndig <= whole) {
            s += dg.d;
            s.append(size_t(whole - ndig), '0');
        } else {
            s += dg.d.substr(0, size_t(whole));
            s += '.';
            s += dg.d.substr(size_t(whole));
            frac = ndig - whole;
        }
    } else {
        int zeros = -(dg.exp10 + 1);
        s += "0.";
        s.append(size_t(zeros), '0');
        s += dg.d;
        frac = zeros + ndig;
        whole = 1;
    }
    if (trim != Trim::DptZeros && frac == 0) s += '.';

    int add = unique ? min_digits : precision;
    int desired = add < 0 ? 0 : add;
    if (mode == Cutoff::Total) desired = add - whole;

    if (trim == Trim::LeaveOneZero) {
        if (frac == 0) {
            s += '0';
            ++frac;
        }
    } else if (trim == Trim::None && desired > frac) {
        s.append(size_t(desired - frac), '0');
        frac = desired;
    }
    if (trim != Trim::None && frac > 0) {
        while (s.back() == '0') {
            s.pop_back();
            --frac;
        }
        if (s.back() == '.') {
            if (trim == Trim::LeaveOneZero) {
                s += '0';
                ++frac;
            } else if (trim == Trim::DptZeros) {
                s.pop_back();
            }
        }
    }
    if (pad_right >= frac) {
        int count = pad_right - frac;
        if (trim == Trim::DptZeros && frac == 0) s += ' ';
        s.append(size_t(count), ' ');
    }
    if (pad_left > whole + has_sign) s.insert(0, size_t(pad_left - whole - has_sign), ' ');
    return s;
}

std::string scientific(const FloatParts& f, bool unique, int precision, int min_digits, bool sign,
                       Trim trim, int pad_left, int exp_digits) {
    if (f.is_nan || f.is_inf) return inf_nan_text(f, sign);
    std::string s;
    bool has_sign = f.negative || sign;
    int leftchars = 1 + (has_sign ? 1 : 0);
    if (pad_left > leftchars) s.append(size_t(pad_left - leftchars), ' ');
    if (f.negative) s += '-';
    else if (sign) s += '+';
    Digits dg = dragon4(f, unique, Cutoff::Total, precision < 0 ? -1 : precision + 1,
                        min_digits < 0 ? -1 : min_digits + 1, kBufferSize - int(s.size()));
    s += dg.d[0];
    int frac = int(dg.d.size()) - 1;
    if (frac > 0) {
        s += '.';
        s += dg.d.substr(1);
    }
    if (trim != Trim::DptZeros && frac == 0) s += '.';
    int add = unique ? min_digits : precision;
    if (add < 0) add = 0;
    if (trim == Trim::LeaveOneZero) {
        if (frac == 0) {
            s += '0';
            ++frac;
        }
    } else if (trim == Trim::None && add > frac) {
        s.append(size_t(add - frac), '0');
        frac = add;
    }
    if (trim != Trim::None && frac > 0) {
        while (s.back() == '0') {
            s.pop_back();
            --frac;
        }
        if (trim == Trim::LeaveOneZero && s.back() == '.') {
            s += '0';
            ++frac;
        }
    }
    if (exp_digits > 5) exp_digits = 5;
    if (exp_digits < 0) exp_digits = 2;
    int e = dg.exp10;
    s += 'e';
    s += e >= 0 ? '+' : '-';
    // five digits, leading zeros dropped down to exp_digits (none for 0 if exp_digits is 0)
    std::string ed = std::to_string(e < 0 ? -e : e);
    if (ed.size() < 5) ed.insert(0, 5 - ed.size(), '0');
    size_t keep = 5;
    while (keep > size_t(exp_digits) && ed[5 - keep] == '0') --keep;
    s += ed.substr(5 - keep);
    return s;
}

// ---------------------------------------------------------------------------
// Element access.

uint64_t load_bits(const uint8_t* p, size_t n) {
    uint64_t v = 0;
    std::memcpy(&v, p, n);  // little-endian host
    return v;
}

DType component_type(DType t) {
    if (t == DType::Complex64) return DType::Float32;
    if (t == DType::Complex128) return DType::Float64;
    return t;
}

// One float of a float dtype: its bits (for Dragon4) and its exact value.
struct FVal {
    uint64_t bits = 0;
    double v = 0;
};

FVal make_fval(DType ft, uint64_t bits) {
    FVal f;
    f.bits = bits;
    switch (ft) {
        case DType::Float16: f.v = half_to_double(uint16_t(bits)); break;
        case DType::Float32: {
            float x;
            uint32_t b = uint32_t(bits);
            std::memcpy(&x, &b, 4);
            f.v = x;
            break;
        }
        default: std::memcpy(&f.v, &bits, 8); break;
    }
    return f;
}

// Element (or complex component `part`) of float-ish type t at p.
FVal load_float(DType t, const uint8_t* p, int part = 0) {
    DType ft = component_type(t);
    size_t n = itemsize(ft);
    return make_fval(ft, load_bits(p + part * n, n));
}

// Rounds x to the nearest value of float type ft (round half even).
double round_to(DType ft, double x) {
    if (ft == DType::Float64) return x;
    if (ft == DType::Float32) return double(float(x));
    return half_to_double(double_to_half(x));
}

std::string ff_positional(DType ft, uint64_t bits, int precision, bool unique, bool fractional,
                          Trim trim, bool sign, int pad_left, int pad_right, int min_digits) {
    FloatParts f = decompose(ft, bits);
    return positional(f, unique, fractional ? Cutoff::Fraction : Cutoff::Total, precision, min_digits, sign,
                      trim, pad_left, pad_right);
}

std::string ff_scientific(DType ft, uint64_t bits, int precision, bool unique, Trim trim, bool sign,
                          int pad_left, int exp_digits, int min_digits) {
    FloatParts f = decompose(ft, bits);
    return scientific(f, unique, precision, min_digits, sign, trim, pad_left, exp_digits);
}

// ---------------------------------------------------------------------------
// 4. Formatters (arrayprint.py).

std::string rstrip(const std::string& s) {
    size_t n = s.size();
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r' ||
                     s[n - 1] == '\f' || s[n - 1] == '\v'))
        --n;
    return s.substr(0, n);
}

std::string spaces(int64_t n) { return n > 0 ? std::string(size_t(n), ' ') : std::string(); }

// len() of a Python str holding this UTF-8 text (nanstr/infstr may be non-ASCII).
int64_t u8len(const std::string& s) { return count_code_points(s); }

class FloatingFormat {
public:
    FloatingFormat(DType ft, const std::vector<FVal>& data, const PrintOptions& o, char sign)
        : ft_(ft), o_(o), sign_(sign) {
        floatmode_ = o.floatmode;
        precision_ = floatmode_ == "unique" ? -1 : o.precision;
        fill(data);
    }

    std::string operator()(const FVal& x) const {
        if (!std::isfinite(x.v)) {
            std::string ret;
            if (std::isnan(x.v)) ret = (sign_ == '+' ? "+" : "") + o_.nanstr;
            else ret = (x.v < 0 ? "-" : sign_ == '+' ? "+" : "") + o_.infstr;
            return spaces(int64_t(pad_left_) + pad_right_ + 1 - u8len(ret)) + ret;
        }
        if (exp_format_)
            return ff_scientific(ft_, x.bits, precision_, unique_, trim_, sign_ == '+', pad_left_, exp_size_,
                                 min_digits_);
        return ff_positional(ft_, x.bits, precision_, unique_, true, trim_, sign_ == '+', pad_left_, pad_right_,
                             min_digits_);
    }

private:
    void fill(const std::vector<FVal>& data) {
        std::vector<const FVal*> finite;
        for (const FVal& x : data)
            if (std::isfinite(x.v)) finite.push_back(&x);

        bool have_nz = false;
        double max_val = 0, min_val = 0;
        for (const FVal* x : finite) {
            if (x->v == 0) continue;
            double a = std::fabs(x->v);
            if (!have_nz) {
                max_val = min_val = a;
                have_nz = true;
            } else {
                max_val = std::max(max_val, a);
                min_val = std::min(min_val, a);
            }
        }
        if (have_nz) {
            // 10.**min(8, finfo(dtype).precision), compared in the dtype
            double cutoff = ft_ == DType::Float16 ? 1e3 : ft_ == DType::Float32 ? 1e6 : 1e8;
            // `min_val < 0.0001` and `max_val / min_val > 1000.` run in the
            // array's float type (Python floats are weak scalars).
            double tiny = round_to(ft_, 0.0001);
            double ratio;
            if (ft_ == DType::Float64) ratio = max_val / min_val;
            else ratio = round_to(ft_, double(float(max_val) / float(min_val)));
            if (max_val >= cutoff || (!o_.suppress && (min_val < tiny || ratio > 1000.0))) exp_format_ = true;
        }

        if (finite.empty()) {
            pad_left_ = 0;
            pad_right_ = 0;
            trim_ = Trim::Zeros;
            exp_size_ = -1;
            unique_ = true;
            min_digits_ = -1;
        } else if (exp_format_) {
            Trim trim = Trim::Zeros;
            bool unique = true;
            if (floatmode_ == "fixed") trim = Trim::None, unique = false;
            size_t max_int = 0, max_frac = 0, max_exp = 0;
            for (const FVal* x : finite) {
                std::string s = ff_scientific(ft_, x->bits, precision_, unique, trim, sign_ == '+', -1, -1, -1);
                size_t e = s.find('e');
                std::string mant = s.substr(0, e);
                size_t dot = mant.find('.');
                max_int = std::max(max_int, dot);
                max_frac = std::max(max_frac, mant.size() - dot - 1);
                max_exp = std::max(max_exp, s.size() - e - 1);
            }
            exp_size_ = int(max_exp) - 1;
            trim_ = Trim::None;
            precision_ = int(max_frac);
            min_digits_ = precision_;
            unique_ = unique;
            pad_left_ = int(max_int);
            pad_right_ = exp_size_ + 2 + precision_;
        } else {
            Trim trim = Trim::Zeros;
            bool unique = true;
            if (floatmode_ == "fixed") trim = Trim::None, unique = false;
            size_t max_int = 0, max_frac = 0;
            for (const FVal* x : finite) {
                std::string s = ff_positional(ft_, x->bits, precision_, unique, true, trim, sign_ == '+', -1, -1, -1);
                size_t dot = s.find('.');
                max_int = std::max(max_int, dot);
                max_frac = std::max(max_frac, s.size() - dot - 1);
            }
            pad_left_ = int(max_int);
            pad_right_ = int(max_frac);
            exp_size_ = -1;
            unique_ = unique;
            if (floatmode_ == "fixed" || floatmode_ == "maxprec_equal") {
                precision_ = min_digits_ = pad_right_;
                trim_ = Trim::None;
            } else {
                trim_ = Trim::Zeros;
                min_digits_ = 0;
            }
        }

        if (sign_ == ' ') {
            bool any_neg = false;
            for (const FVal* x : finite) any_neg = any_neg || std::signbit(x->v);
            if (!any_neg) pad_left_ += 1;
        }
        if (finite.size() != data.size()) {
            bool neginf = sign_ != '-';
            for (const FVal& x : data)
                if (std::isinf(x.v) && x.v < 0) neginf = true;
            int64_t offset = int64_t(pad_right_) + 1;
            int64_t pl = pad_left_;
            pl = std::max(pl, u8len(o_.nanstr) - offset);
            pl = std::max(pl, u8len(o_.infstr) + (neginf ? 1 : 0) - offset);
            pad_left_ = int(pl);
        }
    }

    DType ft_;
    const PrintOptions& o_;
    char sign_;
    std::string floatmode_;
    int precision_ = -1;
    bool exp_format_ = false;
    int pad_left_ = 0, pad_right_ = 0, exp_size_ = -1, min_digits_ = -1;
    bool unique_ = true;
    Trim trim_ = Trim::Zeros;
};

// Integers of any supported width as sign + magnitude.
struct IVal {
    bool neg = false;
    uint64_t mag = 0;
    std::string digits() const { return std::to_string(mag); }
    std::string str() const {
        std::string s = digits();
        if (neg) s.insert(s.begin(), '-');
        return s;
    }
    bool less(const IVal& b) const {
        if (neg != b.neg) return neg;
        return neg ? mag > b.mag : mag < b.mag;
    }
};

IVal load_int(DType t, const uint8_t* p) {
    IVal r;
    switch (t) {
        case DType::Int8: { int8_t v; std::memcpy(&v, p, 1); r.neg = v < 0; r.mag = uint64_t(v < 0 ? -int64_t(v) : v); break; }
        case DType::Int16: { int16_t v; std::memcpy(&v, p, 2); r.neg = v < 0; r.mag = uint64_t(v < 0 ? -int64_t(v) : v); break; }
        case DType::Int32: { int32_t v; std::memcpy(&v, p, 4); r.neg = v < 0; r.mag = uint64_t(v < 0 ? -int64_t(v) : v); break; }
        case DType::Int64: {
            int64_t v;
            std::memcpy(&v, p, 8);
            r.neg = v < 0;
            r.mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
            break;
        }
        case DType::UInt8: r.mag = p[0]; break;
        case DType::UInt16: { uint16_t v; std::memcpy(&v, p, 2); r.mag = v; break; }
        case DType::UInt32: { uint32_t v; std::memcpy(&v, p, 4); r.mag = v; break; }
        case DType::UInt64: { uint64_t v; std::memcpy(&v, p, 8); r.mag = v; break; }
        default: break;
    }
    return r;
}

class IntegerFormat {
public:
    IntegerFormat(const std::vector<IVal>& data, char sign) : sign_(sign) {
        if (data.empty()) return;
        IVal mx = data[0], mn = data[0];
        for (const IVal& v : data) {
            if (mx.less(v)) mx = v;
            if (v.less(mn)) mn = v;
        }
        size_t max_len = mx.str().size();
        if (sign_ == ' ' && mn.neg) sign_ = '-';
        if (!mx.neg && (sign_ == '+' || sign_ == ' ')) max_len += 1;
        width_ = std::max(max_len, mn.str().size());
    }
    std::string operator()(const IVal& v) const {
        std::string s = v.neg ? "-" : sign_ == '+' ? "+" : sign_ == ' ' ? " " : "";
        s += v.digits();
        return spaces(int64_t(width_) - int64_t(s.size())) + s;
    }

private:
    char sign_;
    size_t width_ = 0;
};

// The element formatter for one array: picks the kind and holds its state.
class ElementFormat {
public:
    ElementFormat(const HostArrayView& a, const std::vector<const uint8_t*>& data, const PrintOptions& o)
        : t_(a.dtype), formatter_(o.formatter) {
        DKind k = kind(t_);
        if (k == DKind::Bool) {
            truestr_ = a.ndim() == 0 ? "True" : " True";
        } else if (k == DKind::Int || k == DKind::UInt) {
            std::vector<IVal> v;
            v.reserve(data.size());
            for (const uint8_t* p : data) v.push_back(load_int(t_, p));
            int_ = std::make_unique<IntegerFormat>(v, o.sign);
        } else if (k == DKind::Float) {
            std::vector<FVal> v;
            v.reserve(data.size());
            for (const uint8_t* p : data) v.push_back(load_float(t_, p));
            real_ = std::make_unique<FloatingFormat>(t_, v, o, o.sign);
        } else {
            DType ft = component_type(t_);
            std::vector<FVal> re, im;
            re.reserve(data.size());
            im.reserve(data.size());
            for (const uint8_t* p : data) {
                re.push_back(load_float(t_, p, 0));
                im.push_back(load_float(t_, p, 1));
            }
            real_ = std::make_unique<FloatingFormat>(ft, re, o, o.sign);
            imag_ = std::make_unique<FloatingFormat>(ft, im, o, '+');
        }
    }

    std::string operator()(const uint8_t* p) const {
        if (formatter_) {
            std::string custom;
            if (formatter_(t_, p, custom)) return custom;
        }
        switch (kind(t_)) {
            case DKind::Bool: return p[0] ? truestr_ : "False";
            case DKind::Int:
            case DKind::UInt: return (*int_)(load_int(t_, p));
            case DKind::Float: return (*real_)(load_float(t_, p));
            case DKind::Complex: {
                std::string r = (*real_)(load_float(t_, p, 0));
                std::string i = (*imag_)(load_float(t_, p, 1));
                size_t sp = rstrip(i).size();
                return r + i.substr(0, sp) + "j" + i.substr(sp);
            }
        }
        return {};
    }

private:
    DType t_;
    PrintOptions::Formatter formatter_;
    std::string truestr_;
    std::unique_ptr<IntegerFormat> int_;
    std::unique_ptr<FloatingFormat> real_, imag_;
};

// ---------------------------------------------------------------------------
// 5. _formatArray and str/repr.

class ArrayFormatter {
public:
    ArrayFormatter(const HostArrayView& a, const ElementFormat& fmt, int line_width, std::string separator,
                   int edge_items, bool summarize)
        : a_(a), fmt_(fmt), line_width_(line_width), sep_(std::move(separator)), edge_(edge_items),
          summarize_(summarize) {}

    std::string run(const std::string& next_line_prefix) {
        index_.clear();
        return recurse(next_line_prefix, line_width_);
    }

private:
    const uint8_t* element() const {
        const uint8_t* p = a_.data;
        for (size_t i = 0; i < index_.size(); ++i) p += index_[i] * a_.strides[i];
        return p;
    }

    static void extend_line(std::string& s, std::string& line, const std::string& word, int64_t width,
                            const std::string& next_prefix) {
        const int64_t line_len = u8len(line);
        bool wrap = line_len + u8len(word) > width;
        if (line_len <= int64_t(next_prefix.size())) wrap = false;
        if (wrap) {
            s += rstrip(line);
            s += '\n';
            line = next_prefix;
        }
        line += word;
    }

    std::string child(int64_t i, const std::string& hanging, int64_t width) {
        index_.push_back(i);
        std::string r = recurse(hanging, width);
        index_.pop_back();
        return r;
    }

    std::string recurse(const std::string& hanging, int64_t width) {
        const int axis = int(index_.size());
        const int axes_left = a_.ndim() - axis;
        if (axes_left == 0) return fmt_(element());

        const std::string next_hanging = hanging + " ";
        const int64_t next_width = width - 1;
        const int64_t n = a_.shape[axis];
        const bool show_summary = summarize_ && 2 * int64_t(edge_) < n;
        const int64_t leading = show_summary ? edge_ : 0;
        const int64_t trailing = show_summary ? edge_ : n;

        std::string s;
        if (axes_left == 1) {
            const int64_t elem_width = width - std::max<int64_t>(int64_t(rstrip(sep_).size()), 1);
            std::string line = hanging;
            for (int64_t i = 0; i < leading; ++i) {
                extend_line(s, line, child(i, next_hanging, next_width), elem_width, hanging);
                line += sep_;
            }
            if (show_summary) {
                extend_line(s, line, "...", elem_width, hanging);
                line += sep_;
            }
            for (int64_t i = trailing; i > 1; --i) {
                extend_line(s, line, child(n - i, next_hanging, next_width), elem_width, hanging);
                line += sep_;
            }
            extend_line(s, line, child(n - 1, next_hanging, next_width), elem_width, hanging);
            s += line;
        } else {
            const std::string line_sep = rstrip(sep_) + std::string(size_t(axes_left - 1), '\n');
            for (int64_t i = 0; i < leading; ++i) s += hanging + child(i, next_hanging, next_width) + line_sep;
            if (show_summary) s += hanging + "..." + line_sep;
            for (int64_t i = trailing; i > 1; --i)
                s += hanging + child(n - i, next_hanging, next_width) + line_sep;
            s += hanging + child(n - 1, next_hanging, next_width);
        }
        return "[" + s.substr(hanging.size()) + "]";
    }

    const HostArrayView& a_;
    const ElementFormat& fmt_;
    int line_width_;
    std::string sep_;
    int edge_;
    bool summarize_;
    std::vector<int64_t> index_;
};

// The elements the formatters see: all of them, or only the leading and
// trailing edge items of each long axis when summarising.
std::vector<const uint8_t*> format_data(const HostArrayView& a, bool summarize, int edge) {
    std::vector<std::vector<int64_t>> keep(size_t(a.ndim()));
    for (int ax = 0; ax < a.ndim(); ++ax) {
        int64_t n = a.shape[ax];
        if (summarize && n > 2 * int64_t(edge)) {
            // a[:edge] and a[-edge:] (which is all of a when edge is 0)
            for (int64_t i = 0; i < edge; ++i) keep[ax].push_back(i);
            for (int64_t i = edge == 0 ? 0 : n - edge; i < n; ++i) keep[ax].push_back(i);
        } else {
            for (int64_t i = 0; i < n; ++i) keep[ax].push_back(i);
        }
    }
    std::vector<const uint8_t*> out;
    for (auto& k : keep)
        if (k.empty()) return out;
    std::vector<size_t> pos(size_t(a.ndim()), 0);
    for (;;) {
        const uint8_t* p = a.data;
        for (int ax = 0; ax < a.ndim(); ++ax) p += keep[ax][pos[ax]] * a.strides[ax];
        out.push_back(p);
        int ax = a.ndim() - 1;
        while (ax >= 0) {
            if (++pos[ax] < keep[ax].size()) break;
            pos[ax] = 0;
            --ax;
        }
        if (ax < 0) break;
    }
    return out;
}

// The checks np.set_printoptions makes, with its messages.
void check_args(const HostArrayView& a, const PrintOptions& o) {
    if (a.strides.size() != a.shape.size())
        throw std::invalid_argument("array view: strides and shape differ in length");
    if (std::string problem = print_options_problem(o); !problem.empty()) throw std::invalid_argument(problem);
}

// array2string(a, separator, prefix, suffix) for NumPy 2 (legacy off).
std::string array2string(const HostArrayView& a, const PrintOptions& o, const std::string& separator,
                         const std::string& prefix, const std::string& suffix) {
    int line_width = o.linewidth - int(suffix.size());
    if (a.size() == 0) return "[]";
    bool summarize = a.size() > o.threshold;
    std::vector<const uint8_t*> data = format_data(a, summarize, o.edgeitems);
    ElementFormat fmt(a, data, o);
    std::string next_line_prefix = " " + std::string(prefix.size(), ' ');
    ArrayFormatter f(a, fmt, line_width, separator, o.edgeitems, summarize);
    return f.run(next_line_prefix);
}

bool dtype_is_implied(DType t) {
    return t == DType::Float64 || t == DType::Int64 || t == DType::Complex128 || t == DType::Bool;
}

std::string shape_text(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    if (shape.size() == 1) s += ",";
    return s + ")";
}

// ---------------------------------------------------------------------------
// 6. Scalars.

// float/double/half "either" rule: positional between 1e-4 and the type's
// max_positional, else scientific.
std::string float_scalar_text(DType ft, uint64_t bits, Trim trim_pos, Trim trim_sci, bool sign) {
    FVal x = make_fval(ft, bits);
    bool use_pos;
    if (ft == DType::Float16) {
        float a = std::fabs(float(x.v));
        use_pos = a == 0 || (a < 1e3L && a >= 1.e-4);
    } else {
        long double maxpos = ft == DType::Float32 ? 1.e6L : 1.e16L;
        if (std::isnan(x.v) || x.v == 0) {
            use_pos = true;
        } else if (ft == DType::Float32) {
            float a = std::fabs(float(x.v));
            use_pos = a < maxpos && a >= 1.e-4L;
        } else {
            double a = std::fabs(x.v);
            use_pos = a < maxpos && a >= 1.e-4L;
        }
    }
    FloatParts f = decompose(ft, bits);
    if (use_pos) return positional(f, true, Cutoff::Fraction, -1, -1, sign, trim_pos, -1, -1);
    return scientific(f, true, -1, -1, sign, trim_sci, -1, -1);
}

std::string complex_scalar_text(DType t, const uint8_t* p, bool repr) {
    DType ft = component_type(t);
    FVal re = load_float(t, p, 0), im = load_float(t, p, 1);
    std::string head = repr ? std::string("np.") + name(t) + "(" : "";
    std::string tail = repr ? ")" : "";
    if (re.v == 0 && !std::signbit(re.v)) {
        return head + float_scalar_text(ft, im.bits, Trim::DptZeros, Trim::DptZeros, false) + "j" + tail;
    }
    std::string rs, is;
    if (std::isfinite(re.v)) rs = float_scalar_text(ft, re.bits, Trim::DptZeros, Trim::DptZeros, false);
    else if (std::isnan(re.v)) rs = "nan";
    else rs = re.v > 0 ? "inf" : "-inf";
    if (std::isfinite(im.v)) is = float_scalar_text(ft, im.bits, Trim::DptZeros, Trim::DptZeros, true);
    else if (std::isnan(im.v)) is = "+nan";
    else is = im.v > 0 ? "+inf" : "-inf";
    if (repr) return head + rs + is + "j" + tail;
    return "(" + rs + is + "j)";
}

}  // namespace

// ---------------------------------------------------------------------------
// Public API.

double half_to_double(uint16_t h) {
    int sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0x1f) v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if (e == 0) v = std::ldexp(double(m), -24);
    else v = std::ldexp(double(m | 0x400), e - 25);
    return sign ? -v : v;
}

uint16_t double_to_half(double x) {
    uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    if (std::isnan(x)) return uint16_t(sign | 0x7e00);
    double a = std::fabs(x);
    if (a >= 65520.0) return uint16_t(sign | 0x7c00);  // rounds to inf
    if (a == 0) return sign;
    int e;
    std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1)
    int q = std::max(e - 11, -24);   // weight of the last kept bit
    double r = std::nearbyint(std::ldexp(a, -q));  // exact scaling, then round half even
    double v = std::ldexp(r, q);
    if (v >= 65520.0) return uint16_t(sign | 0x7c00);
    if (v < std::ldexp(1.0, -14)) return uint16_t(sign | uint16_t(r));  // subnormal (or rounded up to min normal: r == 1024 works too)
    int ve;
    std::frexp(v, &ve);
    uint32_t be = uint32_t(ve - 1 + 15);
    uint32_t mant = uint32_t(std::ldexp(v, -(ve - 11))) & 0x3ff;
    return uint16_t(sign | (be << 10) | mant);
}

std::string format_float_positional(DType t, const void* p, int precision, bool unique, bool fractional,
                                    char trim, bool sign, int pad_left, int pad_right, int min_digits) {
    if (!is_float(t)) throw std::invalid_argument("format_float_positional needs a float dtype");
    if (!unique && precision < 0) throw std::invalid_argument("precision must be given if unique is False");
    if (!fractional && precision == 0) throw std::invalid_argument("precision must be greater than 0 if fractional=False");
    if (min_digits > 0 && precision > 0 && min_digits > precision)
        throw std::invalid_argument("min_digits must be less than or equal to precision");
    FVal x = load_float(t, static_cast<const uint8_t*>(p));
    return ff_positional(t, x.bits, precision, unique, fractional, trim_from_char(trim), sign, pad_left, pad_right,
                         min_digits);
}

std::string format_float_scientific(DType t, const void* p, int precision, bool unique, char trim, bool sign,
                                    int pad_left, int exp_digits, int min_digits) {
    if (!is_float(t)) throw std::invalid_argument("format_float_scientific needs a float dtype");
    if (!unique && precision < 0) throw std::invalid_argument("precision must be given if unique is False");
    if (min_digits > 0 && precision > 0 && min_digits > precision)
        throw std::invalid_argument("min_digits must be less than or equal to precision");
    FVal x = load_float(t, static_cast<const uint8_t*>(p));
    return ff_scientific(t, x.bits, precision, unique, trim_from_char(trim), sign, pad_left, exp_digits, min_digits);
}

std::string scalar_str(DType t, const void* vp, const PrintOptions&) {
    const uint8_t* p = static_cast<const uint8_t*>(vp);
    switch (kind(t)) {
        case DKind::Bool: return p[0] ? "True" : "False";
        case DKind::Int:
        case DKind::UInt: return load_int(t, p).str();
        case DKind::Float: {
            FVal x = load_float(t, p);
            return float_scalar_text(t, x.bits, Trim::LeaveOneZero, Trim::DptZeros, false);
        }
        case DKind::Complex: return complex_scalar_text(t, p, false);
    }
    return {};
}

std::string scalar_repr(DType t, const void* vp, const PrintOptions& o) {
    const uint8_t* p = static_cast<const uint8_t*>(vp);
    switch (kind(t)) {
        case DKind::Bool: return p[0] ? "np.True_" : "np.False_";
        case DKind::Complex: return complex_scalar_text(t, p, true);
        default: return std::string("np.") + name(t) + "(" + scalar_str(t, p, o) + ")";
    }
}

std::string print_options_problem(const PrintOptions& o) {
    if (o.sign != '-' && o.sign != '+' && o.sign != ' ') return "sign option must be one of ' ', '+', or '-'";
    const std::string& m = o.floatmode;
    if (m != "fixed" && m != "unique" && m != "maxprec" && m != "maxprec_equal")
        return "floatmode option must be one of \"fixed\", \"unique\", \"maxprec\", \"maxprec_equal\"";
    if (o.precision < 0) return "precision must be >= 0";
    return "";
}

std::string array_to_string(const HostArrayView& a, const PrintOptions& o, const std::string& separator,
                            const std::string& prefix, const std::string& suffix) {
    check_args(a, o);
    return array2string(a, o, separator, prefix, suffix);
}

std::string array_str(const HostArrayView& a, const PrintOptions& o) {
    check_args(a, o);
    if (a.ndim() == 0) return scalar_str(a.dtype, a.data, o);
    return array2string(a, o, " ", "", "");
}

std::string array_repr(const HostArrayView& a, const PrintOptions& o) {
    check_args(a, o);
    const std::string prefix = "array(";
    std::string lst = array2string(a, o, ", ", prefix, ")");
    std::vector<std::string> extras;
    int64_t size = a.size();
    if ((size == 0 && !(a.ndim() == 1 && a.shape[0] == 0)) || size > o.threshold)
        extras.push_back("shape=" + shape_text(a.shape));
    if (!dtype_is_implied(a.dtype) || size == 0) extras.push_back(std::string("dtype=") + name(a.dtype));
    if (extras.empty()) return prefix + lst + ")";
    std::string arr_str = prefix + lst + ",";
    std::string extra_str;
    for (size_t i = 0; i < extras.size(); ++i) extra_str += (i ? ", " : "") + extras[i];
    extra_str += ")";
    size_t nl = arr_str.rfind('\n');
    int64_t last_line_len = u8len(nl == std::string::npos ? arr_str : arr_str.substr(nl + 1));
    std::string spacer = " ";
    if (last_line_len + u8len(extra_str) + 1 > o.linewidth) spacer = "\n" + std::string(prefix.size(), ' ');
    return arr_str + spacer + extra_str;
}

}  // namespace gpy
