#!/usr/bin/env python3
"""Differential test: random programs run by gpy and by real NumPy 2, compared.

Usage:
    python3 tests/differential/run.py --gpy build/gpy [--cases 5000] [--seed S] [--rotate]
                                      [--batch 250] [--jobs 2] [--include-unsupported]
                                      [--keep DIR] [--max-report N] [-v]

tests/differential/gen.py writes each batch of cases as one script that is
both Python and gpy; the script runs under `python3 -W ignore` (the reference)
and under gpy, and every case's `CASE` line is compared:

- the same exception type name when either side raised;
- the same dtype, the same type(r).__name__ (ndarray, np.float32, float,
  np.bool, ...) and the same shape;
- values: ints and bools exactly (uint64 through its two 32-bit halves);
  complex values as their real and imaginary parts, each like a float of
  the component dtype;
  floats within rel 1e-12 / abs 1e-300 (float64), 2e-6 / 1e-30 (float32),
  2e-3 / 1e-7 (float16), NaN only where NumPy has NaN, infinities exactly,
  plus a per-element allowance computed by the generator where the result is
  not bit-reproducible: libm functions (4 ULP of their dtype, propagated
  through later + - * / max min where) and reductions (summation order:
  4*sqrt(n)*eps times the sum of |x|, and the like for mean/var/std/prod).

Seeds: cases come from --seed (default 12345). With --rotate, half the cases
come from that fixed seed and half from a seed derived from today's date (UTC),
so CI explores new programs every day while keeping a stable baseline. Every
failure names its seed and case; `python3 tests/differential/gen.py --seed S
--case K` regenerates it as a standalone program.

If gpy dies or hangs in a batch, the first case without output is reported
(exit status and stderr tail) and the batch is resumed after it.

Ends with "N passed, N failed"; exits 1 if anything failed.
"""
import argparse
import concurrent.futures
import datetime
import glob
import math
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

BASE_TOL = {"float64": (1e-12, 1e-300), "float32": (2e-6, 1e-30), "float16": (2e-3, 1e-7)}
# The generator evaluates with NumPy under warnings.catch_warnings, which is not
# thread-safe: generate one script at a time.
GEN_LOCK = threading.Lock()
INT_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
COMPLEX_PART = {"complex64": "float32", "complex128": "float64"}


# ---------------------------------------------------------------- parsing
def parse_value(text):
    """Parses _fmt's output: nested [..] lists of T/F, ints and float reprs."""
    pos = 0

    def atom(tok):
        if tok == "T":
            return True
        if tok == "F":
            return False
        try:
            return int(tok)
        except ValueError:
            return float(tok)  # 'nan', 'inf', '-inf', '1e+300' all parse

    def item():
        nonlocal pos
        if text.startswith("[", pos):
            pos += 1
            out = []
            if text.startswith("]", pos):
                pos += 1
                return out
            while True:
                out.append(item())
                if text.startswith(",", pos):
                    pos += 1
                elif text.startswith("]", pos):
                    pos += 1
                    return out
                else:
                    raise ValueError("bad list at %d" % pos)
        end = pos
        while end < len(text) and text[end] not in ",]":
            end += 1
        tok = text[pos:end]
        pos = end
        return atom(tok)

    v = item()
    if pos != len(text):
        raise ValueError("trailing text")
    return v


def flatten(v, shape):
    """Flattens nested lists, checking that their structure matches shape."""
    if not shape:
        if isinstance(v, list):
            raise ValueError("a list where the shape is ()")
        return [v]
    if not isinstance(v, list) or len(v) != shape[0]:
        raise ValueError("nesting does not match the shape")
    out = []
    for x in v:
        out.extend(flatten(x, shape[1:]))
    return out


def parse_line(line):
    """A CASE line -> (k, result) where result is ("ERR", name) or
    ("OK", dtype, shape, flat values); raises ValueError if malformed."""
    parts = line.split(" ")
    k = int(parts[1])
    if parts[2] == "ERR":
        return k, ("ERR", parts[3] if len(parts) > 3 else "?")
    tname, dtype, shape_s = parts[2], parts[3], parts[4]
    if not (shape_s.startswith("(") and shape_s.endswith(")")):
        raise ValueError("no shape")
    inner = shape_s[1:-1]
    shape = tuple(int(d) for d in inner.split(",")) if inner else ()
    if len(parts) > 5 and parts[5] == "U":
        hi = flatten(parse_value(parts[6]), shape)
        lo = flatten(parse_value(parts[7]), shape)
        vals = [(h << 32) + l if isinstance(h, int) and isinstance(l, int) else None for h, l in zip(hi, lo)]
    elif len(parts) > 5 and parts[5] == "C":
        # complex: the real parts, then the imaginary parts (each compared as floats)
        vals = flatten(parse_value(parts[6]), shape) + flatten(parse_value(parts[7]), shape)
    else:
        vals = flatten(parse_value(" ".join(parts[5:])), shape)
    return k, ("OK", tname, dtype, shape, vals)


