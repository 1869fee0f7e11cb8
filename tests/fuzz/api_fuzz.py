#!/usr/bin/env python3
"""API fuzzer: every public function of gpy's array module, every ndarray method
and every ufunc (and its reduce/accumulate/outer/at), called with arguments drawn
from a hostile catalogue (tests/fuzz/api_catalogue.py), under gpy and under
python3 + NumPy 2 (the oracle), compared call by call.

Usage:
    python3 tests/fuzz/api_fuzz.py --gpy build/gpy [--seed N] [--calls N] [--batch N]
        [--jobs N] [--time SECONDS] [--timeout S] [--report FILE] [--filter REGEX]
        [--strict] [--mem-limit MB] [--keep DIR] [--examples N]

Each call is source text that both interpreters run; a batch of calls is one
script in which each call is wrapped in try/except and prints one line,
`INDEX OK <canonical value>` or `INDEX ERR <exception type> <message>`.
Classes (see tests/fuzz/README.md):
    CRASH          gpy died by a signal, printed "internal error (please report)",
                   or an exception escaped the try (exit code != 0)   -> failure
    HANG           gpy ran past --timeout                             -> failure
    GARBAGE        both returned, values/dtype/shape differ           -> failure
    TYPE-MISMATCH  different exception types, or one raised and the other returned
    UNDEF          integer results differ where a float was cast to an integer type
                   (NaN/inf/out-of-range casts are undefined in C: NumPy's value is
                   platform-specific; gpy's is min, max or 0); listed for review, not a failure
    REPR           same values, different repr / result type (scalar vs 0-d array, ...)
    MSG            same exception type, different message
    KNOWN          gpy's ints are 64-bit: it raised OverflowError('integer overflow'),
                   or the call passes a bare Python int past int64 (a np.uint64 in gpy)
Exit status 1 if any failure-class finding (or, with --strict, any TYPE-MISMATCH).
"""
import argparse
import ast
import collections
import copy
import concurrent.futures
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import api_catalogue as cat  # noqa: E402
import numpy as np  # noqa: E402

FAILURE_CLASSES = ("CRASH", "HANG", "GARBAGE")
MEAN_LIKE = {"mean", "var", "std", "nanmean", "nanvar", "nanstd"}
ALL_CLASSES = ("CRASH", "HANG", "GARBAGE", "OPEN", "TYPE-MISMATCH", "UNDEF", "REPR", "MSG", "KNOWN")
INT_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
# A float reaching an integer result: NaN, inf or out-of-range floats cast to an
# integer type are undefined behaviour in C, so NumPy's value is platform-specific.
FLOATY_RE = re.compile(r"\d\.\d|\d\.(?!\w)|\d[eE][-+]?\d|nan|inf|float|complex|\dj|half|single|double")
TOO_BIG_RE = re.compile(r"array is too big|iterator is too large|Maximum allowed|maximum possible size|"
                        r"exceeds the maximum")
# Reductions whose dtype= casts every element first.
INT_DTYPE_REDUCTIONS = {"mean", "sum", "prod", "var", "std", "average", "cumsum", "cumprod", "nanmean",
                        "nansum", "nanprod", "nanvar", "nanstd", "nancumsum", "nancumprod", "trace"}
# Reductions that divide (a float quotient, NaN for no elements) and cast the
# quotient to an integer dtype=: the cast is undefined for NaN and out of range.
DIVIDING_REDUCTIONS = {"mean", "var", "std", "average", "nanmean", "nanvar", "nanstd"}
# Set functions whose third positional parameter is assume_unique.
ASSUME_UNIQUE_3RD = {"np.setxor1d", "np.setdiff1d", "np.intersect1d", "np.isin", "np.in1d"}
# Products NumPy hands to BLAS, which may skip a zero factor (0 * NaN is 0).
BLAS_PRODUCTS = {"np.tensordot", "np.dot", "ndarray.dot", "np.matmul", "matmul", "np.inner", "np.vdot"}
# Integer reciprocal of 0 (and the like) is undefined in NumPy too.
UNDEF_INT_UFUNCS = {"reciprocal"}
def _float_ufuncs():
    """Ufuncs that compute in floating point from integer inputs (sin, exp, divide, ...)."""
    out = set()
    one = np.array([1], dtype=np.int8)
    with np.errstate(all="ignore"):
        for n in dir(np):
            u = getattr(np, n)
            if not isinstance(u, np.ufunc):
                continue
            try:
                r = u(*([one] * u.nin))
            except Exception:
                continue
            r = r[0] if isinstance(r, tuple) else r
            if np.asarray(r).dtype.kind in "fc":
                out.add(n)
    return out


FLOAT_UFUNCS = _float_ufuncs()


def _sentinels(dtype):
    """The values a C cast of NaN/inf/out-of-range floats typically yields."""
    info = np.iinfo(dtype) if dtype != "bool" else None
    if info is None:
        return {0, 1}
    vals = {0, int(info.min), int(info.max)}
    if info.min == 0:
        vals.add(1 << (info.bits - 1))
    return vals
INTERNAL = "internal error (please report)"

# ---------------------------------------------------------------- the script both interpreters run
PRELUDE = r'''import numpy as np
_G = np.generic
_INF = float('inf')


def _n(v):
    if isinstance(v, bool):
        return 'True' if v else 'False'
    if isinstance(v, complex):
        return '("c",' + _n(v.real) + ',' + _n(v.imag) + ')'
    if isinstance(v, float):
        if v != v:
            return '"nan"'
        if v == _INF:
            return '"inf"'
        if v == -_INF:
            return '"-inf"'
        return repr(v)
    if isinstance(v, int):
        return repr(v)
    return repr(repr(v))


def _f(r, d=0):
    if isinstance(r, np.ndarray) or isinstance(r, _G):
        if r.size <= 2048:
            vals = ','.join([_n(v) for v in r.ravel().tolist()])
        else:
            vals = _n(r[(0,) * r.ndim].item()) + ',' + _n(r[(-1,) * r.ndim].item())
        return ('("A",' + repr(str(r.dtype)) + ',' + repr(tuple(r.shape)) + ',[' + vals + '],'
                + repr(repr(r)) + ')')
    if isinstance(r, tuple) or isinstance(r, list):
        if d > 4:
            return '("deep",)'
        tag = '"T"' if isinstance(r, tuple) else '"L"'
        return '(' + tag + ',[' + ','.join([_f(e, d + 1) for e in r]) + '])'
    if r is None:
        return '("P","NoneType","None")'
    if isinstance(r, bool) or isinstance(r, int) or isinstance(r, float) or isinstance(r, complex):
        return '("P",' + repr(type(r).__name__) + ',' + _n(r) + ')'
    if isinstance(r, str):
        return '("s",' + repr(r) + ')'
    return '("O",' + repr(repr(r)) + ')'


def _ok(i, vs):
    print(i, 'OK', '(' + ','.join([_f(v) for v in vs]) + ',)', flush=True)


def _err(i, e):
    n = type(e).__name__
    try:
        for c in type(e).__mro__:
            if not c.__name__.startswith('_'):
                n = c.__name__
                break
    except BaseException:
        pass
    print(i, 'ERR', n, repr(str(e)[:160]), flush=True)

'''


