#!/usr/bin/env python3
"""Interpreter-overhead benchmark: each program here runs under gpy and under
CPython (the same file: every program is valid in both languages), best-of-N
wall time each, and the two outputs must be identical.

Usage: python3 bench/interp/run.py --gpy build/gpy [--repeat 3] [--python python3] [-k NAME]

Prints a plain table and a Markdown table to paste into bench/RESULTS.md.
Exits non-zero if a program fails or the outputs differ.
"""
import argparse
import datetime
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# Fixed order, cheapest first, so a partial run is still informative.
PROGRAMS = ["fib.py", "calls.py", "strings.py", "loop_sum.py"]


def run_once(cmd, timeout):
    """Wall time of one whole process (start-up included), and its result."""
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return time.perf_counter() - t0, r


def best_of(cmd, repeat, timeout):
    best, result = None, None
    for _ in range(repeat):
        try:
            t, r = run_once(cmd, timeout)
        except subprocess.TimeoutExpired:
            return None, f"timed out after {timeout} s"
        if r.returncode != 0:
            tail = (r.stderr or r.stdout).strip().splitlines()[-3:]
            return None, f"exit status {r.returncode}: " + " / ".join(l.strip() for l in tail)
        if result is not None and r.stdout != result.stdout:
            return None, "output differs between repeats"
        best = t if best is None else min(best, t)
        result = r
    return best, result


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def gpy_version(gpy):
    try:
        r = subprocess.run([gpy, "--version"], capture_output=True, text=True, timeout=10)
        return (r.stdout or r.stderr).strip().splitlines()[0] if r.returncode == 0 else "gpy (version unknown)"
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return "gpy (version unknown)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpy", default="build/gpy", help="path to the gpy binary")
    ap.add_argument("--python", default="python3", help="the Python to compare with")
    ap.add_argument("--repeat", type=int, default=3, help="runs per program and language; the best counts")
    ap.add_argument("--timeout", type=float, default=600, help="seconds allowed for one run")
    ap.add_argument("-k", dest="only", default="", help="only programs whose name contains this")
    args = ap.parse_args()
    gpy = os.path.abspath(args.gpy)
    if not os.access(gpy, os.X_OK):
        sys.exit(f"no gpy binary at {gpy}")

    py_version = subprocess.run([args.python, "-c", "import platform; print(platform.python_version())"],
                                capture_output=True, text=True).stdout.strip()
    rows, failures = [], 0
    for name in PROGRAMS:
        if args.only not in name:
            continue
        path = os.path.join(HERE, name)
        g_time, g_res = best_of([gpy, path], args.repeat, args.timeout)
        p_time, p_res = best_of([args.python, path], args.repeat, args.timeout)
        note, detail = "", ""
        if g_time is None:
            note, detail = "gpy failed", g_res
        elif p_time is None:
            note, detail = "python failed", p_res
        elif g_res.stdout != p_res.stdout:
            note = "OUTPUT MISMATCH"
            detail = f"gpy {g_res.stdout.strip()[:80]!r} vs python {p_res.stdout.strip()[:80]!r}"
        if note:
            failures += 1
            g_time = None  # a failed or wrong run has no meaningful time
        ratio = g_time / p_time if g_time and p_time else None
        rows.append((name[:-3], g_time, p_time, ratio, note))
        print(f"  {name}: gpy {fmt(g_time)} s, python {fmt(p_time)} s"
              + (f"  {note}: {detail}" if note else ""), file=sys.stderr, flush=True)

    header = ("program", "gpy s", "python s", "gpy/python")
    print()
    print(f"{header[0]:<12} {header[1]:>9} {header[2]:>9} {header[3]:>11}")
    for prog, g, p, ratio, note in rows:
        print(f"{prog:<12} {fmt(g):>9} {fmt(p):>9} {fmt_ratio(ratio):>11}  {note}".rstrip())

    print()
    print(f"Markdown for bench/RESULTS.md ({datetime.date.today().isoformat()}, {cpu_name()}, {gpy_version(gpy)}, "
          f"Python {py_version}, best of {args.repeat}):")
    print()
    print("| program | gpy (s) | python (s) | gpy / python |")
    print("|---|---:|---:|---:|")
    for prog, g, p, ratio, note in rows:
        cell = fmt_ratio(ratio) + (f" ({note})" if note else "")
        print(f"| {prog} | {fmt(g)} | {fmt(p)} | {cell} |")
    sys.stdout.flush()
    sys.exit(1 if failures else 0)


def fmt(t):
    return "-" if t is None else f"{t:.3f}"


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}x"


if __name__ == "__main__":
    main()
