"""First-run latency of never-seen kernels: gpy with the tier-0 interpreter
and stand-ins (the default) against gpy compiling each kernel before its
first launch (GPY_TIER0=0), each with a fresh kernel cache. The interpreter
and the generic reductions are compiled once beforehand into the tier-0
run's cache, as on any machine after gpy's first run there.

  python3 bench/gpu/first_run.py --gpy dist/gpy [--n 1048576]

"first vs last": the largest relative difference between a workload's first
result (interpreter or stand-in) and its last (the compiled kernel): 0 for
elementwise kernels; float sums may differ in the last bits (another order).
"""
import argparse
import os
import random
import subprocess
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--gpy", required=True)
ap.add_argument("--n", type=int, default=1 << 20)
args = ap.parse_args()
script = os.path.join(here, "first_run.gpy")


salts = random.sample(range(512), 2)  # a kernel source per run that no earlier run compiled


def run(env_extra, cache, salt):
    env = dict(os.environ, GPY_CACHE_DIR=cache, **env_extra)
    out = subprocess.run([args.gpy, "--backend", "cuda", script, str(args.n), str(salt)], env=env, capture_output=True, text=True,
                         check=True)
    rows = {}
    for line in out.stdout.splitlines():
        name, first, second, last, slow, diff = line.split()
        rows[name] = (float(first), float(second), float(last), int(slow), float(diff))
    return rows


with tempfile.TemporaryDirectory() as tier0_cache, tempfile.TemporaryDirectory() as plain_cache:
    # Compile the interpreter (GPY_TIER0=always waits for it and compiles
    # nothing else it can run) and the generic reductions that stand-ins use,
    # which its compile queues behind it (as on a machine's first gpy run).
    subprocess.run([args.gpy, "--backend", "cuda", "-c", "import time\nimport numpy as np\nprint((np.ones(4) * 2).sum())\ntime.sleep(8)"],
                   env=dict(os.environ, GPY_CACHE_DIR=tier0_cache, GPY_TIER0="always"), check=True, capture_output=True)
    plain = run({"GPY_TIER0": "0"}, plain_cache, salts[0])
    tier0 = run({}, tier0_cache, salts[1])

print(f"first runs of new kernels, N = {args.n} float32 (ms)")
print(f"{'workload':16s} {'tier0 first':>12s} {'tier0 2nd':>10s} {'slow calls':>10s} {'compiled':>9s} {'GPY_TIER0=0 first':>18s} {'ratio':>6s} {'first vs last':>13s}")
for name in tier0:
    f, s2, last, slow, diff = tier0[name]
    pf = plain[name][0]
    print(f"{name:16s} {f:12.2f} {s2:10.2f} {slow:10d} {last:9.3f} {pf:18.1f} {pf / f:6.1f}x {diff:13.1e}")
