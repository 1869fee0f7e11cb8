#!/usr/bin/env python3
"""Ctrl-C while the GPU works (base/interrupt.h): a script that keeps the GPU
busy (a round queues ~100 kernels, then waits for them) is sent SIGINT; the
host's wait for the device must stop well before the round ends (it polls
the current stream), the script's `except KeyboardInterrupt` run, and arrays
stay usable afterwards.

  python3 tests/gpu/interrupt.py --gpy dist/gpy

Prints one line per check and "N passed, N failed"; exits 1 on a failure.
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

SCRIPT = """import numpy as np
import time
x = np.ones(2**28, dtype=np.float32) * np.float32(0.5)

def round_():
    # ~1000 kernels over 2^28 floats queued on the stream (seconds of GPU
    # work on an H200), then one wait for all of them.
    y = x
    for k in range(2000):
        y = np.arctan2(np.sin(y), np.cos(y) + np.float32(1.5))
    return float(y.sum())

round_()
t0 = time.time()
round_()
print('round_s', round(time.time() - t0, 3), flush=True)
print('ready', flush=True)
try:
    while True:
        round_()
except KeyboardInterrupt:
    print('caught', flush=True)
print(np.arange(5).sum(), float(x[:10].sum()))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpy", required=True)
    args = ap.parse_args()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "busy.gpy")
        with open(path, "w") as f:
            f.write(SCRIPT)
        proc = subprocess.Popen([args.gpy, "--backend", "cuda", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = proc.stdout.readline()
        if not line.startswith("round_s"):
            print(f"FAIL the script did not start: {line!r} {proc.stderr.read()[-2000:]}")
            print("0 passed, 1 failed")
            return 1
        kernel = float(line.split()[1])
        proc.stdout.readline()  # ready
        time.sleep(max(0.5, kernel / 2))
        t0 = time.time()
        proc.send_signal(signal.SIGINT)
        caught = proc.stdout.readline()
        latency = time.time() - t0
        proc.wait(timeout=120)  # (not communicate(): readline() above may hold output in its buffer)
        out, err = proc.stdout.read(), proc.stderr.read()
        checks = [
            ("the wait stopped: KeyboardInterrupt caught", caught == "caught\n"),
            (f"arrays usable after it: {out.strip()!r}", out == "10 5.0\n" and proc.returncode == 0),
            (f"stopped in {latency:.3f} s, a round takes {kernel:.3f} s", latency < max(0.25, kernel / 2)),
        ]
        for what, ok in checks:
            print(("ok   " if ok else "FAIL ") + what)
            passed += ok
            failed += not ok
        if failed:
            print(err[-2000:])
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
