#!/usr/bin/env python3
"""The workloads of workloads.gpy in PyTorch (eager or torch.compile) and JAX
(jit), for bench/gpu/run.py. Prints "name seconds" lines (best of REPEAT,
each ended by a device synchronize).

  python3 peers.py torch|torch_compile|jax N REPEAT ROWS MM
"""
import sys
import time

FRAMEWORK = sys.argv[1]
N, REPEAT, ROWS, MM = (int(v) for v in sys.argv[2:6])
SKIP = set(sys.argv[6].split(",")) if len(sys.argv) > 6 and sys.argv[6] else set()


def timed(name, fn, sync, repeat=REPEAT):
    if name in SKIP:
        return
    best = 1e9
    for i in range(repeat + 2):
        t0 = time.perf_counter()
        fn()
        sync()
        dt = time.perf_counter() - t0
        if i > 1 and dt < best:
            best = dt
    print(name, best, flush=True)


def cnd(xp, d):
    a = xp.abs(d)
    k = 1.0 / (1.0 + 0.2316419 * a)
    poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    w = 1.0 - 0.3989422804014327 * xp.exp(-0.5 * d * d) * poly
    return xp.where(d < 0, 1.0 - w, w)


def workloads(xp):
    def saxpy(x, y):
        return 2.5 * x + y

    def gauss(x):
        return xp.exp(-0.5 * x * x) * xp.sin(3 * x) + xp.sqrt(xp.abs(x))

    def black_scholes(s, k, t):
        r, v = 0.02, 0.3
        sq = v * xp.sqrt(t)
        d1 = (xp.log(s / k) + (r + 0.5 * v * v) * t) / sq
        d2 = d1 - sq
        disc = k * xp.exp(-r * t)
        return s * cnd(xp, d1) - disc * cnd(xp, d2), disc * cnd(xp, -d2) - s * cnd(xp, -d1)

    def sum_sq(x):
        return xp.sum(x * x)

    def mse(x, y):
        return xp.mean((x - y) ** 2)

    if xp.__name__ == "torch":
        def softmax(m):
            e = xp.exp(m - m.amax(dim=1, keepdim=True))
            return e / e.sum(dim=1, keepdim=True)
    else:
        def softmax(m):
            e = xp.exp(m - m.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)

    if xp.__name__ == "torch":
        def layer_norm(m):
            mu = m.mean(dim=-1, keepdim=True)
            var = ((m - mu) ** 2).mean(dim=-1, keepdim=True)
            return (m - mu) / xp.sqrt(var + 1e-5)
    else:
        def layer_norm(m):
            mu = m.mean(axis=-1, keepdims=True)
            var = ((m - mu) ** 2).mean(axis=-1, keepdims=True)
            return (m - mu) / xp.sqrt(var + 1e-5)

    return saxpy, gauss, black_scholes, sum_sq, mse, softmax, layer_norm


def main_torch(compiled):
    import torch

    dev = "cuda"
    sync = torch.cuda.synchronize
    ar = lambda n: torch.arange(n, dtype=torch.float32, device=dev)
    x = (ar(N) / N - 0.5) * 4
    y = torch.cos(ar(N) / 1000)
    s = ar(N) % 100 + 50
    k = torch.full((N,), 100.0, dtype=torch.float32, device=dev)
    t = (ar(N) % 10 + 1) / 10
    m = torch.sin(ar(ROWS * ROWS).reshape(ROWS, ROWS) / 777)
    a = torch.sin(ar(MM * MM).reshape(MM, MM) / 91)
    b = torch.cos(ar(MM * MM).reshape(MM, MM) / 97)
    torch.backends.cuda.matmul.allow_tf32 = False  # NumPy's float32 (gpy's default too)
    saxpy, gauss, bs, sum_sq, mse, softmax, layer_norm = workloads(torch)
    wrap = torch.compile if compiled else (lambda f: f)
    saxpy, gauss, bs, sum_sq, mse, softmax, layer_norm = (wrap(f) for f in (saxpy, gauss, bs, sum_sq, mse, softmax, layer_norm))
    sync()
    if not compiled:
        timed("copy", lambda: x.clone(), sync)
    timed("saxpy", lambda: saxpy(x, y), sync)
    timed("gauss", lambda: gauss(x), sync)
    timed("black_scholes", lambda: bs(s, k, t), sync)
    timed("sum_sq", lambda: sum_sq(x), sync)
    timed("mse", lambda: mse(x, y), sync)
    timed("softmax", lambda: softmax(m), sync)
    timed("layer_norm", lambda: layer_norm(m), sync)
    if not compiled:
        timed("matmul", lambda: a @ b, sync, 3)
        timed("randn", lambda: torch.randn(N, dtype=torch.float64, device=dev), sync, 5)
        z0 = torch.ones(1000, dtype=torch.float32, device=dev)

        def tiny():
            z = z0
            for _ in range(1000):
                z = z * 1.0001 + 0.5
            sync()

        tiny()
        best = 1e9
        for _ in range(3):
            t0 = time.perf_counter()
            tiny()
            best = min(best, time.perf_counter() - t0)
        print("tiny_statement", best / 1000)


def main_jax():
    import jax
    import jax.numpy as jnp

    ar = lambda n: jnp.arange(n, dtype=jnp.float32)
    x = (ar(N) / N - 0.5) * 4
    y = jnp.cos(ar(N) / 1000)
    s = ar(N) % 100 + 50
    k = jnp.full((N,), 100.0, dtype=jnp.float32)
    t = (ar(N) % 10 + 1) / 10
    m = jnp.sin(ar(ROWS * ROWS).reshape(ROWS, ROWS) / 777)
    a = jnp.sin(ar(MM * MM).reshape(MM, MM) / 91)
    b = jnp.cos(ar(MM * MM).reshape(MM, MM) / 97)
    saxpy, gauss, bs, sum_sq, mse, softmax, layer_norm = (jax.jit(f) for f in workloads(jnp))
    mm = jax.jit(lambda p, q: jnp.matmul(p, q, precision=jax.lax.Precision.HIGHEST))
    last = [None]

    def keep(v):
        last[0] = v

    def sync():
        jax.block_until_ready(last[0])

    timed("copy", lambda: keep(jnp.copy(x)), sync)
    timed("saxpy", lambda: keep(saxpy(x, y)), sync)
    timed("gauss", lambda: keep(gauss(x)), sync)
    timed("black_scholes", lambda: keep(bs(s, k, t)), sync)
    timed("sum_sq", lambda: keep(sum_sq(x)), sync)
    timed("mse", lambda: keep(mse(x, y)), sync)
    timed("softmax", lambda: keep(softmax(m)), sync)
    timed("layer_norm", lambda: keep(layer_norm(m)), sync)
    timed("matmul", lambda: keep(mm(a, b)), sync, 3)


if FRAMEWORK == "torch":
    main_torch(False)
elif FRAMEWORK == "torch_compile":
    main_torch(True)
elif FRAMEWORK == "jax":
    main_jax()
else:
    sys.exit("peers.py: unknown framework " + FRAMEWORK)
