#!/usr/bin/env python3
"""Issue 21's sweep: bench/sweep/sweep.gpy under gpy and a peer in one run.

  python3 bench/sweep/run.py --gpy build/gpy [--n 4194304] [--repeat 3] [--threads 1]
      CPU: gpy (GPY_BACKEND=cpu, --threads threads) against NumPy (one thread)
  python3 bench/sweep/run.py --gpy dist/gpy --peer cupy [--n 16777216]
      GPU: gpy's GPU backend against CuPy

Prints a Markdown table (gpy ms, peer ms, gpy/peer time ratio: <= 1.0 is the
target) and, for the elementwise rows, gpy's effective bandwidth (bytes read
and written / time), then the rows over 1.0.
"""
import argparse
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--gpy", required=True)
ap.add_argument("--peer", choices=["numpy", "cupy"], default="numpy")
ap.add_argument("--n", type=int, default=1 << 22)
ap.add_argument("--repeat", type=int, default=3)
ap.add_argument("--threads", type=int, default=1, help="gpy's CPU threads (NumPy runs on one)")
args = ap.parse_args()

script = os.path.join(here, "sweep.gpy")


def run(cmd, env_extra):
    env = dict(os.environ, **env_extra)
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr[-3000:]}")
    rows = {}
    for line in out.stdout.splitlines():
        name, dtype, sec = line.split()
        rows[(name, dtype)] = float(sec)
    return rows


gpu = args.peer == "cupy"
gpy_env = {} if gpu else {"GPY_BACKEND": "cpu", "GPY_NUM_THREADS": str(args.threads)}
if gpu:
    # A GPU idling at its lowest clock (a fresh machine: 345 MHz) ramps up
    # during whichever run comes first; a short warm-up of both makes the
    # timed runs equal (H100: gpy's float64 rows came out 2x slow without it).
    # gpy's warm-up compiles every kernel before its first launch
    # (GPY_TIER0=0) into the disk cache: with the default, a kernel new to
    # the machine runs on the interpreter while NVRTC compiles it in the
    # background, and a row whose compile had not finished ran 3x slow
    # (2026-11-27: multiply float32 0.272 ms against add's 0.080).
    run([args.gpy, script, str(1 << 20), "1"], dict(gpy_env, GPY_TIER0="0"))
    run([sys.executable, script, str(1 << 20), "1", args.peer], {})
g = run([args.gpy, script, str(args.n), str(args.repeat)], gpy_env)
p = run([sys.executable, script, str(args.n), str(args.repeat), args.peer], {"OMP_NUM_THREADS": "1"})

# Arrays each elementwise row reads plus writes (for the bandwidth column).
ARRAYS = {"modf": 3, "frexp": 3, "divmod": 4}
BINARY = {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "power", "float_power",
          "arctan2", "hypot", "maximum", "minimum", "fmax", "fmin", "copysign", "nextafter", "logaddexp",
          "logaddexp2", "heaviside", "greater", "less_equal", "equal", "divmod"}
LIBRARY = {"sum", "mean", "std", "max", "argmax", "cumsum", "sort", "argsort", "where", "clip", "median", "dot",
           "searchsorted", "take", "rfft", "matmul_1024", "matmul_128"}

where = "GPU" if gpu else f"CPU, gpy on {args.threads} thread(s), NumPy on 1"
print(f"N = {args.n}, best of {args.repeat}, {where}; ratio = gpy time / {args.peer} time (<= 1.0 meets the target)")
print(f"| function | dtype | gpy (ms) | {args.peer} (ms) | ratio | gpy GB/s |")
print("|---|---|---:|---:|---:|---:|")
over = []
missing = [f"{k[0]} {k[1]} ({'gpy' if g.get(k, -1) < 0 else args.peer})" for k in g if g[k] < 0 or p.get(k, -1) < 0]
for key in g:
    name, dtype = key
    if key not in p or g[key] < 0 or p[key] < 0:
        continue
    ratio = g[key] / p[key]
    gbs = "-"
    if name not in LIBRARY:
        size = 4 if dtype == "float32" else 8
        arrays = ARRAYS.get(name, 3 if name in BINARY else 2)
        gbs = f"{arrays * size * args.n / g[key] / 1e9:.1f}"
    print(f"| {name} | {dtype} | {g[key]*1e3:.3f} | {p[key]*1e3:.3f} | {ratio:.2f} | {gbs} |")
    if ratio > 1.0:
        over.append(f"{name} {dtype} {ratio:.2f}")
met = len([k for k in g if k in p and g[k] >= 0 and p[k] >= 0]) - len(over)
print(f"\n{met} of {met + len(over)} rows at or under 1.0x {args.peer}; over: {', '.join(over) if over else 'none'}")
if missing:
    print(f"not run (the library lacks or failed it): {', '.join(missing)}")
