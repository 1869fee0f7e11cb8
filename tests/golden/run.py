#!/usr/bin/env python3
"""Generated-kernel golden tests: each program here is run with GPY_DEBUG=3,
which prints every kernel the planner runs (name, what it computes, source)
in launch order; the text must equal the committed NAME.kernels file, so a
fusion or emitter change shows up as a reviewable diff. The same run's
--dump-kernels output (each kernel's CUDA text: its GPU entry points and
__global__ wrappers, without the preludes), in the same order, must equal
NAME.cuda, so a change of the GPU code shows too.

  python3 tests/golden/run.py --gpy build/gpy            # check
  python3 tests/golden/run.py --gpy build/gpy --update   # rewrite the goldens
"""
import argparse
import difflib
import os
import pathlib
import subprocess
import sys
import tempfile

here = pathlib.Path(__file__).resolve().parent
ap = argparse.ArgumentParser()
ap.add_argument("--gpy", required=True)
ap.add_argument("--update", action="store_true")
args = ap.parse_args()

passed = failed = 0
for prog in sorted(here.glob("*.gpy")):
    # The plans of compiled kernels: on a GPU that has not compiled a fused
    # reduction yet, its first calls run as an unfused stand-in (codegen/stand_in.h).
    env = dict(os.environ, GPY_DEBUG="3", GPY_TIER0="0")
    with tempfile.TemporaryDirectory() as dump:
        r = subprocess.run([args.gpy, "--dump-kernels", dump, str(prog)], capture_output=True, text=True, env=env, timeout=120)
        if r.returncode != 0:
            failed += 1
            print(f"FAIL {prog.name}: exit {r.returncode}\n{r.stderr[-2000:]}")
            continue
        lines = [line for line in r.stderr.splitlines() if not line.startswith("gpy: warning")]
        kernels = "".join(line + "\n" for line in lines)
        names = []  # launch order, each kernel once
        for line in lines:
            if line.startswith("gpy: kernel "):
                name = line.split()[2].rstrip(":")
                if name not in names:
                    names.append(name)
        cuda = "".join(pathlib.Path(dump, name + ".cu").read_text() + "\n" for name in names)
    ok = True
    for golden, got in ((prog.with_suffix(".kernels"), kernels), (prog.with_suffix(".cuda"), cuda)):
        if args.update:
            golden.write_text(got)
            print(f"updated {golden.name}")
            continue
        want = golden.read_text() if golden.exists() else ""
        if got != want:
            ok = False
            diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "golden", "now", lineterm="", n=2)
            print(f"FAIL {prog.name}: generated kernels differ from {golden.name}")
            print("\n".join(list(diff)[:80]))
    if ok:
        passed += 1
    else:
        failed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