def script_for(cases):
    out = [PRELUDE]
    for c in cases:
        out.append("try:")
        for line in c.lines:
            out.append("    " + line)
        out.append(f"    _ok({c.index}, [{', '.join(c.shows)}])")
        out.append("except BaseException as e:")
        out.append(f"    _err({c.index}, e)")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- running
class Runner:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="api_fuzz_")
        self.counter = 0
        self.lock = threading.Lock()
        env = dict(os.environ)
        env.setdefault("GPY_BACKEND", "cpu")
        if args.cache_dir:
            env["GPY_CACHE_DIR"] = args.cache_dir
        self.gpy_env = env
        penv = dict(os.environ)
        penv.setdefault("OPENBLAS_NUM_THREADS", "1")
        penv["PYTHONWARNINGS"] = "ignore"
        self.py_env = penv

    def _limits(self):
        mb = self.args.mem_limit
        if mb > 0:
            resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    def write(self, text):
        with self.lock:
            self.counter += 1
            n = self.counter
        path = os.path.join(self.tmp, f"b{n}.py")
        with open(path, "w") as f:
            f.write(text)
        if self.args.keep:
            os.makedirs(self.args.keep, exist_ok=True)
            with open(os.path.join(self.args.keep, f"b{n}.py"), "w") as f:
                f.write(text)
        return path

    def run(self, which, path, timeout):
        if which == "gpy":
            cmd, env = [self.args.gpy, path], self.gpy_env
        else:
            cmd, env = [sys.executable, "-W", "ignore", path], self.py_env
            # NumPy runs a batch in seconds; --timeout is sized for gpy under
            # ASan. A call NumPy never finishes (seed 20261126 has one in its
            # first 500) held CI for the whole 600 s.
            timeout = min(timeout, 60)
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout,
                               env=env, preexec_fn=self._limits, cwd=self.tmp)
            return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), False
        except subprocess.TimeoutExpired as e:
            so = (e.stdout or b"").decode("utf-8", "replace")
            se = (e.stderr or b"").decode("utf-8", "replace")
            return None, so, se, True
        finally:
            if which == "gpy":          # each script runs under python first, then gpy
                try:
                    os.unlink(path)
                except OSError:
                    pass


LINE_RE = re.compile(r"^(-?\d+) (OK|ERR) (.*)$")


def parse_output(text):
    res = {}
    for line in text.splitlines():
        m = LINE_RE.match(line)
        if not m:
            continue
        i = int(m.group(1))
        if m.group(2) == "OK":
            res[i] = ("OK", m.group(3))
        else:
            name, _, msg = m.group(3).partition(" ")
            res[i] = ("ERR", name, msg)
    return res


def bad_run(rc, out, err, timed_out):
    """None if the gpy run ended normally, else (class, reason)."""
    if timed_out:
        return ("HANG", "timed out")
    if INTERNAL in out or INTERNAL in err:
        return ("CRASH", "internal error")
    if rc is None or rc < 0:
        import signal
        try:
            name = signal.Signals(-rc).name
        except (ValueError, TypeError):
            name = str(rc)
        return ("CRASH", f"signal {name}")
    if rc != 0:
        return ("CRASH", f"exit code {rc}" + (" (exception escaped try)" if rc == 1 else ""))
    return None


def err_tail(err, out):
    text = (err or "").strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    for ln in reversed(lines):
        if "error" in ln.lower() or "Sanitizer" in ln or "Assertion" in ln:
            return ln.strip()[:240]
    if INTERNAL in out:
        for ln in out.splitlines():
            if INTERNAL in ln:
                return ln.strip()[:240]
    return lines[-1].strip()[:240] if lines else ""


# ---------------------------------------------------------------- comparing
TOL = {"float16": 4e-3, "float32": 1e-5, "float64": 1e-12, "complex64": 1e-5, "complex128": 1e-12,
       "longdouble": 1e-12}
NUM_RE = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|nan|inf")


def _num(v):
    if isinstance(v, str):
        return float(v)
    return v


