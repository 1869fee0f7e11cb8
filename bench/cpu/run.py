#!/usr/bin/env python3
"""CPU benchmark: the same workloads under gpy, NumPy and numexpr, in one run
on one machine. Prints best-of-N seconds per workload, gpy's speed-up over
each peer, and a Markdown table for bench/RESULTS.md.

  python3 bench/cpu/run.py --gpy build/gpy [--n 16777216] [--repeat 5]
"""
import argparse
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--gpy", required=True)
ap.add_argument("--n", type=int, default=1 << 24)
ap.add_argument("--repeat", type=int, default=5)
ap.add_argument("--threads", type=int, default=os.cpu_count())
args = ap.parse_args()


def run(cmd):
    # GPY_BACKEND=cpu: on a machine with a GPU, gpy would otherwise run there.
    env = dict(os.environ, GPY_NUM_THREADS=str(args.threads), OMP_NUM_THREADS=str(args.threads), GPY_BACKEND="cpu")
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    return {line.split()[0]: float(line.split()[1]) for line in out.stdout.splitlines() if line.strip()}


w = os.path.join(here, "workloads.gpy")
g = run([args.gpy, w, str(args.n), str(args.repeat)])
n = run([sys.executable, w, str(args.n), str(args.repeat)])
try:
    import numexpr  # noqa: F401 (only to know whether the peer can run)
    e = run([sys.executable, os.path.join(here, "numexpr_workloads.py"), str(args.n), str(args.repeat), str(args.threads)])
except ImportError:  # the GPU machine has no numexpr and no internet: its column is left empty
    print("numexpr is not installed: its column is '-'")
    e = {}
print(f"N = {args.n}, float32, best of {args.repeat}, {args.threads} threads for gpy and numexpr (NumPy is single-threaded)")
print("| workload | gpy (ms) | NumPy (ms) | numexpr (ms) | gpy vs NumPy | gpy vs numexpr |")
print("|---|---:|---:|---:|---:|---:|")
for name in g:
    ne_ms = f"{e[name]*1e3:.2f}" if name in e else "-"
    ne_ratio = f"{e[name]/g[name]:.2f}x" if name in e else "-"
    print(f"| {name} | {g[name]*1e3:.2f} | {n[name]*1e3:.2f} | {ne_ms} | {n[name]/g[name]:.2f}x | {ne_ratio} |")
