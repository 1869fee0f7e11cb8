#!/usr/bin/env python3
"""A kernel that faults on the GPU (issue 22): a raw kernel writing far out
of bounds must end the script with exit status 1 within seconds (no hang),
and the message must name CUDA's error, the kernel and the .gpy line that
launched it; the statements after the fault must not run.

  python3 tests/gpu/fault.py --gpy dist/gpy

Prints one line per check and "N passed, N failed"; exits 1 on a failure,
2 when no GPU is usable.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from gpu_checks import Tally, gpu_count

SCRIPT = """import numpy as np
poke = np.RawKernel(r'''
extern "C" __global__ void poke_far(float* x, long long n) {
    x[threadIdx.x + n] = 1.0f;
}
''', 'poke_far')
x = np.zeros(1024, dtype=np.float32)
print('before', float(x.sum()), flush=True)
for k in range(3):
    poke((4,), (256,), (x, np.int64(1) << 40))
print('after', float(x.sum()))
print('not reached')
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpy", default="build/gpy")
    args = ap.parse_args()
    gpy = os.path.abspath(args.gpy)
    env = dict(os.environ, GPY_BACKEND="cuda")
    if gpu_count(gpy, env) == 0:
        return 2
    tally = Tally()
    check = tally.check

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fault.gpy")
        with open(path, "w") as f:
            f.write(SCRIPT)
        t0 = time.time()
        try:
            r = subprocess.run([gpy, path], capture_output=True, text=True, env=env, timeout=120)
        except subprocess.TimeoutExpired:
            check("the script ends", False, "still running after 120 s")
            return tally.finish()
        took = time.time() - t0
        detail = f"rc {r.returncode} in {took:.1f} s\nstdout {r.stdout!r}\nstderr {r.stderr[-1500:]!r}"
        check("exit status 1", r.returncode == 1, detail)
        check("ends within 60 s", took < 60, detail)
        check("statements before the fault ran, none after", r.stdout.startswith("before 0.0") and "not reached" not in r.stdout, detail)
        check("names CUDA's error", "CUDA_ERROR_ILLEGAL_ADDRESS" in r.stderr, detail)
        check("names the kernel", "poke_far" in r.stderr, detail)
        check("names the launching line", "fault.gpy:10" in r.stderr, detail)
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