def parse_output(text):
    out = {}
    bad = {}
    for line in text.splitlines():
        if not line.startswith("CASE "):
            continue
        try:
            k, res = parse_line(line)
        except (ValueError, IndexError) as e:
            try:
                k = int(line.split(" ")[1])
                bad[k] = "unparsable output (%s): %s" % (e, line[:200])
            except (ValueError, IndexError):
                pass
            continue
        out[k] = (res, line)
    return out, bad


# ---------------------------------------------------------------- comparison
def fmt_num(x):
    return repr(x)


def compare(ref, got, meta):
    """None if got matches ref, else a one-line reason."""
    if ref[0] == "ERR" or got[0] == "ERR":
        if ref == got:
            return None
        if ref[0] == "ERR" and got[0] == "ERR":
            return "exception type: numpy %s, gpy %s" % (ref[1], got[1])
        if ref[0] == "ERR":
            return "numpy raised %s, gpy returned a %s result" % (ref[1], got[2])
        return "gpy raised %s, numpy returned a %s result" % (got[1], ref[2])
    _, rtn, rdt, rshape, rv = ref
    _, gtn, gdt, gshape, gv = got
    if rdt != gdt:
        return "dtype: numpy %s, gpy %s" % (rdt, gdt)
    if rtn != gtn:
        return "type: numpy %s, gpy %s" % (rtn, gtn)
    if rshape != gshape:
        return "shape: numpy %s, gpy %s" % (rshape, gshape)
    if len(rv) != len(gv):
        return "value count: numpy %d, gpy %d" % (len(rv), len(gv))
    tol = meta.get("tol") if meta else None
    if tol is not None and len(tol) != len(rv):
        tol = None
    bad = []
    if rdt in COMPLEX_PART:
        rdt = COMPLEX_PART[rdt]  # real parts then imaginary parts, compared as floats
    if rdt in INT_DTYPES:
        for i, (a, b) in enumerate(zip(rv, gv)):
            if type(a) is not type(b) or a != b:
                bad.append((i, a, b, 0.0))
    else:
        rel, absd = BASE_TOL.get(rdt, (1e-12, 1e-300))
        for i, (a, b) in enumerate(zip(rv, gv)):
            if not isinstance(b, float):
                bad.append((i, a, b, 0.0))
                continue
            extra = tol[i] if tol is not None else 0.0
            if math.isinf(extra):
                continue
            if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
                if not (a == b or (math.isnan(a) and math.isnan(b))):
                    bad.append((i, a, b, extra))
                continue
            allowed = rel * abs(a) + absd + extra
            if abs(a - b) > allowed:
                bad.append((i, a, b, allowed))
    if not bad:
        return None
    i, a, b, allowed = bad[0]
    n = max(1, len(rv) // (2 if gdt in COMPLEX_PART else 1))
    where = unravel(i % n, rshape) + (" (%s part)" % ("imaginary" if i >= n else "real")
                                      if gdt in COMPLEX_PART else "")
    msg = "%d of %d values differ; first at %s: numpy %s, gpy %s" % (len(bad), len(rv), where, fmt_num(a),
                                                                       fmt_num(b))
    if rdt not in INT_DTYPES and isinstance(b, float) and isinstance(a, float) and not math.isnan(a - b):
        msg += " (|diff| %.3g, allowed %.3g)" % (abs(a - b), allowed)
    return msg


def unravel(i, shape):
    if not shape:
        return "()"
    idx = []
    for d in reversed(shape):
        idx.append(i % d if d else 0)
        i //= d if d else 1
    return "[" + ", ".join(str(x) for x in reversed(idx)) + "]"


# ---------------------------------------------------------------- running
def run_prog(cmd, path, timeout, env_extra=None):
    """Runs cmd+[path]; returns (stdout, stderr, returncode or 'timeout', pid)."""
    env = dict(os.environ)
    env.update(env_extra or {})
    try:
        p = subprocess.Popen(cmd + [path], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=os.path.dirname(path))
    except OSError as e:
        return "", str(e), "could not start", None
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        rc = "timeout after %ds" % timeout
    return out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), rc, p.pid


