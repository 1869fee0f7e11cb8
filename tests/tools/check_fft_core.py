"""Checks runtime/fft_core (gpy::fft::Plan) against numpy.fft: errors and speed.

    python3 tests/tools/check_fft_core.py --emit-driver > /tmp/fft_driver.cpp
    c++ -std=c++20 -O3 -I. /tmp/fft_driver.cpp runtime/fft_core.cpp -o /tmp/fft_driver
    python3 tests/tools/check_fft_core.py /tmp/fft_driver [--quick] [--big] [--no-time] [--time-only]

This script compiles nothing: the driver (its source is DRIVER below) runs one
transform of one length from a file of raw input and writes the raw output,
timing plan construction and the best of a few executions. For each length
the script feeds random input to fft, ifft, rfft, irfft (float64 and float32)
and prints the largest error relative to the largest output value against
numpy.fft in the same precision and against numpy's long double transform (a
reference about 2000x more precise than float64), then the time per call of
the driver and of numpy.fft (single-threaded pocketfft) for the same call.
--big adds n = 2^25 (the radix-8 passes: arrays of 256 MB and more; needs
about 8 GB of memory and a few minutes).
"""
import os
import subprocess
import sys
import tempfile
import timeit

import numpy as np

DRIVER = r'''
// Driver for tests/tools/check_fft_core.py:
//   fft_driver OP PREC N REPS FCT IN OUT
// OP: c2c_f, c2c_b, r2c, c2r; PREC: f or d. Reads the raw input (complex
// interleaved, or real for r2c; n/2+1 complex for c2r), writes the raw output,
// prints "plan_s=... exec_s=..." (the best of REPS executions).
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/fft_core.h"

template <class T>
int run(const std::string& op, int64_t n, int reps, double fct, const char* in_path, const char* out_path) {
    using C = std::complex<T>;
    const int64_t h = n / 2 + 1;
    int64_t in_count = op == "r2c" ? n : op == "c2r" ? 2 * h : 2 * n;
    int64_t out_count = op == "r2c" ? 2 * h : op == "c2r" ? n : 2 * n;
    std::vector<T> in(in_count), out(out_count);
    FILE* f = std::fopen(in_path, "rb");
    if (!f || std::fread(in.data(), sizeof(T), in.size(), f) != in.size()) return 2;
    std::fclose(f);
    using clk = std::chrono::steady_clock;
    auto t0 = clk::now();
    gpy::fft::Plan<T> plan(n);
    double plan_s = std::chrono::duration<double>(clk::now() - t0).count();
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        auto t = clk::now();
        if (op == "c2c_f" || op == "c2c_b")
            plan.c2c(reinterpret_cast<const C*>(in.data()), reinterpret_cast<C*>(out.data()), op == "c2c_b", T(fct));
        else if (op == "r2c")
            plan.r2c(in.data(), reinterpret_cast<C*>(out.data()), T(fct));
        else
            plan.c2r(reinterpret_cast<const C*>(in.data()), out.data(), T(fct));
        best = std::min(best, std::chrono::duration<double>(clk::now() - t).count());
    }
    f = std::fopen(out_path, "wb");
    if (!f || std::fwrite(out.data(), sizeof(T), out.size(), f) != out.size()) return 2;
    std::fclose(f);
    std::printf("plan_s=%.9g exec_s=%.9g\n", plan_s, best);
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 8) {
        std::fprintf(stderr, "usage: fft_driver OP PREC N REPS FCT IN OUT\n");
        return 1;
    }
    std::string op = argv[1];
    int64_t n = std::atoll(argv[3]);
    int reps = std::atoi(argv[4]);
    double fct = std::atof(argv[5]);
    return argv[2][0] == 'f' ? run<float>(op, n, reps, fct, argv[6], argv[7])
                             : run<double>(op, n, reps, fct, argv[6], argv[7]);
}
'''

# Lengths: each radix, generic odd primes, Bluestein (primes, 2 * prime,
# around the cut-over near 50), powers of two, and the timed set.
ACCURACY = [1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 16, 17, 30, 47, 53, 64, 97, 127, 131, 360, 1000, 1001,
            1024, 2310, 4096, 3 * 4096, 65536, 2 * 100003, 1 << 20, 1000000, 1000003]
TIMED = [1 << k for k in range(10, 21)] + [1000, 3 * 4096, 1000000, 1000003]
QUICK = [1, 2, 3, 5, 7, 13, 16, 53, 97, 1000, 1024, 4099, 3 * 4096]