def _close(a, b, rel, atol):
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple)):
            return False
        return _close(a[1], b[1], rel, atol) and _close(a[2], b[2], rel, atol)
    a, b = _num(a), _num(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b and type(a) is type(b)
    if rel == 0 and isinstance(a, int) and isinstance(b, int):
        return a == b
    fa, fb = float(a), float(b)
    if math.isnan(fa) or math.isnan(fb):
        return math.isnan(fa) and math.isnan(fb)
    if math.isinf(fa) or math.isinf(fb):
        return fa == fb
    return abs(fa - fb) <= max(rel * max(abs(fa), abs(fb)), atol)


def _maxabs(vals):
    m = 0.0
    for v in vals:
        if isinstance(v, tuple):
            m = max(m, _maxabs([v[1], v[2]]))
            continue
        try:
            f = float(_num(v))
        except (TypeError, ValueError):
            continue
        if math.isfinite(f):
            m = max(m, abs(f))
    return m


def cmp_values(vn, vg, dtype, src_rel=0.0):
    if len(vn) != len(vg):
        return f"{len(vn)} vs {len(vg)} values"
    rel = TOL.get(dtype, 0.0)
    if rel:
        rel = max(rel, src_rel)
    atol = rel * _maxabs(vn) if rel else 0.0
    for k, (a, b) in enumerate(zip(vn, vg)):
        if not _close(a, b, rel, atol):
            return f"element {k}: numpy {a!r} gpy {b!r}"
    return None


def _all_sentinels(vn, vg, dtype):
    """Every differing element is a typical undefined-cast value on gpy's side
    (0, min, max: what gpy's casts give). NumPy's value may be anything: x86 converts
    through int64 and wraps (degrees(uint32 max) cast back is 4066977541), and
    its SIMD and scalar loops differ (an out-of-range float to int64 sum)."""
    sent = {float(v) for v in _sentinels(dtype)}
    for a, b in zip(vn, vg):
        if _close(a, b, 0.0, 0.0):
            continue
        try:
            if float(_num(b)) not in sent:
                return False
        except (TypeError, ValueError):
            return False
    return True


def _norm_repr(s):
    return re.sub(r"\s+", "", NUM_RE.sub("#", s))


def source_tolerance(src):
    """A float64 result may have been computed in a narrower type (np.exp of an int16 array
    runs the float32 loop): the narrowest type the call mentions bounds the tolerance."""
    if re.search(r"float16|half|'f2'|\bint8|uint8|bool", src):
        return TOL["float16"]
    if re.search(r"float32|complex64|single|'f4'|int16|uint16", src):
        return TOL["float32"]
    return 0.0


def compare(vn, vg, novalue, floaty=False, src_rel=0.0, cast_undefined=False):
    """None when equivalent, else (class, reason) with class GARBAGE or REPR."""
    if vn == vg:
        return None
    tn, tg = vn[0], vg[0]
    if tn == "A" and tg == "A":
        _, dn, sn, valn, rn = vn
        _, dg, sg, valg, rg = vg
        if dn != dg:
            return ("GARBAGE", f"dtype {dn} vs gpy {dg}")
        if tuple(sn) != tuple(sg):
            return ("GARBAGE", f"shape {tuple(sn)} vs gpy {tuple(sg)}")
        if novalue:
            return None
        bad = cmp_values(valn, valg, dn, src_rel)
        if bad:
            if cast_undefined or (floaty and dn in INT_DTYPES and _all_sentinels(valn, valg, dn)):
                return ("UNDEF", bad)
            return ("GARBAGE", bad)
        if rn != rg and _norm_repr(rn) != _norm_repr(rg):
            if rn.startswith("np.") and rg.startswith("array("):
                sub = "NumPy scalar vs gpy 0-d array"
            elif rn.startswith("array(") and rg.startswith("np."):
                sub = "0-d array vs gpy NumPy scalar"
            else:
                sub = "repr text"
            return ("REPR", f"{sub}: {rn[:80]!r} vs gpy {rg[:80]!r}")
        return None
    if {tn, tg} & {"T", "L"} and not {tn, tg} <= {"T", "L"}:
        return ("GARBAGE", f"kind {tn} vs gpy {tg}")
    if tn in ("T", "L") and tg in ("T", "L"):
        if len(vn[1]) != len(vg[1]):
            return ("GARBAGE", f"{len(vn[1])} items vs gpy {len(vg[1])}")
        for a, b in zip(vn[1], vg[1]):
            c = compare(a, b, novalue, floaty, src_rel)
            if c:
                return c
        if tn != tg:
            return ("REPR", f"{'tuple' if tn == 'T' else 'list'} vs gpy {'tuple' if tg == 'T' else 'list'}")
        return None
    if tn == "P" and tg == "P":
        if vn[1] == "int" and vg[1] == "float" and isinstance(vn[2], int) and vn[2] > 2 ** 63 - 1 \
                and float(vn[2]) == vg[2]:
            return None      # documented: tolist()/item() of uint64 above 2**63-1 give floats
        if vn[1] != vg[1]:
            return ("GARBAGE", f"type {vn[1]} vs gpy {vg[1]}")
        if novalue or _close(vn[2], vg[2], 1e-12 if vn[1] in ("float", "complex") else 0.0, 0.0):
            return None
        return ("GARBAGE", f"value {vn[2]!r} vs gpy {vg[2]!r}")
    if {tn, tg} <= {"A", "P"}:
        # a NumPy scalar on one side and a Python number on the other
        a = vn[3] if tn == "A" else [vn[2]]
        b = vg[3] if tg == "A" else [vg[2]]
        what = lambda v: f"{v[1]} array" if v[0] == "A" else f"Python {v[1]}"  # noqa: E731
        if not novalue and len(a) == len(b) and cmp_values(a, b, "float64" if tn == "P" else vn[1]):
            return ("GARBAGE", f"{what(vn)} {a!r} vs gpy {what(vg)} {b!r}")
        return ("REPR", f"{what(vn)} vs gpy {what(vg)}: ")
    if tn == "s" and tg == "s" or tn == "O" and tg == "O":
        if novalue:
            return None
        return ("REPR", f"object repr: {vn[1][:60]!r} vs gpy {vg[1][:60]!r}")
    return ("REPR", f"kind {tn} vs gpy {tg}: {str(vn)[:60]} / {str(vg)[:60]}")


def _kind_of(reason):
    """A short grouping key for a GARBAGE/REPR reason: the reason without its values."""
    w = reason.split()
    if ": " in reason and w[0] not in ("element", "value"):
        return reason.split(": ")[0]
    if w[0] in ("dtype", "shape", "element", "value", "type", "kind") or w[0].isdigit():
        return {"element": "values"}.get(w[0], "length" if w[0].isdigit() else w[0])
    return re.sub(r"\[.*|'.*|\(.*", "", reason).strip()[:50]


def describe(res):
    if res is None:
        return "(no output)"
    if res[0] == "ERR":
        return f"{res[1]}: {res[2][:150]}"
    return res[1][:200]


def _sorted_values(v):
    """Whether a formatted array's values are in NumPy's sort order (NaN last)."""
    if not (isinstance(v, tuple) and v and v[0] == "A"):
        return True
    key = [(1, 0.0) if x == "nan" else (0, _num(x)) for x in v[3]]
    try:
        return all(a <= b for a, b in zip(key, key[1:]))
    except TypeError:
        return True               # complex: not checked


def classify(case, pyres, gres):
    """(class or None, kind, detail)."""
    if pyres[0] == "ERR" and gres[0] == "ERR":
        if pyres[1] != gres[1]:
            if gres[1] == "OverflowError" and "integer overflow" in gres[2]:
                return ("KNOWN", "gpy int64 overflow", "")
            return ("TYPE-MISMATCH", f"numpy {pyres[1]} / gpy {gres[1]}", "")
        if pyres[2] != gres[2]:
            return ("MSG", pyres[1], "")
        return (None, "", "")
    call = next((ln for ln in case.lines if ln.startswith("r = ")), "")
    if "np.iinfo(np.uint64).max" in _without_array_literals(call):
        # A bare Python int past int64 is a np.uint64 in gpy (strong, not
        # weak; no big ints): NumPy's Python-int arithmetic on it (an
        # arange's length, an OverflowError) is not an oracle.
        return ("KNOWN", "gpy int64: a Python int past int64", "")
    if pyres[0] == "ERR" or gres[0] == "ERR":
        if gres[0] == "ERR" and gres[1] == "OverflowError" and "integer overflow" in gres[2]:
            return ("KNOWN", "gpy int64 overflow", "")
        if gres[0] == "ERR" and gres[1] == "NotImplementedError":
            return ("TYPE-MISMATCH", "numpy OK / gpy NotImplementedError", "")
        if pyres[0] == "ERR" and TOO_BIG_RE.search(pyres[2]):
            # NumPy refuses a size that does not fit; gpy returning anything is a wrapped size
            return ("GARBAGE", "accepts an impossible size", f"numpy {pyres[1]}, gpy returned a result")
        kind = f"numpy {pyres[1]} / gpy OK" if pyres[0] == "ERR" else f"numpy OK / gpy {gres[1]}"
        return ("TYPE-MISMATCH", kind, "")
    if pyres[1] == gres[1]:
        return (None, "", "")
    src = case.source()
    try:
        vn = ast.literal_eval(pyres[1])
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return (None, "", "")        # the oracle's own output is odd: skip
    try:
        vg = ast.literal_eval(gres[1])
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return ("GARBAGE", "unparseable gpy output", "")
    base0 = case.target.name.split(".")[0]
    novalue = case.target.novalue or (
        case.target.kind in ("ufunc", "ufunc.outer") and "where=" in src
        and not re.search(r"out=(?!None\b|\(None,\))", src))
    novalue = novalue or "'empty'" in src        # np.pad(mode='empty')
    # NumPy 2.4.6's reduce of power, arctan2 and ldexp folds only x[0] op x[-1]
    # (power.reduce([2., 3., 2.]) is 4.0, float_power.reduce gives 64.0): not an oracle.
    novalue = novalue or case.target.name in ("power.reduce", "pow.reduce", "arctan2.reduce", "atan2.reduce", "ldexp.reduce")
    # A ufunc with where= whose out= is a view of one of its inputs: NumPy
    # computes into a temporary it does not fill from out, so the masked-out
    # elements come back as whatever the temporary held (np.greater(v0, 3,
    # out=v0[::-1], where=False) writes 1s): not an oracle for values.
    m = re.search(r"\bout=\(?(v\d+)\b", src)
    novalue = novalue or (case.target.kind in ("ufunc", "ufunc.outer") and "where=" in src and m is not None
                          and len(re.findall(r"\b%s\b" % m.group(1), case.lines[-1])) > 1)
    # NumPy's mean/var/std count the elements as sum(where) in intp: a where= of
    # integers (np.mean(1, where=-2**63) is -1.08e-19) is not an oracle.
    m = re.search(r"\bwhere=([^,)]*)", src)
    novalue = novalue or (case.target.name.split(".")[-1] in MEAN_LIKE and m is not None
                          and not re.fullmatch(r"\s*(True|False)\s*", m.group(1)) and "bool" not in src)
    # LAPACK's results for inf/NaN input are implementation-defined (pivots,
    # early exits), and so are those of matrices holding a dtype's limits
    # (condition numbers past 1e18) or rank-deficient ones in single precision
    # (NumPy's float32 SVD of arange(9) has a third singular value of 5e-16,
    # another LAPACK's 3e-8: pinv's 1e-15 cutoff keeps one and drops the other).
    novalue = novalue or (case.target.name.startswith("np.linalg.") and re.search(
        r"\bnan\b|\binf\b|1e30|65504|214748364[78]|4294967295|922337203685477580[78]|3276[78]|65535|iinfo", src))
    # unique_values' order is unspecified (NumPy 2.3+ returns its hash
    # table's order; gpy's is sorted).
    novalue = novalue or case.target.name == "np.unique_values"
    # The condition number of a singular matrix is 1 / (a singular value at
    # rounding level): past 1e15 it is any LAPACK's noise.
    novalue = novalue or (case.target.name == "np.linalg.cond" and re.search(r"e\+1[5-9]|e\+[2-9]\d|\binf\b", pyres[1]) is not None)
    # A zero cutoff keeps singular values at rounding level (1e-16 of a
    # rank-deficient matrix): their reciprocals are any LAPACK's noise.
    novalue = novalue or (case.target.name in ("np.linalg.pinv", "np.linalg.matrix_rank", "np.linalg.lstsq")
                          and re.search(r"\b(rtol|rcond|tol)=(0\b|0\.0\b|-|np\.float\d+\(0)", src))
    novalue = novalue or (case.target.name in ("np.linalg.pinv", "np.linalg.matrix_rank", "np.linalg.lstsq")
                          and re.search(r"float32|complex64|\bsingle\b|'f4'", src))
    # tensordot with a 0-d operand is a BLAS product in NumPy (gemm/axpy:
    # OpenBLAS skips a zero factor, so 0 * NaN may come out 0).
    novalue = novalue or (case.target.name in BLAS_PRODUCTS and re.search(r"\bnan\b|\binf\b", src) is not None)
    # An integer reciprocal of 0 is undefined in NumPy (x86 gives INT_MIN),
    # whatever out= it is cast into afterwards.
    novalue = novalue or (base0 in UNDEF_INT_UFUNCS and re.search(
        r"np\.u?int\d*\(|dtype=np\.u?int|%s\(\s*-?\d+\s*[,)]" % re.escape(base0), src) is not None)
    # A complex product through infinities depends on the order of the
    # factors ((-inf * z1) * z2 is NaN where -inf * (z1 * z2) is -inf-infj),
    # and NumPy folds initial= first where gpy's reduction does not.
    novalue = novalue or (case.target.name.split(".")[-1] in ("prod", "nanprod", "cumprod", "nancumprod")
                          or case.target.name in ("multiply.reduce", "multiply.accumulate")) and (
        re.search(r"complex", src) is not None
        and re.search(r"\bnan\b|\binf\b|e\+?([3-9]\d|\d{3})\b|iinfo|9223372036854775807|\d{12}", src) is not None)
    if "assume_unique" in src or (case.target.name in ASSUME_UNIQUE_3RD and _positional_count(case) >= 3):
        return (None, "", "")    # NumPy: non-unique input with assume_unique=True gives undefined results
    if case.target.name in ("ndarray.argsort", "np.argsort", "np.unique") and not re.search(
            r"""kind=['"]stable['"]|stable=True""", src):
        novalue = True           # ties in any order (stable=np.array(False) is not a stable sort either)
    if len(vn) != len(vg):
        return ("GARBAGE", "result count", "")
    # NumPy's nanpercentile/nanquantile over a tuple axis (reshaped to axis
    # -1 by _ureduce) with a q of two or more dims moves q's axes from
    # [-1, 0, ...]: a transposed shape (2, 1, 1) for (1, 2, 1). Not an oracle.
    if case.target.name in ("np.nanpercentile", "np.nanquantile") and re.search(r"axis=\(", src) and re.search(r"\[\[", call):
        return ("UNDEF", "NumPy's nan-quantile axes for a tuple axis and a 2-d q", "")
    # searchsorted of an unsorted `a` (v0, the method's self or the
    # function's first argument) is a binary search over anything: undefined.
    if case.target.name.endswith("searchsorted") and len(vn) > 1 and not _sorted_values(vn[1]) and (
            case.target.kind == "method" or re.search(r"searchsorted\(v0\b", call)):
        novalue = True
    floaty = (bool(FLOATY_RE.search(src))
              # uint64 with a signed integer runs NumPy's float64 loop (.at casts back into the array)
              or (case.target.kind == "ufunc.at" and "uint64" in src) or case.target.name.split(".")[0] in FLOAT_UFUNCS | UNDEF_INT_UFUNCS
              or case.target.name in ("np.logspace", "np.geomspace")    # they compute in floating point
              or case.target.name in ("np.round", "np.around", "ndarray.round"))  # integers too (negative decimals)
    # Where every integer result went through a float computation whose value
    # the output does not show, a C cast of an out-of-range float (UB, and
    # NumPy's SIMD and scalar loops differ by an ulp before it) cannot be told
    # from a wrong value: a float ufunc's .at into an integer array, and a
    # reduction (np.sum, add.reduce, ...) with an integer dtype= over NaN/inf
    # input, a ufunc reduction into an out= of an integer dtype.
    base = case.target.name.split(".")
    int_dtype_req = re.search(r"dtype=(np\.)?'?u?int|dtype=(np\.)?'?bool", src)
    cast_undefined = (
        (base[-1] in DIVIDING_REDUCTIONS and int_dtype_req)
        # an integer reciprocal (of 0: undefined) cast into a float out=
        or (base[0] in UNDEF_INT_UFUNCS and re.search(r"dtype=np\.u?int", src))
        # a float value .at into an integer array: each step casts back
        # (NumPy's cast of a negative or out-of-range float is undefined)
        or (case.target.kind == "ufunc.at" and re.search(r"\bu?int\d", src)
            and re.search(r"\d\.\d|\bnan\b|\binf\b", case.lines[-1]))
        # logspace/geomspace cast float results to an integer dtype=: one ulp
        # of pow decides between n and n-1 (geomspace(-1, -2**63, dtype=int))
        or (case.target.name in ("np.logspace", "np.geomspace") and re.search(r"dtype=(int|np\.u?int|'u?int)", src))
        # NumPy casts a reduction's accumulator into an out= of another
        # integer dtype between inner loops (maximum.reduce(uint16, out=int8))
        or (case.target.kind in ("ufunc.reduce", "ufunc.accumulate") and re.search(r"\bout=", src))) or floaty and (
        (case.target.kind == "ufunc.at" and base[0] in FLOAT_UFUNCS)
        # NumPy casts a reduction's accumulator into an out= of another dtype
        # between inner loops, so where it is cast depends on its iteration order.
        or (case.target.kind in ("ufunc.reduce", "ufunc.accumulate") and re.search(r"\bout=", src))
        # a float result cast into an out= of an integer dtype (nanprod(float16, out=int8))
        or (base[-1] in INT_DTYPE_REDUCTIONS and re.search(r"out=[^=]*?dtype=(np\.)?'?u?int", src))
        or ((base[-1] in INT_DTYPE_REDUCTIONS or case.target.kind in ("ufunc.reduce", "ufunc.accumulate"))
            and (re.search(r"\bnan\b|\binf\b", src)
                 or (re.search(r"dtype=(np\.)?'?uint", src) and re.search(r"-\d+\.\d", src)))  # negative float to unsigned
            and int_dtype_req))
    for k, (a, b) in enumerate(zip(vn, vg)):
        if k > 0 and "overwrite_input" in src:
            continue             # the input's contents afterwards are unspecified
        c = compare(a, b, novalue, floaty, source_tolerance(src), cast_undefined)
        if c:
            what = "result" if k == 0 else case.shows[k] + " after the call"
            return (c[0], _kind_of(c[1]) + ("" if k == 0 else " (argument after the call)"), f"{what}: {c[1]}")
    return (None, "", "")


# ---------------------------------------------------------------- findings
class Findings:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = collections.Counter()
        self.groups = collections.OrderedDict()   # (cls, target, kind) -> dict
        self.tried = 0
        self.skipped = 0
        self.hangs = collections.Counter()     # target -> HANG findings; 2 quarantine it
        self.quarantined = 0

    def add(self, cls, case, kind, detail, pyres, gres, extra=""):
        key = (cls, case.target.name, kind)
        with self.lock:
            self.counts[cls] += 1
            if cls == "HANG":
                self.hangs[case.target.name] += 1
            g = self.groups.get(key)
            if g is None:
                g = self.groups[key] = {"count": 0, "examples": []}
            g["count"] += 1
            if len(g["examples"]) < 3:
                g["examples"].append({"index": case.index, "source": case.source(), "detail": detail,
                                      "numpy": describe(pyres), "gpy": describe(gres), "extra": extra})


def _without_array_literals(text):
    """text with every np.array(...) call (balanced parentheses) cut out."""
    out, i = "", 0
    while True:
        j = text.find("np.array(", i)
        if j < 0:
            return out + text[i:]
        out += text[i:j]
        depth, k = 0, j + len("np.array")
        while k < len(text):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                break
        i = k


def _positional_count(case):
    """How many positional arguments the call line (`r = f(...)`) passes."""
    for ln in case.lines:
        if ln.startswith("r = ") and ln.endswith(")") and "(" in ln:
            inner = ln[ln.index("(") + 1:-1]
            args = [x for x in _split_args(inner) if x.strip()]
            return sum(1 for x in args if not re.match(r"\s*[A-Za-z_]\w*\s*=(?!=)", x))
    return 0


def _split_args(text):
    """Splits an argument list at top-level commas."""
    out, depth, cur, quote = [], 0, "", None
    for ch in text:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _call_parts(line):
    """'r = F(ARGS)' -> (prefix 'r = F(', [args], ')') or None."""
    if not line.endswith(")"):
        return None
    depth = 0
    for k in range(len(line) - 1, -1, -1):
        ch = line[k]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                return line[:k + 1], _split_args(line[k + 1:-1]), ")"
    return None


def minimize(case, still_bad, budget):
    """Greedy reduction of a crashing call: drop arguments, then unused setup lines."""
    lines = list(case.lines)
    tries = 0

    def attempt(new_lines):
        nonlocal tries
        tries += 1
        shows = ["r"] + [v for v in case.shows[1:] if any(ln.startswith(v + " = ") for ln in new_lines)]
        cand = cat.Case(case.index, case.target, new_lines, shows)
        return cand if still_bad(cand) else None

    # the call is the first line that assigns r
    ci = next((k for k, ln in enumerate(lines) if ln.startswith("r = ") or "] = " in ln or ". " in ln), None)
    ci = next((k for k, ln in enumerate(lines) if ln.startswith("r = ")), ci)
    if ci is not None:
        parts = _call_parts(lines[ci])
        if parts:
            head, args, tail = parts
            k = len(args) - 1
            while k >= 0 and tries < budget:
                trial = args[:k] + args[k + 1:]
                new = lines[:ci] + [head + ", ".join(trial) + tail] + lines[ci + 1:]
                if attempt(new):
                    args, lines = trial, new
                k -= 1
    k = 0
    while k < len(lines) and tries < budget:
        m = re.match(r"^(v\d+) = ", lines[k])
        if m and not any(re.search(r"\b" + m.group(1) + r"\b", ln) for j, ln in enumerate(lines) if j != k):
            new = lines[:k] + lines[k + 1:]
            if attempt(new):
                lines = new
                continue
        k += 1
    if lines == list(case.lines):
        return case
    shows = ["r"] + [v for v in case.shows[1:] if any(ln.startswith(v + " = ") for ln in lines)]
    return cat.Case(case.index, case.target, lines, shows)


def isolate(runner, cases, pos, findings, why, pyres):
    """gpy went wrong at cases[pos] (first call without output) or somewhere in the batch.
    Finds the culprit and records a CRASH/HANG finding."""
    a = runner.args

    def bad(sub):
        path = runner.write(script_for(sub))
        rc, out, err, to = runner.run("gpy", path, a.timeout)
        b = bad_run(rc, out, err, to)
        return b, err_tail(err, out), parse_output(out)

    c = cases[pos]
    b, tail, _ = bad([c])
    if b:
        budget = a.minimize if b[0] == "CRASH" else min(a.minimize, 3)   # a HANG try costs --timeout
        m = minimize(c, lambda cand: (bad([cand])[0] or ("",))[0] == b[0], budget)
        detail = "alone" + ("" if m is c else "; minimized from:\n" + c.source())
        findings.add(b[0], m, b[1], detail, pyres.get(c.index), None, extra=tail)
        return
    # Only after earlier calls: find the shortest prefix window that still fails.
    lo, hi = 0, pos          # window cases[s:pos+1] fails for s = lo (the whole batch did)
    found = None
    for _ in range(8):
        if hi - lo <= 1:
            break
        mid = (lo + hi) // 2
        b2, tail2, _ = bad(cases[mid:pos + 1])
        if b2:
            lo, found = mid, (b2, tail2)
        else:
            hi = mid
    if found is None:
        b2, tail2, _ = bad(cases[lo:pos + 1])
        found = (b2, tail2) if b2 else None
    if found is None:
        # not reproducible in isolation: report the batch-level failure on this call
        findings.add(why[0], c, why[1] + " (not reproducible alone)", "flaky", pyres.get(c.index), None)
        return
    prefix = cases[lo:pos]

    class Ctx:
        pass
    ctx = Ctx()
    ctx.index, ctx.target = c.index, c.target
    ctx.source = lambda: ("\n".join("\n".join(p.lines) for p in prefix[-6:]) + "\n# --- then:\n" + c.source())
    findings.add(found[0][0], ctx, found[0][1] + " (after earlier calls)", f"needs {len(prefix)} earlier calls",
                 pyres.get(c.index), None, extra=found[1])


def process_batch(runner, cases, findings, pyres_cache=None):
    a = runner.args
    # 1. the oracle
    path = runner.write(script_for(cases))
    rc, out, err, to = runner.run("py", path, max(a.timeout, 120))
    pyres = parse_output(out)
    missing = [c for c in cases if c.index not in pyres]
    if missing and len(missing) < len(cases):
        # python died on a call (rlimit, ...): run the rest one by one
        for c in missing:
            p2 = runner.write(script_for([c]))
            _, o2, _, _ = runner.run("py", p2, 60)
            pyres.update(parse_output(o2))
    # 2. gpy, resuming after each culprit
    gres = {}
    todo = list(cases)
    while todo:
        path = runner.write(script_for(todo))
        rc, out, err, to = runner.run("gpy", path, a.timeout)
        got = parse_output(out)
        gres.update(got)
        b = bad_run(rc, out, err, to)
        if not b:
            break
        pos = next((k for k, c in enumerate(todo) if c.index not in got), None)
        if pos is None:
            # every call printed, yet the run was bad: a line naming the internal error names
            # its call; else find the call by halves
            named = [int(m.group(1)) for m in re.finditer(r"^(-?\d+) ERR .*" + re.escape(INTERNAL), out, re.M)]
            culprit = next((c for c in todo if named and c.index == named[0]), None)
            if culprit is not None:
                for i in named:
                    c = next((c for c in todo if c.index == i), None)
                    if c is not None:
                        findings.add(b[0], c, b[1], "caught as an exception", pyres.get(i), got.get(i))
                        gres.pop(i, None)
                break
            lo, hi = 0, len(todo)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                p2 = runner.write(script_for(todo[lo:mid]))
                r2 = runner.run("gpy", p2, a.timeout)
                if bad_run(*r2):
                    hi = mid
                else:
                    lo = mid
            findings.add(b[0], todo[lo], b[1], "all calls printed", pyres.get(todo[lo].index),
                         got.get(todo[lo].index), extra=err_tail(err, out))
            break
        isolate(runner, todo, pos, findings, b, pyres)
        gres.pop(todo[pos].index, None)
        todo = todo[pos + 1:]
        with findings.lock:
            keep = [c for c in todo if findings.hangs[c.target.name] < 2]
            findings.quarantined += len(todo) - len(keep)
        todo = keep
    # 3. compare
    for c in cases:
        pr, gr = pyres.get(c.index), gres.get(c.index)
        if gr is None and findings.hangs[c.target.name] >= 2:
            continue
        if pr is None or gr is None:
            with findings.lock:
                findings.skipped += 1
            continue
        cls, kind, detail = classify(c, pr, gr)
        with findings.lock:
            findings.tried += 1
        if cls:
            findings.add(cls, c, kind, detail, pr, gr)


# ---------------------------------------------------------------- discovery
def discover(runner):
    np_names = [n for n in dir(np) if not n.startswith("_")]
    meth_names = [n for n in dir(np.ndarray) if not n.startswith("_")] + ["__abs__"]
    linalg = [n for n in dir(np.linalg) if not n.startswith("_")]
    rnd = [n for n in dir(np.random) if not n.startswith("_")]
    gen = [n for n in dir(np.random.default_rng(0)) if not n.startswith("_")]
    probe = f"""import numpy as np
x = np.zeros((3, 3))  # 2-d: .mT of a 1-d array raises ValueError
print('P np_funcs', [n for n in {np_names!r} if hasattr(np, n)])
print('P ufuncs', [n for n in {np_names!r} if hasattr(np, n) and type(getattr(np, n)).__name__ == 'ufunc'])
print('P methods', [n for n in {meth_names!r} if hasattr(x, n)])
print('P linalg', [n for n in {linalg!r} if hasattr(np.linalg, n)])
print('P random', [n for n in {rnd!r} if hasattr(np.random, n)])
print('P gen', [n for n in {gen!r} if hasattr(np.random.default_rng(0), n)])
print('P ufunc_methods', [n for n in ['reduce', 'accumulate', 'outer', 'at', 'reduceat'] if hasattr(np.add, n)])
"""
    path = runner.write(probe)
    rc, out, err, to = runner.run("gpy", path, 120)
    res = {}
    for line in out.splitlines():
        if line.startswith("P "):
            _, key, rest = line.split(" ", 2)
            res[key] = ast.literal_eval(rest)
    if "np_funcs" not in res:
        sys.exit(f"api_fuzz: discovery failed (exit {rc}):\n{err[-2000:]}")
    # gpy's ufunc type check: numpy's own ufunc list is the truth
    res["ufuncs"] = [n for n in res["np_funcs"] if isinstance(getattr(np, n, None), np.ufunc)]
    return res


def self_check(runner):
    """Drops catalogue entries that gpy evaluates differently from NumPy on their own
    (language gaps), so that they don't flood every target with the same mismatch."""
    entries = cat.catalogue_entries()

    class T:
        name, kind, novalue = "catalogue", "catalogue", False
    cases = [cat.Case(-1 - k, T, [f"r = {e}"], ["r"]) for k, e in enumerate(entries)]
    path = runner.write(script_for(cases))
    _, pout, _, _ = runner.run("py", path, 120)
    grc, gout, gerr, _ = runner.run("gpy", path, 120)
    pr, gr = parse_output(pout), parse_output(gout)
    if grc == 2 or not gr:
        sys.exit(f"api_fuzz: the catalogue self-check script does not run under gpy (exit {grc}):\n{gerr[-1500:]}")
    bad = set()
    for c, e in zip(cases, entries):
        p, g = pr.get(c.index), gr.get(c.index)
        if p is None or g is None or p[0] != g[0]:
            if "2**63" not in e:          # kept: gpy's int64 limit is the point of these
                bad.add(e)
    cat.drop_entries(bad)
    return sorted(bad)


# ---------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpy", required=True)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--start", type=int, default=0, help="index of the first call (split one seed over machines)")
    ap.add_argument("--calls", type=int, default=None, help="number of calls (default 25000, or unbounded with --time)")
    ap.add_argument("--batch", type=int, default=250, help="calls per script")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--time", type=float, default=None, help="stop starting batches after SECONDS")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per gpy batch run (raise under ASan)")
    ap.add_argument("--report", default=None, help="write every finding group with examples to FILE")
    ap.add_argument("--checkpoint", type=float, default=None,
                    help="every SECONDS, print a progress line and rewrite --report with the findings so far "
                         "(a run stopped from outside still leaves its figures)")
    ap.add_argument("--filter", default=None, help="only targets whose name matches REGEX (re.search)")
    ap.add_argument("--strict", action="store_true", help="TYPE-MISMATCH findings fail the run too")
    ap.add_argument("--mem-limit", type=int, default=4096,
                    help="address-space limit in MiB for both interpreters (0: none; use 0 under ASan)")
    ap.add_argument("--cache-dir", default=None, help="GPY_CACHE_DIR for gpy (default: inherited)")
    ap.add_argument("--keep", default=None, help="keep every generated script in DIR")
    ap.add_argument("--examples", type=int, default=3, help="examples printed per failure class")
    ap.add_argument("--minimize", type=int, default=24, help="gpy runs spent shrinking each crash (0: none)")
    ap.add_argument("--list-targets", action="store_true")
    ap.add_argument("--open", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "api_open.txt"),
                    help="known open GARBAGE groups (TARGET_REGEX  reason per line): reported as OPEN, not failing; "
                         "CRASH and HANG can never be listed")
    args = ap.parse_args()
    if args.calls is None and args.time is None:
        args.calls = 25000
    args.gpy = os.path.abspath(args.gpy)

    runner = Runner(args)
    t0 = time.time()
    probe = discover(runner)
    targets = cat.build_targets(probe)
    if args.filter:
        targets = [t for t in targets if re.search(args.filter, t.name)]
    if args.list_targets:
        for t in targets:
            print(t.kind, t.name, t.params)
        return 0
    if not targets:
        sys.exit("api_fuzz: no target matches --filter")
    dropped = self_check(runner)
    print(f"api_fuzz: {len(targets)} targets ({collections.Counter(t.kind for t in targets).most_common()}), "
          f"seed {args.seed}", flush=True)
    if dropped:
        print(f"api_fuzz: catalogue entries gpy cannot evaluate like NumPy, dropped: {dropped}", flush=True)

    findings = Findings()
    next_index = [args.start]
    end_index = None if args.calls is None else args.start + args.calls

    def make_batch():
        if end_index is not None and next_index[0] >= end_index:
            return None
        if args.time is not None and time.time() - t0 > args.time:
            return None
        n = args.batch if end_index is None else min(args.batch, end_index - next_index[0])
        cases = [cat.Gen(args.seed, i, targets).case() for i in range(next_index[0], next_index[0] + n)]
        next_index[0] += n
        with findings.lock:
            keep = [c for c in cases if findings.hangs[c.target.name] < 2]
            findings.quarantined += len(cases) - len(keep)
        return keep or make_batch()

    t1 = time.time()
    last_checkpoint = t1
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        running = set()
        while True:
            while len(running) < args.jobs:
                b = make_batch()
                if b is None:
                    break
                running.add(ex.submit(process_batch, runner, b, findings))
            if not running:
                break
            done, running = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for f in done:
                f.result()
            if args.checkpoint is not None and time.time() - last_checkpoint >= args.checkpoint:
                last_checkpoint = time.time()
                with findings.lock:
                    report(args, findings, last_checkpoint - t1, len(targets), upto=next_index[0], partial=True)
            if sys.stderr.isatty():
                sys.stderr.write(f"\r  {findings.tried} calls, {dict(findings.counts)}   ")
                sys.stderr.flush()
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    elapsed = time.time() - t1
    shutil.rmtree(runner.tmp, ignore_errors=True)
    return report(args, findings, elapsed, len(targets), upto=next_index[0])


