#!/usr/bin/env python3
"""Runs every input the fuzzer once crashed on (tests/fuzz/regressions/) through
build/gpy: each must end with a normal exit code (0, 1 or 2), never a signal
or a hang."""
import argparse
import pathlib
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--gpy", required=True)
args = parser.parse_args()

root = pathlib.Path(__file__).resolve().parent / "regressions"
passed = failed = 0
for path in sorted(root.iterdir()):
    if not path.is_file():
        continue
    try:
        r = subprocess.run([args.gpy, str(path)], stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
        ok = r.returncode in (0, 1, 2)
        why = f"exit code {r.returncode}"
    except subprocess.TimeoutExpired:
        ok, why = False, "timed out after 20 s"
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {path.name}: {why}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
