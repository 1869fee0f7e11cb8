#!/usr/bin/env python3
"""Run the NumPy program corpus (tests/programs/pNNN_*.py) and compare output.

Usage:
    run.py --gpy PATH [--jobs N] [--filter SUBSTR]   run every program through gpy
    run.py --python  [--jobs N] [--filter SUBSTR]    check expected/*.out are current
    run.py --update  [--jobs N] [--filter SUBSTR]    regenerate expected/*.out with python3

A program's record is its stdout, byte for byte, followed by the line
`[exit code N]` when its exit status N is not 0 (stderr is not compared).
expected/NAME.out holds the record real CPython + NumPy 2 produce.

xfail.txt lists programs known to fail under gpy (`NAME # root cause`); a
listed program that fails counts as xfail, a listed one that passes is an
XPASS and counts as a failure. In --python/--update mode xfail.txt is ignored.

The environment (GPY_BACKEND included) is passed through unchanged.
The last line printed is exactly `N passed, N failed, N xfail`; the exit
status is 0 iff nothing failed unexpectedly.
"""

import argparse
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected")
XFAIL = os.path.join(HERE, "xfail.txt")
TIMEOUT_S = float(os.environ.get("GPY_TEST_TIMEOUT", "30"))


def programs(filt):
    names = []
    for path in sorted(glob.glob(os.path.join(HERE, "p[0-9][0-9][0-9]*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        if filt and filt not in name:
            continue
        names.append(name)
    return names


def load_xfail():
    # On the GPU (GPY_BACKEND=cuda) xfail_gpu.txt adds the programs whose
    # printed digits depend on CUDA's libm or the GPU's summation order
    # (docs/differences.md, "The CUDA backend").
    out = {}
    files = [XFAIL]
    if os.environ.get("GPY_BACKEND") == "cuda":
        files.append(os.path.join(HERE, "xfail_gpu.txt"))
    for path in files:
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                body = line.split("#", 1)
                name = body[0].strip()
                if name:
                    out[name] = body[1].strip() if len(body) > 1 else ""
    return out


def run_one(cmd, name):
    """Return (record_bytes, error_string_or_None)."""
    path = os.path.join(HERE, name + ".py")
    try:
        p = subprocess.run(cmd + [path], cwd=HERE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, "timeout after %gs" % TIMEOUT_S
    rec = p.stdout
    if p.returncode != 0:
        if rec and not rec.endswith(b"\n"):
            rec += b"\n"
        rec += b"[exit code %d]\n" % p.returncode
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        msg = [l for l in err if "error:" in l or "Error" in l]
        return rec, ((msg or err)[-1].strip() if err else None)
    return rec, None


def first_diff(expected, got):
    e = expected.decode("utf-8", "replace").split("\n")
    g = got.decode("utf-8", "replace").split("\n")
    for i in range(max(len(e), len(g))):
        el = e[i] if i < len(e) else "<end of output>"
        gl = g[i] if i < len(g) else "<end of output>"
        if el != gl:
            return "line %d: expected %r got %r" % (i + 1, el, gl)
    return "outputs differ (bytes)"


def read_expected(name):
    path = os.path.join(EXPECTED, name + ".out")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--gpy", metavar="PATH", help="gpy binary to test")
    mode.add_argument("--python", action="store_true",
                      help="check expected/*.out against python3")
    mode.add_argument("--update", action="store_true",
                      help="regenerate expected/*.out with python3")
    ap.add_argument("--python-exe", default="python3")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--filter", default="")
    args = ap.parse_args()

    names = programs(args.filter)
    if args.gpy:
        exe = os.path.abspath(args.gpy) if os.path.exists(args.gpy) else shutil.which(args.gpy)
        if not exe:
            print("run.py: gpy binary not found: %s" % args.gpy, file=sys.stderr)
            return 2
        cmd = [exe]
        xfail = load_xfail()
    else:
        cmd = [args.python_exe]
        xfail = {}

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        results = list(ex.map(lambda n: (n, run_one(cmd, n)), names))

    passed = failed = xfailed = 0
    if args.update:
        os.makedirs(EXPECTED, exist_ok=True)
        for name, (rec, err) in results:
            if rec is None:
                print("FAIL %s: %s" % (name, err))
                failed += 1
                continue
            if err is not None:
                print("NOTE %s exits non-zero under python3: %s" % (name, err))
            with open(os.path.join(EXPECTED, name + ".out"), "wb") as f:
                f.write(rec)
            passed += 1
        print("%d passed, %d failed, %d xfail" % (passed, failed, xfailed))
        return 1 if failed else 0

    for name, (rec, err) in results:
        exp = read_expected(name)
        if exp is None:
            ok, why = False, "no expected/%s.out (run --update)" % name
        elif rec is None:
            ok, why = False, err
        elif rec == exp:
            ok, why = True, None
        else:
            ok, why = False, first_diff(exp, rec)
            if err:
                why += " [stderr: %s]" % err[:200]
        if name in xfail:
            if ok:
                print("XPASS %s" % name)
                failed += 1
            else:
                xfailed += 1
        elif ok:
            passed += 1
        else:
            print("FAIL %s: %s" % (name, why))
            failed += 1
    print("%d passed, %d failed, %d xfail" % (passed, failed, xfailed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
