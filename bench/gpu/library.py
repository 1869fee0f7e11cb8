#!/usr/bin/env python3
"""Library functions (bench/gpu/library.gpy) under gpy --backend cuda, gpy
on the CPU, CuPy and NumPy, in one run on one machine. Prints a Markdown
table of best-of-N milliseconds and gpy-GPU's time over CuPy's.

  python3 bench/gpu/library.py --gpy dist/gpy [--repeat 5]
"""
import argparse
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--gpy", required=True)
ap.add_argument("--repeat", type=int, default=5)
args = ap.parse_args()
script = os.path.join(here, "library.gpy")
runs = {
    "gpy GPU": [args.gpy, "--backend", "cuda", script, str(args.repeat)],
    "gpy CPU": [args.gpy, "--backend", "cpu", script, str(args.repeat)],
    "CuPy": [sys.executable, script, str(args.repeat), "cupy"],
    "NumPy": [sys.executable, script, str(args.repeat), "numpy"],
}
times = {}
for name, cmd in runs.items():
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=600).stdout
    except subprocess.TimeoutExpired:
        out = ""
    times[name] = {l.split()[0]: float(l.split()[1]) * 1e3 for l in out.splitlines() if len(l.split()) == 2}
names = [k for k in times["gpy GPU"]] or [k for k in times["NumPy"]]
print("| function | " + " | ".join(f"{k} ms" for k in runs) + " | gpy GPU / CuPy |")
print("|---" * (len(runs) + 2) + "|")
for f in names:
    cells = [f"{times[k][f]:.3f}" if f in times[k] else "-" for k in runs]
    ratio = times["gpy GPU"].get(f, 0) / times["CuPy"][f] if f in times["CuPy"] and f in times["gpy GPU"] else None
    print(f"| {f} | " + " | ".join(cells) + f" | {ratio:.2f} |" if ratio else f"| {f} | " + " | ".join(cells) + " | - |")