class Batch:
    def __init__(self, seed, ks):
        self.seed = seed
        self.ks = list(ks)
        self.results = []   # (seed, k, reason or None, lines, meta, ref_line, got_line)
        self.notes = []     # batch-level problems (crashes, timeouts)
        self.seconds = {"python": 0.0, "gpy": 0.0}


def run_batch(batch, opts, tmpdir):
    seed, ks = batch.seed, batch.ks
    with GEN_LOCK:
        text, info = gen.script(seed, ks, opts)
    path = os.path.join(tmpdir, "prog_%s_%d.py" % (seed, ks[0]))
    with open(path, "w") as f:
        f.write(text)
    t0 = time.time()
    pout, perr, prc, _ = run_prog([opts.python, "-W", "ignore"], path, opts.timeout)
    batch.seconds["python"] += time.time() - t0
    ref, refbad = parse_output(pout)
    if prc != 0 or "DONE" not in pout:
        batch.notes.append("python3 failed on %s (exit %s): %s" % (path, prc, perr.strip()[-2000:]))
    got, gotbad = {}, {}
    crashes = {}
    todo = list(ks)
    gpy_path = path
    silent_runs = 0  # consecutive runs that printed no case at all
    while todo:
        t0 = time.time()
        gout, gerr, grc, _ = run_prog([opts.gpy], gpy_path, opts.timeout,
                                        {"GPY_CACHE_DIR": opts.cache_dir} if opts.cache_dir else None)
        batch.seconds["gpy"] += time.time() - t0
        g, gb = parse_output(gout)
        got.update(g)
        gotbad.update(gb)
        missing = [k for k in todo if k not in g and k not in gb]
        if not missing:
            if grc != 0:
                batch.notes.append("gpy exited with %s after printing every case of %s\n%s"
                                   % (grc, gpy_path, tail(gerr)))
            break
        culprit = missing[0]
        crashes[culprit] = "no output from gpy (exit %s); stderr tail:\n%s" % (grc, tail(gerr))
        rest = [k for k in missing[1:]]
        silent_runs = silent_runs + 1 if len(missing) == len(todo) else 0
        if silent_runs >= 3 and rest:
            for k in rest:
                crashes[k] = "no output from gpy: it printed nothing in 3 runs in a row, giving up on the batch"
            batch.notes.append("gpy printed nothing in 3 runs in a row (exit %s) for %s; last stderr:\n%s"
                               % (grc, gpy_path, tail(gerr)))
            break
        if not rest:
            break
        with GEN_LOCK:
            text2, _ = gen.script(seed, rest, opts)
        gpy_path = os.path.join(tmpdir, "prog_%s_%d_resume%d.py" % (seed, ks[0], rest[0]))
        with open(gpy_path, "w") as f:
            f.write(text2)
        todo = rest
    for k in ks:
        lines, meta = info[k]
        rline = ref.get(k, (None, None))[1]
        gline = got.get(k, (None, None))[1]
        if k in refbad or k not in ref:
            reason = "numpy side: " + refbad.get(k, "no output (see the batch note)")
            reason = "HARNESS " + reason
        elif k in crashes:
            reason = crashes[k]
        elif k in gotbad:
            reason = gotbad[k]
        elif k not in got:
            reason = "no output from gpy"
        else:
            reason = compare(ref[k][0], got[k][0], meta)
        batch.results.append((seed, k, reason, lines, meta, rline, gline))
    if not opts.keep:
        for p in glob.glob(os.path.join(tmpdir, "prog_%s_%d*.py" % (seed, ks[0]))):
            os.remove(p)
    return batch


def tail(s, n=12):
    lines = s.strip().splitlines()[-n:]
    return "\n".join("      " + ln for ln in lines)


def clip(s, n=600):
    if s is None:
        return "(none)"
    return s if len(s) <= n else s[:n] + " ... (%d chars)" % len(s)


def signature(reason, meta):
    """A coarse grouping key for the summary."""
    r = reason.split(";")[0]
    if "values differ" in reason:
        r = "values differ"
    if reason.startswith("no output"):
        r = "gpy crashed / no output"
    return "%s [%s]" % (r, meta.get("kind") if meta else "?")


