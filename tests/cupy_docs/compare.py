#!/usr/bin/env python3
"""CuPy's documentation examples (tests/cupy_docs/*.gpy, unchanged doc code)
run through gpy and through Python with the real CuPy, outputs compared line
for line. A device-machine check (scripts/device_check.sh cupydocs): CI has
neither a GPU nor CuPy. Prints one line per example and a summary; exits 0
(a report, not a gate: some examples print random values or addresses)."""
import argparse
import glob
import os
import subprocess
import sys


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timeout"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpy", required=True)
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    counts = {"same": 0, "differ": 0, "gpy error": 0, "cupy error": 0}
    for f in sorted(glob.glob(os.path.join(here, "*.gpy"))):
        name = os.path.basename(f)
        rc_g, out_g, err_g = run([args.gpy, f], args.timeout)
        rc_c, out_c, err_c = run([sys.executable, f], args.timeout)
        if rc_c != 0:
            status = "cupy error"
            detail = (err_c.strip().splitlines() or ["?"])[-1]
        elif rc_g != 0:
            status = "gpy error"
            detail = (err_g.strip().splitlines() or ["?"])[-1]
        elif out_g == out_c:
            status = "same"
            detail = ""
        else:
            status = "differ"
            gl, cl = out_g.splitlines(), out_c.splitlines()
            k = next((i for i in range(max(len(gl), len(cl))) if i >= len(gl) or i >= len(cl) or gl[i] != cl[i]), 0)
            detail = "line %d: gpy %r, cupy %r" % (k + 1, gl[k] if k < len(gl) else None, cl[k] if k < len(cl) else None)
        counts[status] += 1
        print("%-12s %-40s %s" % (status, name, detail[:200]))
    print("summary:", ", ".join("%s %d" % kv for kv in counts.items()))


if __name__ == "__main__":
    main()