def load_open(path):
    """The known open GARBAGE groups: (compiled target regex, reason) per line."""
    entries = []
    if path and os.path.exists(path):
        for ln in open(path):
            ln = ln.strip()
            if not ln or ln.startswith("#"):
                continue
            rx, _, why = ln.partition("  ")
            entries.append((re.compile(rx.strip()), why.strip()))
    return entries


def report(args, F, elapsed, ntargets, upto, partial=False):
    """Prints the summary and writes --report; upto is the index after the last call started.
    partial marks a checkpoint: one progress line is printed and the report says the run goes on."""
    # GARBAGE groups of a target listed in --open move to OPEN: still
    # reported, not failing (a ratchet: anything new fails). On a copy, so
    # that checkpoints can report again later.
    F = copy.copy(F)
    F.groups = collections.OrderedDict((k, dict(g)) for k, g in F.groups.items())
    F.counts = collections.Counter(F.counts)
    open_entries = load_open(args.open)
    for key in [k for k in F.groups if k[0] == "GARBAGE"]:
        if any(rx.fullmatch(key[1]) for rx, _ in open_entries):
            g = F.groups.pop(key)
            newkey = ("OPEN", key[1], key[2])
            if newkey in F.groups:
                F.groups[newkey]["count"] += g["count"]
            else:
                F.groups[newkey] = g
            F.counts["GARBAGE"] -= g["count"]
            F.counts["OPEN"] = F.counts.get("OPEN", 0) + g["count"]
    lines = []
    rate = F.tried / elapsed if elapsed > 0 else 0
    lines.append(f"api_fuzz: seed {args.seed}, calls #{args.start}..#{upto - 1}{' (in progress)' if partial else ''}: "
                 f"{F.tried} calls compared ({F.skipped} without output from one side"
                 + (f", {F.quarantined} not run: their target hung twice" if F.quarantined else "")
                 + f") on {ntargets} targets in {elapsed:.0f} s ({rate:.1f} calls/s, --jobs {args.jobs})")
    lines.append("  " + "  ".join(f"{c} {F.counts.get(c, 0)}" for c in ALL_CLASSES))
    full = list(lines)
    for cls in ALL_CLASSES:
        groups = [(k, g) for k, g in F.groups.items() if k[0] == cls]
        if not groups:
            continue
        groups.sort(key=lambda kg: -kg[1]["count"])
        head = f"== {cls}: {F.counts[cls]} calls in {len(groups)} groups (target, kind) =="
        full.append(head)
        for (c, tname, kind), g in groups:
            full.append(f"-- {tname} [{kind}] x{g['count']}")
            for ex in g["examples"]:
                full.append(_example(ex))
        if cls in FAILURE_CLASSES or cls == "TYPE-MISMATCH":
            lines.append(head)
            shown = groups[:args.examples * 4] if cls in FAILURE_CLASSES else groups[:args.examples * 3]
            for (c, tname, kind), g in shown:
                lines.append(f"-- {tname} [{kind}] x{g['count']}")
                if cls in FAILURE_CLASSES:
                    lines.append(_example(g["examples"][0]))
            if len(groups) > len(shown):
                lines.append(f"   ... {len(groups) - len(shown)} more groups (see --report)")
    if F.counts.get("TYPE-MISMATCH"):
        kinds = collections.Counter()
        for (c, tname, kind), g in F.groups.items():
            if c == "TYPE-MISMATCH":
                kinds[kind] += g["count"]
        lines.append("== TYPE-MISMATCH by kind ==")
        for k, n in kinds.most_common(12):
            lines.append(f"   {n:6d}  {k}")
        full.append("== TYPE-MISMATCH by kind ==")
        full.extend(f"   {n:6d}  {k}" for k, n in kinds.most_common())
    failed = sum(F.counts.get(c, 0) for c in FAILURE_CLASSES)
    if args.strict:
        failed += F.counts.get("TYPE-MISMATCH", 0)
    verdict = f"{F.tried} calls, {failed} failures" + (" (strict)" if args.strict else "")
    lines.append(verdict)
    full.append(verdict)
    if args.report:
        # written whole, then renamed: a run killed mid-write leaves the previous checkpoint
        with open(args.report + ".tmp", "w") as f:
            f.write("\n".join(full) + "\n")
        os.replace(args.report + ".tmp", args.report)
    if partial:
        print(lines[0] + "  |" + lines[1], flush=True)
        return 0
    print("\n".join(lines))
    return 1 if failed else 0


def _example(ex):
    src = "\n".join("      " + ln for ln in ex["source"].splitlines())
    out = [f"   call #{ex['index']}:", src]
    if ex.get("detail"):
        out.append("     detail: " + ex["detail"].replace("\n", "\n        "))
    out.append(f"     numpy: {ex['numpy']}")
    out.append(f"     gpy:   {ex['gpy']}" + (f"   [{ex['extra']}]" if ex.get("extra") else ""))
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
