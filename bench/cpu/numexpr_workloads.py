# The bench/cpu workloads written for numexpr (same data, same output format).
import sys
import time

import numexpr as ne
import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 24
REPEAT = int(sys.argv[2]) if len(sys.argv) > 2 else 5
ROWS = 4096
ne.set_num_threads(int(sys.argv[3]) if len(sys.argv) > 3 else 2)

x = (np.arange(N, dtype=np.float32) / N - 0.5) * 4
y = np.cos(np.arange(N, dtype=np.float32) / 1000)
s = (np.arange(N, dtype=np.float32) % 100 + 50).astype(np.float32)
k = np.full(N, 100.0, dtype=np.float32)
t = (np.arange(N, dtype=np.float32) % 10 + 1) / 10
m = np.sin(np.arange(ROWS * ROWS, dtype=np.float32).reshape(ROWS, ROWS) / 777)

CND = ("where({d} < 0, 1 - (1 - 0.3989422804014327 * exp(-0.5 * {d} * {d}) * {kk} * (0.319381530 + {kk} * "
       "(-0.356563782 + {kk} * (1.781477937 + {kk} * (-1.821255978 + {kk} * 1.330274429))))), "
       "1 - 0.3989422804014327 * exp(-0.5 * {d} * {d}) * {kk} * (0.319381530 + {kk} * (-0.356563782 + {kk} * "
       "(1.781477937 + {kk} * (-1.821255978 + {kk} * 1.330274429)))))")


def cnd(d):
    kk = ne.evaluate("1 / (1 + 0.2316419 * abs(d))")
    return ne.evaluate(CND.format(d="d", kk="kk"))


def run(name, fn):
    best = 1e9
    for i in range(REPEAT + 1):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        if i > 0 and dt < best:
            best = dt
    print(name, best)


def black_scholes():
    sq = ne.evaluate("0.3 * sqrt(t)")
    d1 = ne.evaluate("(log(s / k) + (0.02 + 0.5 * 0.3 * 0.3) * t) / sq")
    d2 = ne.evaluate("d1 - sq")
    disc = ne.evaluate("k * exp(-0.02 * t)")
    c1, c2 = cnd(d1), cnd(d2)
    nd1, nd2 = cnd(-d1), cnd(-d2)
    call = ne.evaluate("s * c1 - disc * c2")
    put = ne.evaluate("disc * nd2 - s * nd1")
    return call, put


def black_scholes_tanh():
    sq = ne.evaluate("0.3 * sqrt(t)")
    d1 = ne.evaluate("(log(s / k) + (0.02 + 0.5 * 0.3 * 0.3) * t) / sq")
    d2 = ne.evaluate("d1 - sq")
    disc = ne.evaluate("k * exp(-0.02 * t)")
    n1 = ne.evaluate("0.5 + 0.5 * tanh(0.7978845608 * (d1 + 0.044715 * d1 * d1 * d1))")
    n2 = ne.evaluate("0.5 + 0.5 * tanh(0.7978845608 * (d2 + 0.044715 * d2 * d2 * d2))")
    call = ne.evaluate("s * n1 - disc * n2")
    put = ne.evaluate("call - s + disc")
    return call, put


run("saxpy", lambda: ne.evaluate("2.5 * x + y"))
run("gauss", lambda: ne.evaluate("exp(-0.5 * x * x) * sin(3 * x) + sqrt(abs(x))"))
run("black_scholes", black_scholes)
run("black_scholes_tanh", black_scholes_tanh)
run("sum_sq", lambda: ne.evaluate("sum(x * x)"))
run("mse", lambda: ne.evaluate("sum((x - y) ** 2)") / N)
run("softmax", lambda: (lambda e: ne.evaluate("e / s2", local_dict={"e": e, "s2": e.sum(axis=1, keepdims=True)}))(
    ne.evaluate("exp(m - mx)", local_dict={"m": m, "mx": m.max(axis=1, keepdims=True)})))