def driver_call(driver, op, prec, n, reps, fct, x, tmp):
    ip, op_path = os.path.join(tmp, 'in.bin'), os.path.join(tmp, 'out.bin')
    x.tofile(ip)
    r = subprocess.run([driver, op, prec, str(n), str(reps), repr(float(fct)), ip, op_path],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.exit('driver failed (%d): %s %s n=%d\n%s' % (r.returncode, op, prec, n, r.stderr))
    kv = dict(t.split('=') for t in r.stdout.split())
    real = np.float32 if prec == 'f' else np.float64
    out = np.fromfile(op_path, dtype=real)
    if op != 'c2r':
        out = out.view(np.complex64 if prec == 'f' else np.complex128)
    return out, float(kv['plan_s']), float(kv['exec_s'])


def max_rel(got, ref):
    # Largest elementwise error relative to the largest reference value: the
    # usual FFT error measure (small outputs carry the absolute error of the big ones).
    ref = np.asarray(ref)
    scale = np.max(np.abs(ref)) if ref.size else 1.0
    return float(np.max(np.abs(got.astype(ref.dtype) - ref)) / (scale or 1.0))


def numpy_time(fn, reps):
    # Best of reps single calls, like the driver.
    return min(timeit.repeat(fn, number=1, repeat=reps))


def main():
    args = sys.argv[1:]
    if args == ['--emit-driver']:
        sys.stdout.write(DRIVER)
        return
    if not args or args[0].startswith('-'):
        sys.exit(__doc__)
    driver = args[0]
    quick, do_time = '--quick' in args, '--no-time' not in args
    rng = np.random.default_rng(1)
    worst = {}
    with tempfile.TemporaryDirectory() as tmp:
        print('%-9s %-5s %-6s %10s %10s %10s   (max |err| / max |ref|; gpy vs numpy in the same precision,'
              ' gpy vs long double, numpy vs long double)' % ('n', 'prec', 'op', 'vs numpy', 'vs ld', 'np vs ld'))
        big = [1 << 25] if '--big' in args else []
        for n in ([] if '--time-only' in args else (QUICK if quick else ACCURACY) + big):
            h = n // 2 + 1
            xc = rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)
            xr = rng.uniform(-1, 1, n)
            xh = np.fft.rfft(rng.uniform(-1, 1, n)) + 0.0
            xh[0] += 0.5j  # imaginary parts that irfft ignores
            if n % 2 == 0:
                xh[-1] -= 0.25j
            for prec, cdt, rdt in (('d', np.complex128, np.float64), ('f', np.complex64, np.float32)):
                c, r, hh = xc.astype(cdt), xr.astype(rdt), xh.astype(cdt)
                cl, rl, hl = c.astype(np.clongdouble), r.astype(np.longdouble), hh.astype(np.clongdouble)
                cases = [
                    ('fft', 'c2c_f', 1.0, c, lambda a: np.fft.fft(a), cl),
                    ('ifft', 'c2c_b', 1.0 / n, c, lambda a: np.fft.ifft(a), cl),
                    ('rfft', 'r2c', 1.0, r, lambda a: np.fft.rfft(a), rl),
                    ('irfft', 'c2r', 1.0 / n, hh, lambda a: np.fft.irfft(a, n), hl),
                    ('ortho', 'c2c_f', 1.0 / np.sqrt(n), c, lambda a: np.fft.fft(a, norm='ortho'), cl),
                ]
                for name, op, fct, x, fn, xl in cases:
                    got, _, _ = driver_call(driver, op, prec, n, 1, fct, x, tmp)
                    ref_np, ref_ld = fn(x), fn(xl)
                    e_np, e_ld, np_ld = max_rel(got, ref_np), max_rel(got, ref_ld), max_rel(ref_np, ref_ld)
                    print('%-9d %-5s %-6s %10.2e %10.2e %10.2e' % (n, prec, name, e_np, e_ld, np_ld))
                    key = (prec, name)
                    w = worst.setdefault(key, [0.0, 0.0])
                    w[0] = max(w[0], e_ld / max(1.0, np.log2(n)))
                    w[1] = max(w[1], np_ld / max(1.0, np.log2(n)))
        print('worst error vs long double / log2(n), gpy (numpy):',
              ', '.join('%s %s %.2e (%.2e)' % (p, nm, v[0], v[1]) for (p, nm), v in sorted(worst.items())))

        if not do_time:
            return
        print()
        print('%-9s %-5s %12s %12s %7s %12s   (best of repeated calls; plan = gpy plan construction)'
              % ('n', 'op', 'gpy us', 'numpy us', 'ratio', 'plan us'))
        for n in (QUICK if quick else TIMED) + big:
            reps = max(5, min(200, int(2e7 / (n * max(1, np.log2(n))))))
            c = rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)
            r = rng.uniform(-1, 1, n)
            for name, op, x, fn in (('fft', 'c2c_f', c, lambda: np.fft.fft(c)),
                                    ('rfft', 'r2c', r, lambda: np.fft.rfft(r))):
                _, plan_s, exec_s = driver_call(driver, op, 'd', n, reps, 1.0, x, tmp)
                fn()  # numpy's plan cache
                t_np = numpy_time(fn, reps)
                print('%-9d %-5s %12.1f %12.1f %7.2f %12.1f'
                      % (n, name, exec_s * 1e6, t_np * 1e6, exec_s / t_np, plan_s * 1e6))


if __name__ == '__main__':
    main()
