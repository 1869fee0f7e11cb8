#!/usr/bin/env python3
"""bench/sum/sum.gpy under gpy and a peer in one run, side by side.

  python3 bench/sum/run.py --gpy build/gpy [--threads 1]        CPU: gpy vs NumPy
  python3 bench/sum/run.py --gpy dist/gpy --peer cupy           GPU: gpy vs CuPy

Prints a Markdown table: gpy ms, peer ms, time ratio (<= 1.0: gpy as fast or
faster) and gpy's read bandwidth (GB/s).
"""
import argparse
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--gpy", required=True)
ap.add_argument("--peer", choices=["numpy", "cupy"], default="numpy")
ap.add_argument("--repeat", type=int, default=5)
ap.add_argument("--threads", type=int, default=1)
args = ap.parse_args()
script = os.path.join(here, "sum.gpy")


def run(cmd, env_extra):
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, **env_extra), timeout=1800)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr[-3000:]}")
    rows = {}
    for line in out.stdout.splitlines():
        name, dt, n, sec = line.split()
        rows[(name, dt, int(n))] = float(sec)
    return rows


gpu = args.peer == "cupy"
env = {} if gpu else {"GPY_BACKEND": "cpu", "GPY_NUM_THREADS": str(args.threads)}
if gpu:  # warm both up: a fresh GPU idles at its lowest clock
    run([args.gpy, script, "1"], env)
    run([sys.executable, script, "1", args.peer], {})
g = run([args.gpy, script, str(args.repeat)], env)
p = run([sys.executable, script, str(args.repeat), args.peer], {})
print(f"| case | dtype | n | gpy ms | {args.peer} ms | ratio | gpy GB/s |")
print("|---|---|---|---|---|---|---|")
for key, t in g.items():
    name, dt, n = key
    pt = p.get(key, float("nan"))
    gbs = n * (4 if dt == "float32" else 8) / t / 1e9
    print(f"| {name} | {dt} | {n} | {t * 1e3:.4f} | {pt * 1e3:.4f} | {t / pt:.2f} | {gbs:.0f} |")
