#!/usr/bin/env python3
"""Sharing GPUs (issue 22's reliability list), on a machine with a GPU:

1. two gpy processes on one GPU at once, each sorting, gathering, scanning,
   solving and reducing in a loop; each process's checksums must equal the
   ones a process alone printed, and NumPy's;
2. with two or more GPUs, `gpy --device 1`: the script starts on device 1
   (new arrays live there, `with np.cuda.Device(0)` blocks switch and come
   back), and its checksums equal NumPy's.

  python3 tests/gpu/shared_gpu.py --gpy dist/gpy

Prints one line per check and "N passed, N failed"; exits 1 on a failure,
2 when no GPU is usable (on the GPU machine that is an error, not a pass).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

from gpu_checks import Tally, gpu_count

# Valid as gpy and as Python with NumPy: one line of checksums per round.
WORK = """import numpy as np
import sys
rounds = int(sys.argv[1])
n = 1 << 20
for r in range(rounds):
    x = ((np.arange(n) * (0.6180339887498949 + r)) % 1.0).astype(np.float32)
    s = np.sort(x)
    order = np.argsort(x, kind='stable')
    g = x[order[::7]]
    c = np.cumsum(x.astype(np.float64))
    a = np.eye(64) * 4.0 + ((np.arange(64 * 64) % 13) / 13.0).reshape(64, 64)
    sol = np.linalg.solve(a, np.arange(64.0))
    print(r, float(s[n // 3]), int(order[12345]), round(float(g.sum(dtype=np.float64)), 4), round(float(c[-1]), 4),
          round(float(sol.sum()), 9), int((x > 0.5).sum()))
"""

# Starts on the device --device names; blocks on device 0 come back to it.
ON_DEVICE_1 = """import numpy as np
x = np.arange(1 << 20, dtype=np.float64) % 977.0
start = x.device.id
with np.cuda.Device(0):
    y = np.ones(1000) * 3
    inside = y.device.id
back = (x * 2).device.id
z = np.sort(x)[::-1]
w = np.asarray(y)
print(start, inside, back, w.device.id, round(float(z[:1000].sum()), 6), float((w + 1).sum()), int(np.argmax(x)))
"""


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpy", default="build/gpy")
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    gpy = os.path.abspath(args.gpy)
    env = dict(os.environ, GPY_BACKEND="cuda")
    devices = gpu_count(gpy, env)
    if devices == 0:
        return 2
    tally = Tally()
    check = tally.check

    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, "work.gpy")
        with open(work, "w") as f:
            f.write(WORK)
        want = run([sys.executable, work, str(args.rounds)]).stdout
        alone = run([gpy, work, str(args.rounds)], env)
        check("one process equals NumPy", alone.returncode == 0 and alone.stdout == want, alone.stdout[-300:] + alone.stderr[-500:])
        procs = [subprocess.Popen([gpy, work, str(args.rounds)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                 for _ in range(2)]
        outs = [p.communicate(timeout=600) + (p.returncode,) for p in procs]
        for k, (out, err, rc) in enumerate(outs):
            check(f"process {k} of two at once equals NumPy", rc == 0 and out == want, f"rc {rc}\n{out[-300:]}\n{err[-500:]}")
        if devices >= 2:
            prog = os.path.join(tmp, "device1.gpy")
            with open(prog, "w") as f:
                f.write(ON_DEVICE_1)
            got = run([gpy, "--device", "1", prog], env)
            ref = run([sys.executable, "-c", ON_DEVICE_1.replace("x.device.id", "1").replace("y.device.id", "0")
                       .replace("(x * 2).device.id", "1").replace("w.device.id", "1").replace("with np.cuda.Device(0):", "if True:")])
            check("--device 1 with a Device(0) block", got.returncode == 0 and got.stdout == ref.stdout,
                  f"got {got.stdout!r} {got.stderr[-500:]!r}, want {ref.stdout!r} {ref.stderr[-300:]!r}")
        else:
            print(f"skip --device 1: {devices} GPU")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
