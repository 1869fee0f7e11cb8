#!/usr/bin/env python3
"""Run every examples/*.gpy and compare its stdout with examples/expected/NAME.out.

Usage: python3 tests/run_examples.py --gpy build/gpy [-v] [NAME ...]

Each example runs as `gpy examples/NAME.gpy` from the repository root with
stdin closed and a 60 s timeout. It passes when it exits 0, writes nothing to
stderr, and its stdout equals the expected file byte for byte. The expected
files were produced by running the examples under python3 (they are valid
Python as well). Prints one FAIL line per failing example with the first
differing line, then "N passed, N failed"; exits non-zero on failure.
"""
import argparse
import difflib
import os
import subprocess
import sys

TIMEOUT_S = 60
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(REPO_ROOT, "examples")
EXPECTED = os.path.join(EXAMPLES, "expected")


def first_difference(want, got):
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(), "expected", "got", n=1, lineterm=""))
    return "\n".join("    " + line for line in diff[:12])


def run_one(gpy, name):
    """Returns None on success, or a reason."""
    script = os.path.join("examples", name + ".gpy")
    expected_path = os.path.join(EXPECTED, name + ".out")
    if not os.path.exists(expected_path):
        return f"no expected output file {os.path.relpath(expected_path, REPO_ROOT)}"
    with open(expected_path, encoding="utf-8") as f:
        want = f.read()
    try:
        proc = subprocess.run([gpy, script], cwd=REPO_ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"timed out after {TIMEOUT_S} s"
    got = proc.stdout.decode("utf-8", errors="replace")
    err = proc.stderr.decode("utf-8", errors="replace")
    if proc.returncode != 0:
        tail = "\n".join("    " + l for l in err.strip().splitlines()[-8:])
        return f"exit code {proc.returncode}\n{tail}"
    if err:
        return "unexpected stderr:\n" + "\n".join("    " + l for l in err.strip().splitlines()[-8:])
    if got != want:
        return "stdout differs from the expected output:\n" + first_difference(want, got)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpy", required=True, help="path to the gpy binary")
    ap.add_argument("-v", action="store_true", help="also list passing examples")
    ap.add_argument("names", nargs="*", help="only these examples (file names without .gpy)")
    args = ap.parse_args()
    gpy = os.path.abspath(args.gpy)
    names = args.names or sorted(f[:-4] for f in os.listdir(EXAMPLES) if f.endswith(".gpy"))
    passed = failed = 0
    if not names:
        print("no examples found")
        failed = 1
    for name in names:
        reason = run_one(gpy, name)
        if reason is None:
            passed += 1
            if args.v:
                print(f"ok   {name}")
        else:
            failed += 1
            print(f"FAIL {name}: {reason}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