def rotating_seed():
    return int(datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpy", required=True, help="the gpy executable")
    ap.add_argument("--cases", type=int, default=5000)
    ap.add_argument("--ci-cases", type=int, help="the number of cases under CI (CI=true): CI's fast set; elsewhere --cases")
    ap.add_argument("--seed", default="12345", help="the fixed seed (default 12345)")
    ap.add_argument("--rotate", action="store_true",
                    help="half the cases from --seed, half from a seed derived from today's date")
    ap.add_argument("--rotate-seed", help="use this instead of the date-derived seed (to reproduce a CI day)")
    ap.add_argument("--start", type=int, default=0, help="first case number")
    ap.add_argument("--batch", type=int, default=250, help="cases per script (amortises start-up)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per script run")
    ap.add_argument("--python", default=sys.executable or "python3")
    ap.add_argument("--cache-dir", help="gpy's kernel cache for this run (default: gpy's own, "
                                        "$GPY_CACHE_DIR or ~/.cache/gpy)")
    ap.add_argument("--include-unsupported", action="store_true",
                    help="also generate features gpy does not implement yet (KNOWN_ISSUES.md)")
    ap.add_argument("--keep", metavar="DIR", help="keep the generated scripts in DIR")
    ap.add_argument("--max-report", type=int, default=0, help="print at most N reproducers (0: all)")
    ap.add_argument("-v", "--verbose", action="store_true")
    opts = ap.parse_args()
    if int(gen.np.__version__.split(".")[0]) < 2:
        print("run.py: needs NumPy 2 (found %s)" % gen.np.__version__, file=sys.stderr)
        return 2
    opts.gpy = os.path.abspath(opts.gpy)
    if not os.access(opts.gpy, os.X_OK):
        print("run.py: %s is not executable" % opts.gpy, file=sys.stderr)
        return 2

    if opts.ci_cases and os.environ.get("CI") == "true":
        opts.cases = opts.ci_cases
    plan = []  # (seed, first, count)
    if opts.rotate:
        half = opts.cases // 2
        rseed = opts.rotate_seed or str(rotating_seed())
        plan.append((opts.seed, opts.start, opts.cases - half))
        plan.append((rseed, opts.start, half))
    else:
        plan.append((opts.seed, opts.start, opts.cases))
    for seed, first, count in plan:
        if count:
            print("seed %s: cases %d..%d" % (seed, first, first + count - 1))
    sys.stdout.flush()

    batches = []
    for seed, first, count in plan:
        for b in range(first, first + count, opts.batch):
            batches.append(Batch(seed, range(b, min(first + count, b + opts.batch))))

    t_start = time.time()
    tmpdir = opts.keep or tempfile.mkdtemp(prefix="gpy_diff_")
    os.makedirs(tmpdir, exist_ok=True)
    passed = failed = 0
    groups = {}
    reported = 0
    notes = []
    secs = {"python": 0.0, "gpy": 0.0}
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            futs = [pool.submit(run_batch, b, opts, tmpdir) for b in batches]
            for fut in futs:
                b = fut.result()
                notes.extend(b.notes)
                for key in secs:
                    secs[key] += b.seconds[key]
                for seed, k, reason, lines, meta, rline, gline in b.results:
                    if reason is None:
                        passed += 1
                        continue
                    failed += 1
                    sig = signature(reason, meta)
                    groups.setdefault(sig, []).append((seed, k))
                    if opts.max_report and reported >= opts.max_report:
                        continue
                    reported += 1
                    print("FAIL seed %s case %d [%s]: %s" % (seed, k, meta.get("kind"), reason))
                    for ln in lines:
                        print("    " + ln)
                    print("  numpy: %s" % clip(rline))
                    print("  gpy:   %s" % clip(gline))
                    print("  regenerate: python3 tests/differential/gen.py --seed %s --case %d%s" %
                          (seed, k, " --include-unsupported" if opts.include_unsupported else ""))
                if opts.verbose:
                    print("batch seed %s cases %d..%d: python %.1fs, gpy %.1fs" %
                          (b.seed, b.ks[0], b.ks[-1], b.seconds["python"], b.seconds["gpy"]))
                sys.stdout.flush()
    finally:
        if not opts.keep:
            try:
                os.rmdir(tmpdir)
            except OSError:
                pass
    for n in notes:
        print("NOTE " + n)
        if "python3 failed" in n:
            failed += 1
    if groups:
        print("failures by kind:")
        for sig, cases in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            ex = ", ".join("%s:%d" % c for c in cases[:3])
            print("  %5d  %s   e.g. %s" % (len(cases), sig, ex))
    print("time: %.1fs wall (gpy %.1fs, python %.1fs, summed over %d jobs)" %
          (time.time() - t_start, secs["gpy"], secs["python"], opts.jobs))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
