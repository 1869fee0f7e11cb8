#!/usr/bin/env python3
"""Run the gpy script tests (tests/lang/**/*.gpy) and check their inline expectations.

Usage:
    run_script_tests.py --gpy PATH_TO_GPY [--jobs N] [--filter SUBSTR] [FILES_OR_DIRS...]
    run_script_tests.py --python [--python-exe PY] [--jobs N] [--filter SUBSTR] [FILES_OR_DIRS...]

Expectation comments inside a test file (see tests/README.md):

    print(x)  # expect: TEXT            one line of stdout, in file order
    x = 1 / 0  # expect runtime error: ZeroDivisionError: division by zero
    def (:     # expect error: invalid syntax
    # args: a b c                        (first line only) command-line arguments
    # exit: 3                            expected exit status (default 0)
    # gpy-only                           skip this file in --python mode
    # alone                              run after the others, with nothing
                                         beside it (it fills the GPU's memory)

Modes:
  --gpy PATH  run each file as `PATH FILE ARGS...` and check everything.
  --python    run each file with python3 to validate the corpus against real
              Python.  Files with `# gpy-only` or `# expect error:` are skipped.
              For `# expect runtime error: TEXT` the last line of Python's
              traceback must contain TEXT and the innermost traceback frame must
              be on the comment's line.

The last line printed is exactly `N passed, N failed`; the exit status is 0
iff nothing failed.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import zlib

# GPY_TEST_TIMEOUT: seconds per file (raised under compute-sanitizer, which is slow).
TIMEOUT_S = float(os.environ.get("GPY_TEST_TIMEOUT", "20"))

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(SCRIPT_DIR)
DEFAULT_DIR = os.path.join(SCRIPT_DIR, "lang")

# Order matters: the specific forms are tried before plain `# expect:`.
RE_EXPECT_ERROR = re.compile(r"#\s*expect error:\s?(.*)$")
RE_EXPECT_RUNTIME = re.compile(r"#\s*expect runtime error:\s?(.*)$")
RE_EXPECT = re.compile(r"#\s*expect:(.*)$")
RE_ARGS = re.compile(r"^\s*#\s*args:(.*)$")
RE_EXIT = re.compile(r"#\s*exit:\s*(-?\d+)\s*$")
RE_GPY_ONLY = re.compile(r"#\s*gpy-only\b")
RE_ALONE = re.compile(r"^#\s*alone\s*$", re.M)

# `FILE:LINE:COL: error: MESSAGE`
RE_DIAG = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")
# Python traceback frame: `  File "x.gpy", line 7, in f`
RE_PY_FRAME = re.compile(r'^\s*File "(?P<file>[^"]*)", line (?P<line>\d+)')


class TestSpec:
    def __init__(self, path):
        self.path = path
        self.expect = []          # [(line_no, text)]
        self.errors = []          # [(line_no, text)] compile errors
        self.runtime_errors = []  # [(line_no, text)]
        self.args = []
        self.exit_code = 0
        self.gpy_only = False
        self.problems = []        # malformed test file


def strip_one_space(text):
    return text[1:] if text.startswith(" ") else text


def parse_test(path):
    spec = TestSpec(path)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        spec.problems.append("cannot read test file: %s" % e)
        return spec
    for i, line in enumerate(lines, start=1):
        m = RE_ARGS.match(line)
        if m:
            if i == 1:
                spec.args = m.group(1).split()
            else:
                spec.problems.append("line %d: `# args:` must be on the first line" % i)
            continue
        m = RE_EXPECT_ERROR.search(line)
        if m:
            spec.errors.append((i, m.group(1).rstrip()))
            continue
        m = RE_EXPECT_RUNTIME.search(line)
        if m:
            spec.runtime_errors.append((i, m.group(1).rstrip()))
            continue
        m = RE_EXPECT.search(line)
        if m:
            spec.expect.append((i, strip_one_space(m.group(1)).rstrip()))
            continue
        m = RE_EXIT.search(line)
        if m:
            spec.exit_code = int(m.group(1))
            continue
        if RE_GPY_ONLY.search(line):
            spec.gpy_only = True
    if spec.errors and spec.runtime_errors:
        spec.problems.append("a test cannot expect both a syntax error and a runtime error")
    if len(spec.runtime_errors) > 1:
        spec.problems.append("a test can expect at most one runtime error")
    if (spec.errors or spec.runtime_errors) and spec.exit_code != 0:
        spec.problems.append("`# exit:` cannot be combined with an error expectation")
    return spec


def output_lines(stdout):
    lines = stdout.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [l.rstrip() for l in lines]


def short(s, limit=120):
    s = repr(s)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def compare_stdout(spec, stdout):
    """Return None if stdout matches the `# expect:` lines, else a message."""
    got = output_lines(stdout)
    want = spec.expect
    for idx in range(max(len(got), len(want))):
        if idx >= len(want):
            return "unexpected output line %d: %s (only %d expected)" % (
                idx + 1, short(got[idx]), len(want))
        lineno, text = want[idx]
        if idx >= len(got):
            return "missing output line %d: expected %s (from line %d), got end of output" % (
                idx + 1, short(text), lineno)
        if got[idx] != text:
            return "output line %d (expect on line %d): expected %s, got %s" % (
                idx + 1, lineno, short(text), short(got[idx]))
    return None


def diag_headers(stderr):
    out = []
    for line in stderr.split("\n"):
        m = RE_DIAG.match(line.rstrip("\r"))
        if m:
            out.append((m.group("file"), int(m.group("line")), int(m.group("col")), m.group("msg")))
    return out


def tail(text, n=6):
    lines = [l for l in text.rstrip("\n").split("\n") if l.strip()]
    return lines[-n:]


class Result:
    def __init__(self, path, status, message="", details=None):
        self.path = path
        self.status = status  # "pass", "fail", "skip"
        self.message = message
        self.details = details or []


def run_process(cmd, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % TIMEOUT_S
    except OSError as e:
        return None, "", "cannot run %s: %s" % (cmd[0], e)
    return (p.returncode,
            p.stdout.decode("utf-8", errors="replace").replace("\r\n", "\n"),
            p.stderr.decode("utf-8", errors="replace").replace("\r\n", "\n"))


def file_arg(path):
    try:
        rel = os.path.relpath(path, REPO_ROOT)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def check_gpy(spec, gpy):
    cmd = [gpy, file_arg(spec.path)] + spec.args
    code, stdout, stderr = run_process(cmd, REPO_ROOT)
    if code is None:
        return Result(spec.path, "fail", stderr)
    details = ["exit code %d" % code] + ["stderr: " + l for l in tail(stderr)]
    base = os.path.basename(spec.path)
    headers = [h for h in diag_headers(stderr) if os.path.basename(h[0]) == base]

    all_headers = diag_headers(stderr)
    last_err = tail(stderr, 1)
    if all_headers:
        err_note = "line %d: %s" % (all_headers[-1][1], all_headers[-1][3])
    else:
        err_note = last_err[0] if last_err else "no stderr"
    expected_code = 2 if spec.errors else 1 if spec.runtime_errors else spec.exit_code

    def fail(msg):
        if code != expected_code and "got exit" not in msg:
            msg += " [exit %d, %s]" % (code, short(err_note, 160))
        return Result(spec.path, "fail", msg, details)

    if spec.errors:
        if code != 2:
            return fail("expected a syntax error (exit 2), got exit %d" % code)
        for lineno, text in spec.errors:
            if not any(h[1] == lineno and text in h[3] for h in headers):
                got = "; ".join("line %d: %s" % (h[1], h[3]) for h in headers) or "no diagnostic"
                return fail("expected error on line %d containing %s, got %s" % (
                    lineno, short(text), got))
        msg = compare_stdout(spec, stdout)
        return fail(msg) if msg else Result(spec.path, "pass")

    if spec.runtime_errors:
        lineno, text = spec.runtime_errors[0]
        msg = compare_stdout(spec, stdout)
        if msg:
            return fail(msg)
        if code != 1:
            return fail("expected a runtime error (exit 1) on line %d, got exit %d" % (lineno, code))
        if not any(h[1] == lineno and text in h[3] for h in headers):
            got = "; ".join("line %d: %s" % (h[1], h[3]) for h in headers) or "no diagnostic"
            return fail("expected runtime error on line %d containing %s, got %s" % (
                lineno, short(text), got))
        return Result(spec.path, "pass")

    msg = compare_stdout(spec, stdout)
    if msg:
        return fail(msg)
    if code != spec.exit_code:
        return fail("expected exit code %d, got exit %d [%s]" % (spec.exit_code, code, short(err_note, 160)))
    return Result(spec.path, "pass")


def check_python(spec, python):
    if spec.gpy_only or spec.errors:
        return Result(spec.path, "skip")
    cmd = [python, spec.path] + spec.args
    env = dict(os.environ)
    env["PYTHONIOENCODING"] = "utf-8"
    try:
        p = subprocess.run(cmd, cwd=REPO_ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT_S, env=env)
        code = p.returncode
        stdout = p.stdout.decode("utf-8", errors="replace")
        stderr = p.stderr.decode("utf-8", errors="replace")
    except subprocess.TimeoutExpired:
        return Result(spec.path, "fail", "timed out after %d s" % TIMEOUT_S)
    details = ["exit code %d" % code] + ["stderr: " + l for l in tail(stderr)]

    def fail(msg):
        return Result(spec.path, "fail", msg, details)

    msg = compare_stdout(spec, stdout)
    if msg:
        return fail(msg)
    if spec.runtime_errors:
        lineno, text = spec.runtime_errors[0]
        if code != 1:
            return fail("expected a runtime error on line %d, got exit %d" % (lineno, code))
        lines = tail(stderr, 1)
        last = lines[0] if lines else ""
        if text not in last:
            return fail("expected last traceback line to contain %s, got %s" % (short(text), short(last)))
        frames = [int(m.group("line")) for m in map(RE_PY_FRAME.match, stderr.split("\n"))
                  if m and os.path.basename(m.group("file")) == os.path.basename(spec.path)]
        if not frames or frames[-1] != lineno:
            return fail("expected the innermost traceback frame on line %d, got %s" % (
                lineno, frames[-1] if frames else "none"))
        return Result(spec.path, "pass")
    if code != spec.exit_code:
        return fail("expected exit code %d, got %d" % (spec.exit_code, code))
    return Result(spec.path, "pass")


def collect(paths, filt):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                for n in sorted(names):
                    if n.endswith(".gpy"):
                        files.append(os.path.join(root, n))
        elif os.path.isfile(p):
            files.append(p)
        else:
            print("error: no such file or directory: %s" % p, file=sys.stderr)
            sys.exit(2)
    files = [os.path.abspath(f) for f in files]
    if filt:
        files = [f for f in files if filt in os.path.relpath(f, REPO_ROOT)]
    seen = set()
    unique = []
    for f in files:
        if f not in seen:
            seen.add(f)
            unique.append(f)
    return unique


def main():
    ap = argparse.ArgumentParser(description="Run gpy script tests with inline expectations.")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--gpy", metavar="PATH", help="path to the gpy interpreter binary")
    mode.add_argument("--python", action="store_true",
                      help="validate the corpus with real Python instead of gpy")
    ap.add_argument("--python-exe", default=sys.executable or "python3", metavar="PATH",
                    help="python interpreter for --python (default: the one running this script)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--filter", metavar="SUBSTR", help="only run tests whose path contains SUBSTR")
    ap.add_argument("--exclude", metavar="SUBSTR", action="append", default=[],
                    help="skip tests whose path contains SUBSTR (repeatable)")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="show exit code and stderr tail for each failure")
    ap.add_argument("--ci-shard", metavar="I/N",
                    help="under CI (CI=true) run only the files of shard I of N (by a hash of their path); "
                         "elsewhere all: CI's fast set of a repeated suite (the eager and tier-0 passes split the corpus)")
    ap.add_argument("paths", nargs="*", metavar="FILES_OR_DIRS")
    opts = ap.parse_args()

    if opts.gpy:
        gpy = os.path.abspath(opts.gpy) if os.sep in opts.gpy else opts.gpy
        if os.sep in opts.gpy and not os.access(gpy, os.X_OK):
            print("error: gpy binary not found or not executable: %s" % opts.gpy, file=sys.stderr)
            return 2

    files = collect(opts.paths or [DEFAULT_DIR], opts.filter)
    files = [f for f in files if not any(x in str(f) for x in opts.exclude)]
    if opts.ci_shard and os.environ.get("CI") == "true":
        index, count = (int(x) for x in opts.ci_shard.split("/"))
        files = [f for f in files if zlib.crc32(os.path.relpath(str(f), REPO_ROOT).encode()) % count == index]
    specs = [parse_test(f) for f in files]

    def run_one(spec):
        if spec.problems:
            return Result(spec.path, "fail", "malformed test: " + "; ".join(spec.problems))
        if opts.gpy:
            return check_gpy(spec, gpy)
        return check_python(spec, opts.python_exe)

    # `# alone` files (one that fills the card's memory) run after the
    # parallel batch, one at a time, so no other test meets their pressure.
    alone = [s for s in specs if RE_ALONE.search(open(s.path, errors="replace").read())]
    shared = [s for s in specs if s not in alone]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as ex:
        results = list(ex.map(run_one, shared))
    results += [run_one(s) for s in alone]

    passed = failed = skipped = 0
    for r in results:
        if r.status == "pass":
            passed += 1
        elif r.status == "skip":
            skipped += 1
        else:
            failed += 1
            print("FAIL %s: %s" % (file_arg(r.path), r.message))
            if opts.verbose:
                for d in r.details:
                    print("    " + d)
    if skipped:
        print("%d skipped (gpy-only or syntax-error tests)" % skipped)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
