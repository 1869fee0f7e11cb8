#!/usr/bin/env python3
"""Random differential-test programs for gpy and NumPy 2.

A generated script is valid Python *and* valid gpy: `import numpy as np` binds
real NumPy under python3 and gpy's array module under build/gpy. Each case
builds its inputs from literals (no RNG inside the script), evaluates a random
array expression or statement sequence, and prints one canonical line:

    CASE <k> <type> <dtype> (<shape>) <values>         values from .tolist()
    CASE <k> <type> <dtype> (<shape>) U <hi> <lo>      uint64: the high and low 32 bits
    CASE <k> <type> <dtype> (<shape>) C <re> <im>      complex: real and imaginary parts
    CASE <k> ERR <exception type name>

<type> is type(r).__name__, prefixed "np." for NumPy scalars (np.float64,
np.bool, ...), so ndarray / np.float32 / float / bool results are told apart.

The generator runs under CPython with real NumPy: it evaluates every
sub-expression while building a case, so it knows dtypes and values. It uses
that to steer choices (e.g. bitwise ops mostly on integers), to skip what
NumPy leaves undefined (float -> int casts of nan / out-of-range values, which
NumPy flags with "invalid value encountered in cast"), and to attach
tolerances to each case (see `Case.meta` and tests/differential/run.py).

Usage:
    python3 gen.py --seed 12345 --cases 100 > prog.py      # a script
    python3 gen.py --seed 12345 --case 17                   # one case's source
Cases are independent: case k of seed S is the same whatever the batch.
"""
import argparse
import math
import random
import sys
import warnings

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64"]
INT_DTYPES = DTYPES[1:9]
FLOAT_DTYPES = DTYPES[9:]
EPS = {"float16": 2.0 ** -10, "float32": 2.0 ** -23, "float64": 2.0 ** -52}

# run.py needs each CASE line out before a crash can lose it. print(flush=True)
# does not flush in gpy yet (KNOWN_ISSUES.md), but input() flushes gpy's output
# buffer; run.py gives stdin /dev/null, so input() raises at once (EOFError in
# Python). Standalone programs (gen.py --case) leave this out: input() would wait
# for a terminal.
FLUSH_BATCH = '''\
def _flush():
    try:
        input()
    except Exception:
        pass
'''
FLUSH_NONE = '''\
def _flush():
    pass
'''

PRELUDE = '''\
import numpy as np


def _fmt(v):
    if isinstance(v, list):
        return "[" + ",".join([_fmt(x) for x in v]) + "]"
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, float):
        return repr(v)
    return str(v)


FLUSH_DEF


def show(k, r):
    tn = type(r).__name__
    if isinstance(r, np.generic):
        tn = "np." + tn
    a = np.asarray(r)
    dt = str(a.dtype)
    shp = "(" + ",".join([str(d) for d in a.shape]) + ")"
    if dt == "uint64":
        hi = np.right_shift(a, 32).astype(np.int64)
        lo = np.bitwise_and(a, 4294967295).astype(np.int64)
        print("CASE", k, tn, dt, shp, "U", _fmt(hi.tolist()), _fmt(lo.tolist()), flush=True)
        _flush()
    elif dt.startswith("complex"):
        print("CASE", k, tn, dt, shp, "C", _fmt(a.real.tolist()), _fmt(a.imag.tolist()), flush=True)
        _flush()
    else:
        print("CASE", k, tn, dt, shp, _fmt(a.tolist()), flush=True)
        _flush()

'''

# ---------------------------------------------------------------- ufunc tables
# Exact: correctly rounded or exactly specified; gpy must match NumPy to the
# base tolerance. Approx: libm-quality functions; compared within a few ULP.
UFUNC1_EXACT = ["negative", "absolute", "sqrt", "floor", "ceil", "rint", "trunc", "square", "sign",
                "isnan", "isfinite", "isinf", "signbit", "logical_not", "fabs", "reciprocal", "positive"]
UFUNC1_APPROX = ["exp", "log", "sin", "cos", "tanh", "exp2", "expm1", "log2", "log10", "log1p", "tan",
                 "arctan", "arcsin", "arccos", "sinh", "cosh", "arcsinh", "arctanh", "cbrt", "deg2rad",
                 "rad2deg"]
UFUNC1_INT_OK = ["invert"]
UFUNC2_EXACT = ["maximum", "minimum", "fmax", "fmin", "logical_and", "logical_or", "logical_xor",
                "copysign", "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod",
                "heaviside", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
                "greater", "less_equal", "equal", "not_equal"]
UFUNC2_APPROX = ["arctan2", "hypot", "power", "float_power"]
BINOPS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "<", "<=", ">", ">=", "==", "!="]
BITWISE = {"&", "|", "^", "<<", ">>", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
           "right_shift", "invert", "~"}
COMPARE = {"<", "<=", ">", ">=", "==", "!="}
# Ops whose output error is bounded by the error of a tainted input
# (used to propagate `E`, the absolute error bound of approximate values).
TAINT_OK_BIN = {"+", "-", "*", "/", "maximum", "minimum", "fmax", "fmin", "add", "subtract", "multiply",
                "divide"}
TAINT_OK_UN = {"-", "abs", "negative", "absolute", "fabs", "positive"}

# ------------------------------------------------------------ operand forms (issue 21)
# Wherever an operand could be a Python scalar or an array, the generator
# sometimes writes it in another form. The weights below pick the form; a weight
# of 0 gates a form off. When a gpy bug makes a form fail, set its weight to 0
# here with a comment naming the bug (and list it in KNOWN_ISSUES.md), so that
# CI stays green until the bug is fixed.
#
# A scalar operand (the other side of a binary operator, the second argument of
# a binary ufunc, where's `y`, clip's bounds, an in-place right-hand side):
SCALAR_FORMS = [
    ("py", 55),        # a Python int/float/bool: weak under NEP 50
    ("np", 30),        # a NumPy scalar, np.float32(1.5), np.int8(-3), np.bool_(True): strong
    ("0d", 15),        # a 0-d array, np.array(7, dtype=np.uint16): strong
]
# An array argument of a function (ufuncs, where, clip, reductions, library
# functions) or one side of a binary operator whose other side is an ndarray:
ARG_FORMS = [
    ("expr", 84),      # an array expression (a variable, a view, a sub-expression)
    ("list", 10),      # a (nested) Python list literal, np.add([1, 2], x)
    ("tuple", 6),      # a (nested) tuple literal, np.where((True, False), x, y)
]
# A 0-d array argument of a function is sometimes a scalar instead
# (np.sqrt(np.float32(2)), np.sqrt(2.5)), with this probability:
P_SCALAR_ARG = 0.3
# A 0-d leaf of an expression is sometimes a NumPy scalar instead of a 0-d
# array variable, with this probability:
P_NPSCALAR_LEAF = 0.3
# Complex NumPy scalars (np.complex64 / np.complex128) in the scalar cases and
# as the last operation of an elementwise case (only + - * == != < and a few
# exact ufuncs: complex transcendental functions have no tolerance model here).
COMPLEX_WEIGHT = 6
COMPLEX_DTYPES = ["complex64", "complex128"]

# Gates for genuine gpy bugs found when the type check came in (2026-11-27, see
# KNOWN_ISSUES.md). True: the generator avoids the input. Set one to False once
# its bug is fixed.
#
# gpy returns a 0-d ndarray where NumPy returns a NumPy scalar from a reduction
# of a 0-d input with keepdims=True: np.sum(np.array(2.0), keepdims=True),
# np.argmax(np.array(3), keepdims=True), np.mean(9, keepdims=True).
GATE_0D_KEEPDIMS = False
# gpy returns a 0-d ndarray where NumPy returns a NumPy scalar from np.flip of
# a 0-d array or NumPy scalar: np.flip(np.array(2.0)), np.flip(np.float32(2)).
GATE_FLIP_0D = False
# gpy returns a 0-d ndarray where NumPy returns np.bool from a comparison of a
# 0-d integer array or NumPy integer scalar with a Python int outside its
# dtype's range: np.uint32(5) > -3, np.array(5, dtype=np.int8) == 300.
GATE_CMP_OUT_OF_RANGE_0D = False
CMP_UFUNCS = {"greater", "greater_equal", "less", "less_equal", "equal", "not_equal"}

INT_SCALARS_BIG = [127, 128, 255, 256, -128, -129, 300, 1000, 32767, 32768, 65535, 65536, -32769,
                   2147483647, 2147483648, 4294967295, 4294967296, -2147483649, 9223372036854775807,
                   -9223372036854775807, 2 ** 40]
FLOAT_SCALARS = [0.5, 2.5, -1.5, 0.1, 1e-3, 3.0, -0.0, 0.0, 1e10, 1e38, 1e300, 65504.0, 70000.0,
                 1.0 / 3.0, -7.25, 100.0, float("nan"), float("inf"), -float("inf")]


class Reject(Exception):
    """The case hit something NumPy leaves undefined: build another."""


class Terminal(Exception):
    """A sub-expression raised: it becomes the case's final expression."""

    def __init__(self, ex):
        super().__init__()
        self.ex = ex


def tup(shape):
    if len(shape) == 1:
        return "(%d,)" % shape[0]
    return "(" + ", ".join(str(int(d)) for d in shape) + ")"


def lit(v):
    """Source text for a Python scalar (both languages parse it the same)."""
    if isinstance(v, (bool, np.bool_)):
        return "True" if v else "False"
    if isinstance(v, (int, np.integer)):
        v = int(v)
        return str(v) if v >= 0 else "(%d)" % v if v != -2 ** 63 else "(-9223372036854775807 - 1)"
    v = float(v)
    if math.isnan(v):
        return "float('nan')"
    if math.isinf(v):
        return "float('inf')" if v > 0 else "(-float('inf'))"
    return repr(v) if not math.copysign(1.0, v) < 0 else "(%r)" % v


def lit_elem(v):
    """Like lit() but for list elements (no parentheses needed)."""
    s = lit(v)
    if s.startswith("(") and s.endswith(")") and s != "(-9223372036854775807 - 1)":
        return s[1:-1]
    return s


def dtype_kind(dt):
    if dt == "bool":
        return "b"
    if dt in FLOAT_DTYPES:
        return "f"
    if dt.startswith("u"):
        return "u"
    return "i"


class Ex:
    """An expression: its source, its NumPy value (or error name), how many
    approximate (libm) nodes it contains, and E: None if the value is exactly
    reproducible, else an absolute error bound (float64 array) per element."""

    def __init__(self, code, val=None, err=None, E=None, approx=0, form="expr"):
        self.code = code
        self.val = val
        self.err = err
        self.E = E
        self.approx = approx
        # "expr": an array expression (its value may be a NumPy scalar);
        # "np": a NumPy scalar or 0-d array constructor (np.int8(3));
        # "py": a Python scalar literal; "seq": a list or tuple literal.
        # "py" and "seq" have no array methods and must not meet another
        # Python scalar or sequence in an operator: only function arguments,
        # or an operator's operand next to an ndarray.
        self.form = form

    @property
    def dt(self):
        return str(np.asarray(self.val).dtype)

    @property
    def shape(self):
        return np.shape(self.val)

    @property
    def tainted(self):
        return self.E is not None


def fabs64(v):
    with np.errstate(all="ignore"):
        return np.abs(np.asarray(v).astype(np.float64))


class Case:
    def __init__(self, seed, k, opts):
        self.k = k
        self.rng = random.Random("%s:%d" % (seed, k))
        self.opts = opts
        self.env = {"np": np}
        self.lines = []
        self.nvars = 0
        self.vars = []          # (name, shape)
        self.meta = {"kind": None, "tol": None, "ulps": 0, "approx_dt": None, "red": None,
                     "areas": set()}
        self.finished = False

    # ------------------------------------------------------------ evaluation
    def _guard(self, fn):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with np.errstate(all="warn"):
                try:
                    out = fn(), None
                except Exception as e:  # noqa: BLE001 - any NumPy error is a valid expectation
                    out = None, type(e).__name__
        for x in w:
            if "in cast" in str(x.message) and "invalid" in str(x.message):
                raise Reject()
        return out

    def ev(self, code):
        return self._guard(lambda: eval(code, self.env))  # noqa: S307 - our own generated code

    def ex(self, code, E=None, approx=0, form="expr"):
        v, err = self.ev(code)
        return Ex(code, v, err, E, approx, form)

    def stmt(self, line):
        """Adds a statement; returns the error name if NumPy raised there."""
        self.lines.append(line)
        _, err = self._guard(lambda: exec(line, self.env))  # noqa: S102
        return err

    @staticmethod
    def bad_cast(val, dt):
        """True if casting the float array/scalar val to integer dtype dt is
        undefined in NumPy (C): nan, inf, or a truncated value out of range.
        (Python floats are fine: NumPy converts them through int() and raises.)"""
        if dt not in INT_DTYPES or type(val) is float:
            return False
        a = np.asarray(val)
        if a.dtype.kind != "f" or a.size == 0:
            return False
        with np.errstate(all="ignore"):
            if not np.isfinite(a).all():
                return True
            t = np.trunc(a.astype(np.float64))
            info = np.iinfo(dt)
            return bool((t < float(info.min)).any() or (t >= float(info.max) + 1.0).any())

    # ------------------------------------------------------------ choices
    def r(self):
        return self.rng.random()

    def pick(self, seq):
        return self.rng.choice(seq)

    def wpick(self, pairs):
        tot = sum(w for _, w in pairs)
        x = self.r() * tot
        for item, w in pairs:
            x -= w
            if x < 0:
                return item
        return pairs[-1][0]

    def rand_shape(self, max_rank=3):
        rank = self.wpick([(0, 10), (1, 30), (2, 35), (3, 25)][:max_rank + 1])
        dims = [self.wpick([(1, 20), (2, 25), (3, 25), (4, 15), (5, 15)]) for _ in range(rank)]
        if rank and self.r() < 0.05:
            dims[self.rng.randrange(rank)] = 0
        return tuple(dims)

    def variant(self, shape):
        """A shape that broadcasts against `shape` (mostly equal to it)."""
        x = self.r()
        if x < 0.6 or not shape:
            return tuple(shape)
        if x < 0.97:
            s = list(shape)
            drop = self.rng.randrange(len(s) + 1) if self.r() < 0.4 else 0
            s = s[drop:]
            for i in range(len(s)):
                if self.r() < 0.35:
                    s[i] = 1
            return tuple(s)
        return self.rand_shape()  # probably incompatible: a broadcasting error case

    def pick_dtype(self):
        return self.pick(DTYPES)

    # ------------------------------------------------------------ values
    def values(self, dt, n):
        rng = self.rng
        if dt == "bool":
            return [rng.random() < 0.5 for _ in range(n)]
        if dt in INT_DTYPES:
            info = np.iinfo(dt)
            lo, hi = int(info.min), int(min(info.max, 2 ** 63 - 1))
            out = []
            for _ in range(n):
                x = rng.random()
                if x < 0.5:
                    v = rng.randint(-5, 5)
                elif x < 0.7:
                    v = rng.randint(-100, 100)
                elif x < 0.85:
                    v = rng.randint(lo, hi)
                else:
                    v = rng.choice([lo, hi, lo + 1, hi - 1, 0, 1, -1])
                out.append(min(max(v, lo), hi))
            return out
        special = rng.random() < 0.15
        out = []
        big = {"float16": 6e4, "float32": 3e38, "float64": 1e308}[dt]
        for _ in range(n):
            x = rng.random()
            if special and rng.random() < 0.25:
                v = rng.choice([float("nan"), float("inf"), -float("inf"), float("nan")])
            elif x < 0.3:
                v = float(rng.randint(-5, 5))
            elif x < 0.55:
                v = rng.randint(-64, 64) / rng.choice([2.0, 4.0, 8.0])
            elif x < 0.75:
                v = rng.uniform(-10, 10)
            elif x < 0.8:
                v = rng.choice([0.0, -0.0])
            elif x < 0.9:
                v = rng.choice([1.0, -1.0]) * 10.0 ** rng.uniform(-6, 6)
            elif x < 0.95:
                v = rng.choice([0.1, 1.0 / 3.0, 2.0 / 3.0, 0.7, -0.1])
            else:
                v = rng.choice([1.0, -1.0]) * rng.uniform(0, big)
            if rng.random() < 0.8 or x >= 0.9:
                with np.errstate(all="ignore"):
                    v = float(np.asarray(v, dtype=dt))  # representable in dt
            out.append(v)
        return out

    def new_leaf(self, shape, dt=None):
        dt = dt or self.leaf_dtype()
        n = int(np.prod(shape)) if shape else 1
        vals = self.values(dt, n)
        name = "x%d" % self.nvars
        self.nvars += 1
        dts = ", dtype=np.%s" % dt
        if dt in ("int64", "float64", "bool") and self.r() < 0.15 and n > 0:
            dts = ""  # default dtype inference
        if not shape:
            code = "np.array(%s%s)" % (lit_elem(vals[0]), dts)
        else:
            code = "np.array([%s]%s)" % (", ".join(lit_elem(v) for v in vals), dts)
            if len(shape) > 1:
                code += ".reshape(%s)" % tup(shape)
        err = self.stmt("%s = %s" % (name, code))
        if err:
            raise Terminal(Ex(name, err=err))
        self.vars.append((name, tuple(shape)))
        return name

    def leaf_dtype(self):
        return self.primary if self.r() < 0.6 else self.pick_dtype()

    # ------------------------------------------------------------ leaves
    def leaf_ex(self, shape, allow_view=True):
        """An array of `shape`: a variable, or a view of a differently shaped one
        (a 0-d one is sometimes a NumPy scalar, np.float32(1.5))."""
        if not shape and self.r() < P_NPSCALAR_LEAF:
            return self.npscalar_ex(zero_d=False)
        if allow_view and self.r() < 0.25:
            v = self.view_leaf(shape)
            if v is not None:
                return v
        same = [nm for nm, s in self.vars if s == tuple(shape)]
        if same and self.r() < 0.2:
            return self.ex(self.pick(same))
        return self.ex(self.new_leaf(shape))

    def view_leaf(self, target, depth=0):
        """Source text viewing another array so that the result has `target` shape."""
        rank = len(target)
        kinds = ["reshape", "int"]
        if rank >= 1:
            kinds += ["rev", "step", "offset", "none"] if 1 in target else ["rev", "step", "offset"]
        if rank >= 2:
            kinds += ["T", "T", "swap"]
        if rank == 3:
            kinds += ["transpose"]
        kind = self.pick(kinds)
        t = list(target)
        if kind == "T":
            base, fn = t[::-1], lambda x: x + ".T"
        elif kind == "swap":
            i, j = self.rng.sample(range(rank), 2)
            base = list(t)
            base[i], base[j] = base[j], base[i]
            fn = lambda x: "%s.swapaxes(%d, %d)" % (x, i, j - rank if self.r() < 0.5 else j)
        elif kind == "transpose":
            p = list(range(3))
            self.rng.shuffle(p)
            base = [0] * 3
            for i in range(3):
                base[p[i]] = t[i]
            fn = lambda x: "np.transpose(%s, %s)" % (x, tup(p))
        elif kind in ("rev", "step", "offset"):
            ax = self.rng.randrange(rank)
            base = list(t)
            d = t[ax]
            if kind == "rev":
                sl = "::-1"
            elif kind == "step":
                st = self.pick([2, 3, -2])
                base[ax] = abs(st) * d - (self.rng.randrange(abs(st)) if d else 0)
                sl = "::%d" % st
            else:
                base[ax] = d + 1
                sl = self.pick(["1:", ":-1", "1:%d" % (d + 1), "-%d:" % d if d else "%d:" % (d + 1)])
            idx = [":"] * ax + [sl]
            if ax and self.r() < 0.3 and ax == rank - 1:
                idx = ["..."] + [sl]
            fn = lambda x: "%s[%s]" % (x, ", ".join(idx))
        elif kind == "none":
            ax = self.pick([i for i, d in enumerate(t) if d == 1])
            base = t[:ax] + t[ax + 1:]
            idx = [":"] * ax + ["None"]
            fn = lambda x: "%s[%s]" % (x, ", ".join(idx))
        elif kind == "int":
            ax = self.rng.randrange(rank + 1)
            s = self.pick([1, 2, 3])
            j = self.rng.randrange(-s, s)
            base = t[:ax] + [s] + t[ax:]
            idx = [":"] * ax + [str(j)]
            if ax == rank and ax > 0 and self.r() < 0.5:
                idx = ["...", str(j)]
            fn = lambda x: "%s[%s]" % (x, ", ".join(idx))
        else:  # reshape
            n = int(np.prod(t)) if t else 1
            base = self.factor(n)
            if tuple(base) == tuple(t):
                base = list(base) + [1]
            tgt = tup(t) if t else "()"
            if t and self.r() < 0.3:
                tt = list(t)
                tt[self.rng.randrange(len(tt))] = -1
                if n == 0:
                    tt = list(t)
                tgt = tup(tt)
            fn = lambda x: "%s.reshape(%s)" % (x, tgt)
        if len(base) > 4 or int(np.prod(base) if base else 1) > 200:
            return None
        if depth == 0 and self.r() < 0.15:
            inner = self.view_leaf(tuple(base), depth + 1)
            if inner is not None:
                e = self.ex(fn("(" + inner.code + ")"))
                if e.err is None and e.shape == tuple(target):
                    return e
        name = self.new_leaf(tuple(base))
        e = self.ex(fn(name))
        if e.err or e.shape != tuple(target):
            return None
        return e

    def factor(self, n):
        """A random shape with n elements."""
        if n == 0:
            return self.pick([[0], [2, 0], [0, 3], [1, 0, 2]])
        dims = []
        m = n
        for p in (2, 3, 5, 7, 11, 13):
            while m % p == 0:
                dims.append(p)
                m //= p
        if m > 1:
            dims.append(m)
        self.rng.shuffle(dims)
        out = []
        for d in dims:
            if out and self.r() < 0.5:
                out[-1] *= d
            else:
                out.append(d)
        if self.r() < 0.2:
            out.insert(self.rng.randrange(len(out) + 1), 1)
        return out[:4] if len(out) <= 4 else [n]

    # ------------------------------------------------------------ scalars
    def py_scalar(self, for_dt=None, shift=False):
        x = self.r()
        if shift:
            return self.wpick([(self.rng.randint(0, 8), 80), (self.pick([15, 31, 63, 64, 100]), 10),
                               (-1, 5), (True, 5)])
        kind = for_dt and dtype_kind(for_dt)
        if x < 0.45 or (kind is not None and kind in "iub" and x < 0.6):
            if self.r() < 0.12:
                return self.pick(INT_SCALARS_BIG)
            return self.rng.randint(-3, 10)
        if x < 0.9:
            return self.pick(FLOAT_SCALARS) if self.r() < 0.5 else self.rng.randint(-40, 40) / 4.0
        return self.r() < 0.5

    @staticmethod
    def gated_cmp(op, x, y):
        """GATE_CMP_OUT_OF_RANGE_0D: op(x, y) compares a 0-d integer value with
        a Python int outside its dtype's range (x, y: Ex or Python scalars)."""
        if not GATE_CMP_OUT_OF_RANGE_0D or (op not in COMPARE and op not in CMP_UFUNCS):
            return False
        for p, q in ((x, y), (y, x)):
            pv = p.val if isinstance(p, Ex) and p.form == "py" else p
            if isinstance(pv, Ex) or isinstance(pv, bool) or not isinstance(pv, int):
                continue
            qv = np.asarray(q.val if isinstance(q, Ex) else q)
            if qv.ndim == 0 and qv.dtype.kind in "iu":
                info = np.iinfo(qv.dtype)
                if not int(info.min) <= pv <= int(info.max):
                    return True
        return False

    # ------------------------------------------------------------ operand forms
    def dtypes_holding(self, v):
        """The real dtypes a NumPy scalar constructor accepts v in without
        raising or rounding to a different kind of value."""
        if isinstance(v, bool):
            return ["bool"]
        if isinstance(v, int):
            out = [d for d in INT_DTYPES if int(np.iinfo(d).min) <= v <= int(np.iinfo(d).max)]
            return out + (["float32", "float64"] if abs(v) < 2 ** 24 else ["float64"])
        return list(FLOAT_DTYPES)

    def cvalue(self, dt):
        """A complex value whose parts are exact in dt's component dtype."""
        def part():
            x = self.r()
            if x < 0.7:
                return self.rng.randint(-16, 16) / 4.0
            if x < 0.8:
                return self.pick([0.0, -0.0, 1.0, -1.0])
            if x < 0.9:
                return self.values("float32", 1)[0]
            return self.pick([float("nan"), float("inf"), -float("inf"), 0.5])
        re_, im_ = part(), part()
        if self.r() < 0.6:  # mostly finite
            re_ = re_ if math.isfinite(re_) else 1.5
            im_ = im_ if math.isfinite(im_) else -2.0
        return complex(re_, im_)

    def scalar_code(self, dt, v, zero_d=False):
        """Source of a NumPy scalar (or a 0-d array) of dtype dt holding v."""
        if dt in COMPLEX_DTYPES:
            inner = "complex(%s, %s)" % (lit_elem(v.real), lit_elem(v.imag))
        else:
            inner = lit_elem(v)
        if zero_d:
            return "np.array(%s, dtype=np.%s)" % (inner, dt)
        return "np.%s(%s)" % ("bool_" if dt == "bool" else dt, inner)

    def npscalar_ex(self, dt=None, v=None, zero_d=None, complex_ok=False):
        """A NumPy scalar or 0-d array constructor (Ex of form "np")."""
        if dt is None:
            if complex_ok and self.r() < 0.3:
                dt = self.pick(COMPLEX_DTYPES)
            else:
                dt = self.primary if self.r() < 0.3 else self.pick_dtype()
        if v is None:
            v = self.cvalue(dt) if dt in COMPLEX_DTYPES else self.values(dt, 1)[0]
        if zero_d is None:
            zero_d = self.r() < 0.3
        e = self.ex(self.scalar_code(dt, v, zero_d), form="np")
        if e.err:
            raise Terminal(e)
        self.meta["areas"].add("form_0d" if zero_d else "form_np")
        return e

    def scalar_operand(self, for_dt=None, shift=False, pool=None):
        """A scalar operand: a Python scalar (returned as is, the old way) or,
        per SCALAR_FORMS, a NumPy scalar / 0-d array Ex holding a similar value."""
        v = self.pick(pool) if pool else self.py_scalar(for_dt, shift=shift)
        form = self.wpick(SCALAR_FORMS)
        if form == "py":
            return v
        if self.r() < 0.25 and not shift and not pool:
            return self.npscalar_ex(zero_d=form == "0d")  # any dtype, any value
        dt = self.pick(self.dtypes_holding(v))
        if isinstance(v, float) and dt in INT_DTYPES:
            dt = "float64"
        return self.npscalar_ex(dt, v, zero_d=form == "0d")

    def seq_ex(self, shape, tuple_=None, kind=None):
        """A (nested) list or tuple literal of `shape` (Ex of form "seq");
        `shape` must not be ()."""
        assert shape, "a sequence literal needs a shape"
        if tuple_ is None:
            tuple_ = self.wpick(ARG_FORMS[1:]) == "tuple"
        n = int(np.prod(shape)) if shape else 1
        kind = kind or self.wpick([("int", 40), ("float", 35), ("bool", 15), ("mixed", 10)])
        if kind == "int":
            vals = self.values(self.pick(["int8", "int16", "int16", "int64"]), n)
        elif kind == "float":
            vals = self.values(self.pick(["float64", "float32"]), n)
        elif kind == "bool":
            vals = self.values("bool", n)
        else:
            vals = [self.pick([self.values("int16", 1)[0], self.values("float64", 1)[0], self.r() < 0.5])
                    for _ in range(n)]
        codes = [lit_elem(v) for v in vals]
        if n and self.r() < 0.08:  # a NumPy scalar among the elements
            i = self.rng.randrange(n)
            dt = self.pick(self.dtypes_holding(vals[i]))
            codes[i] = self.scalar_code(dt, vals[i])

        def nest(items, shp):
            if not shp:
                return items[0]
            step = int(np.prod(shp[1:])) if len(shp) > 1 else 1
            parts = [nest(items[i * step:(i + 1) * step], shp[1:]) for i in range(shp[0])]
            if tuple_:
                return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
            return "[" + ", ".join(parts) + "]"

        e = self.ex(nest(codes, tuple(shape)), form="seq")
        if e.err:
            raise Reject()
        self.meta["areas"].add("form_tuple" if tuple_ else "form_list")
        return e

    def py_ex(self, for_dt=None):
        v = self.py_scalar(for_dt)
        self.meta["areas"].add("form_py")
        return Ex(lit(v), v, form="py")

    def arg_ex(self, depth, shape, seq_ok=True):
        """An array argument of a function: an expression, or per ARG_FORMS a
        list/tuple literal; a 0-d one is sometimes a Python or NumPy scalar."""
        if not shape and self.r() < P_SCALAR_ARG:
            x = self.r()
            if x < 0.3:
                return self.py_ex(self.primary)
            return self.npscalar_ex(zero_d=x > 0.85)
        form = self.wpick(ARG_FORMS)
        if form != "expr" and seq_ok and shape:
            return self.seq_ex(shape, tuple_=form == "tuple")
        return self.sub(depth, shape)

    # ------------------------------------------------------------ expressions
    def taint_of(self, val, dt, ulps):
        """Error bound for the output of an approximate function."""
        with np.errstate(all="ignore"):
            a = np.asarray(val)
            if dt not in EPS:
                return None
            sp = np.spacing(np.abs(a).astype(dt)).astype(np.float64)
        self.meta["ulps"] = max(self.meta["ulps"], ulps)
        cur = self.meta["approx_dt"]
        if cur is None or EPS[dt] > EPS[cur]:
            self.meta["approx_dt"] = dt
        return ulps * sp

    def combine_E(self, op, a, b, out):
        """Propagates error bounds through op (a, b are Ex or scalars)."""
        Ea = a.E if isinstance(a, Ex) and a.E is not None else 0.0
        Eb = b.E if isinstance(b, Ex) and b.E is not None else 0.0
        av = fabs64(a.val if isinstance(a, Ex) else a)
        bv = fabs64(b.val if isinstance(b, Ex) else b)
        with np.errstate(all="ignore"):
            if op in ("+", "-", "add", "subtract", "maximum", "minimum", "fmax", "fmin"):
                E = Ea + Eb
            elif op in ("*", "multiply"):
                E = av * Eb + bv * Ea + np.multiply(Ea, Eb)
            else:  # division
                den = bv - Eb
                E = np.where(den > 0, (Ea + fabs64(out) * Eb) / np.where(den > 0, den, 1.0), np.inf)
            E = np.broadcast_to(np.asarray(E, dtype=np.float64), np.shape(out)).copy()
        return E

    def operand(self, depth, shape):
        return self.gen_expr(depth, self.variant(shape))

    def gen_expr(self, depth, shape, top=False):
        if depth <= 0 or (not top and self.r() < 0.2):
            return self.leaf_ex(shape)
        kind = self.wpick([("bin", 45), ("u1", 20), ("u2", 12), ("unary", 8), ("where", 6), ("clip", 4),
                           ("astype", 5)])
        for _attempt in range(6):
            e = getattr(self, "gen_" + kind)(depth, shape)
            if e is None:
                kind = "bin"
                continue
            if e.err is None:
                return e
            if self.r() < 0.3:
                raise Terminal(e)
        if e is None or e.err:
            return self.leaf_ex(shape)
        return e

    def sub(self, depth, shape):
        e = self.gen_expr(depth - 1, shape)
        if e.err:
            raise Terminal(e)
        return e

    def wrap(self, e):
        """Source text of e, parenthesised unless it is a name or a literal."""
        c = e.code if isinstance(e, Ex) else lit(e)
        if not isinstance(e, Ex) or c.isidentifier() or e.form in ("np", "py", "seq"):
            return c
        if c.startswith("(") and c.endswith(")") and self._balanced(c[1:-1]):
            return c
        return "(" + c + ")"

    @staticmethod
    def _balanced(s):
        d = 0
        for ch in s:
            d += ch == "("
            d -= ch == ")"
            if d < 0:
                return False
        return d == 0

    def gen_bin(self, depth, shape):
        a = self.sub(depth, self.variant(shape))
        x = self.r()
        b = None
        if x < 0.35:
            scalar = True
        else:
            scalar = False
            b = self.sub(depth, self.variant(shape))
        floaty = a.dt in FLOAT_DTYPES or (b is not None and b.dt in FLOAT_DTYPES)
        ops = list(BINOPS)
        if a.tainted or (b is not None and b.tainted):
            ops = ["+", "-", "*", "/"]
        op = self.pick(ops)
        if op in BITWISE and floaty and self.r() < 0.9:
            op = self.pick(["+", "-", "*", "<", "=="])
        if op == "**" and b is not None and self.r() < 0.6:
            scalar = True
        if scalar:
            if op == "**":
                b = self.scalar_operand(pool=[0, 1, 2, 3, 0.5, 2.0, -1, -2, 1.5, 10, True])
            else:
                b = self.scalar_operand(a.dt, shift=op in ("<<", ">>"))
        elif isinstance(a.val, np.ndarray) and self.wpick(ARG_FORMS) != "expr":
            # a list / tuple next to an ndarray: ndarray's (reflected) operator
            if not b.tainted and b.shape:
                b = self.seq_ex(b.shape)
        if (scalar or isinstance(b, Ex) and b.form == "seq") and self.r() < 0.3:
            a, b = b, a  # scalar on the left: reflected operators
        if self.gated_cmp(op, a, b):
            return None
        e = self.ex("%s %s %s" % (self.wrap(a), op, self.wrap(b)))
        if e.err:
            return e
        self.set_taint(e, op, a, b)
        return e

    def set_taint(self, e, op, a, b):
        """Sets e.E / e.approx for e = op(a, b) (operands in source order)."""
        approx = (a.approx if isinstance(a, Ex) else 0) + (b.approx if isinstance(b, Ex) else 0)
        e.approx = approx
        tainted = (isinstance(a, Ex) and a.tainted) or (isinstance(b, Ex) and b.tainted)
        is_pow = op in ("**", "power", "float_power")
        if tainted:
            e.E = self.combine_E(op, a, b, e.val)
        elif e.dt in FLOAT_DTYPES and (is_pow or op in UFUNC2_APPROX):
            e.E = self.taint_of(e.val, e.dt, 4)
            e.approx = approx + 1

    def gen_u1(self, depth, shape):
        a = self.arg_ex(depth, shape)
        if a.tainted:
            fn = self.pick(["negative", "absolute", "fabs", "positive"])
        else:
            pool = UFUNC1_EXACT * 2 + UFUNC1_APPROX + UFUNC1_INT_OK
            fn = self.pick(pool)
            if fn in BITWISE and a.dt in FLOAT_DTYPES and self.r() < 0.9:
                fn = "negative"
            if fn == "reciprocal" and a.dt not in FLOAT_DTYPES and (np.asarray(a.val) == 0).any():
                fn = "negative"  # integer 1/0 is undefined (C division by zero)
        e = self.ex("np.%s(%s)" % (fn, a.code))
        if e.err:
            return e
        e.approx = a.approx
        if a.tainted:
            e.E = a.E
        elif fn in UFUNC1_APPROX:
            e.E = self.taint_of(e.val, e.dt, 4)
            e.approx += 1
        return e

    def gen_unary(self, depth, shape):
        a = self.sub(depth, shape)
        op = self.pick(["-", "abs", "~", "-", "abs"] if not a.tainted else ["-", "abs"])
        if op == "~" and a.dt in FLOAT_DTYPES and self.r() < 0.9:
            op = "-"
        code = "abs(%s)" % a.code if op == "abs" else "%s%s" % (op, self.wrap(a))
        e = self.ex(code)
        if not e.err:
            e.E, e.approx = a.E, a.approx
        return e

    def gen_u2(self, depth, shape):
        fn = self.pick(UFUNC2_EXACT + UFUNC2_APPROX)
        a = self.arg_ex(depth, self.variant(shape))
        if self.r() < 0.3:
            b = self.scalar_operand(a.dt, shift=fn in ("left_shift", "right_shift"))
        else:
            b = self.arg_ex(depth, self.variant(shape))
        ta = a.tainted or (isinstance(b, Ex) and b.tainted)
        if fn in UFUNC2_APPROX and ta:
            fn = "multiply"
        if ta and fn not in TAINT_OK_BIN:
            fn = self.pick(["maximum", "minimum", "fmax", "fmin", "add", "multiply", "subtract", "divide"])
        floaty = a.dt in FLOAT_DTYPES or (isinstance(b, Ex) and b.dt in FLOAT_DTYPES) or isinstance(b, float)
        if fn in BITWISE and floaty and self.r() < 0.9:
            fn = self.pick(["maximum", "fmin", "add"])
        if fn in ("power", "float_power") and isinstance(b, Ex) and self.r() < 0.5:
            b = self.scalar_operand(pool=[0, 1, 2, 3, 0.5, 2.0, -1, 1.5, True])
        if self.r() < 0.2:
            a, b = b, a
        if self.gated_cmp(fn, a, b):
            return None
        code = [x.code if isinstance(x, Ex) else lit_elem(x) for x in (a, b)]
        e = self.ex("np.%s(%s, %s)" % (fn, code[0], code[1]))
        if e.err:
            return e
        self.set_taint(e, fn, a, b)
        return e

    def gen_where(self, depth, shape):
        cshape = self.variant(shape)
        if cshape and self.wpick(ARG_FORMS) != "expr":
            # np.where((True, False), ...): mostly bools, sometimes other values (truthiness)
            c = self.seq_ex(cshape, kind="bool" if self.r() < 0.75 else None)
            cond = c.code
        else:
            c = self.sub(depth, cshape)
            cond = None
        if cond is not None:
            pass
        elif c.dt != "bool" or self.r() < 0.2:
            if c.tainted:
                return None
            cond = "%s > %s" % (self.wrap(c), lit(self.pick([0, 1, -1, 0.5])) if c.dt != "bool" else "0")
            if c.dt == "bool":
                cond = self.wrap(c)
        else:
            cond = c.code
        a = self.arg_ex(depth, self.variant(shape))
        b = self.arg_ex(depth, self.variant(shape)) if self.r() < 0.7 else self.scalar_operand()
        bc = b.code if isinstance(b, Ex) else lit_elem(b)
        if self.r() < 0.2:
            a, b = (b if isinstance(b, Ex) else Ex(bc, b, form="py")), a
            bc = b.code
        e = self.ex("np.where(%s, %s, %s)" % (cond, a.code, bc))
        if e.err:
            return e
        if a.tainted or (isinstance(b, Ex) and b.tainted):
            cv, _ = self.ev(cond)
            Ea = a.E if a.tainted else 0.0
            Eb = b.E if isinstance(b, Ex) and b.tainted else 0.0
            with np.errstate(all="ignore"):
                e.E = np.broadcast_to(np.where(cv, Ea, Eb).astype(np.float64), e.shape).copy()
        e.approx = a.approx + (b.approx if isinstance(b, Ex) else 0)
        return e

    def gen_clip(self, depth, shape):
        a = self.arg_ex(depth, shape)
        lo, hi = sorted([self.rng.randint(-4, 4), self.rng.randint(-4, 6)])
        if self.r() < 0.3:
            lo, hi = lo - 0.5, hi + 0.25
        if self.r() < 0.1:
            lo, hi = hi, lo
        if self.r() < 0.15:
            lo = None
        bounds = []
        for v in (lo, hi):
            if v is None:
                bounds.append("None")
                continue
            v = self.scalar_operand(pool=[v])
            bounds.append(v.code if isinstance(v, Ex) else lit_elem(v))
        form = self.r()
        if form < 0.5 or a.form in ("py", "seq"):
            code = "np.clip(%s, %s, %s)" % (a.code, bounds[0], bounds[1])
        else:
            code = "%s.clip(%s, %s)" % (self.wrap(a), bounds[0], bounds[1])
        e = self.ex(code)
        if not e.err:
            e.E, e.approx = a.E, a.approx
        return e

    def gen_astype(self, depth, shape):
        a = self.sub(depth, shape)
        dt = self.pick_dtype()
        if a.tainted and dt not in FLOAT_DTYPES:
            dt = self.pick(FLOAT_DTYPES)
        if self.bad_cast(a.val, dt):  # nan / out-of-range float -> int: undefined in NumPy
            dt = self.pick(["float64", "float32", "bool"])
        e = self.ex("%s.astype(np.%s)" % (self.wrap(a), dt))
        if not e.err and a.tainted:
            e.E = a.E
            e.approx = a.approx
            if dt in EPS:
                cur = self.meta["approx_dt"]
                if cur is None or EPS[dt] > EPS[cur]:
                    self.meta["approx_dt"] = dt
        return e

    # ------------------------------------------------------------ case kinds
    def build(self):
        self.primary = self.pick_dtype()
        kind = self.wpick([("elementwise", 35), ("reduce", 22), ("index", 15), ("inplace", 13), ("shape", 8),
                           ("library", 8), ("rows", 5), ("scalar", 6), ("big", 2)])
        self.meta["kind"] = kind
        try:
            r = getattr(self, "case_" + kind)()
        except Terminal as t:
            r = t.ex
            self.meta["tol"] = None
        if r.err is None:
            self.lines.append("r = " + r.code if r.code != "r" else "pass")
            if r.E is not None and self.meta["tol"] is None:
                self.meta["tol"] = np.broadcast_to(r.E, np.shape(r.val)).ravel().tolist()
        else:
            self.lines.append("r = " + r.code)
        self.meta["expect"] = r.err

    def case_elementwise(self):
        shape = self.rand_shape()
        e = self.gen_expr(self.wpick([(1, 35), (2, 40), (3, 25)]), shape, top=True)
        if e.err is None and self.r() < 0.1 and e.shape:
            return self.index_expr(e)
        if e.err is None and not e.tainted and self.r() < 0.01 * COMPLEX_WEIGHT:
            return self.complex_op(e)
        return e

    def case_library(self):
        """Library functions whose results are exact: joining, splitting,
        reordering, padding, triangles, stable sorts and searches, integer
        scans, unique. Inputs are leaves or views (any dtype)."""
        self.meta["areas"].add("library")
        shape = self.rand_shape()
        form = self.wpick(ARG_FORMS)
        if form != "expr" and shape:
            a = self.seq_ex(shape, tuple_=form == "tuple")  # np.flip([1, 2, 3]), np.unique((3, 1, 3))
        else:
            a = self.leaf_ex(shape)
        if a.err:
            return a
        rank = len(a.shape)
        w = self.wrap(a)
        ax = self.rng.randrange(-rank, rank) if rank else 0
        choices = ["flip", "roll", "tile", "repeat", "sort", "argsort", "unique", "nonzero", "argwhere",
                   "expand_dims", "pad", "diff", "concatenate", "stack", "cumsum", "searchsorted", "split"]
        if rank >= 2:
            choices += ["tril", "triu", "moveaxis", "diagonal"]
        if rank in (1, 2):
            choices += ["diag"]
        op = self.pick(choices)
        if a.form == "seq" and (op == "repeat" or op == "cumsum" and a.dt.startswith("float")):
            op = "flip"  # these use methods below
        if op == "flip" and rank == 0 and GATE_FLIP_0D:
            op = "roll"
        if op == "flip":
            code = self.pick(["np.flip(%s)" % a.code, "np.flip(%s, %d)" % (a.code, ax) if rank else "np.flip(%s)" % a.code])
        elif op == "roll":
            shift = self.rng.randrange(-5, 6)
            code = "np.roll(%s, %d)" % (a.code, shift) if not rank or self.r() < 0.4 else "np.roll(%s, %d, axis=%d)" % (a.code, shift, ax)
        elif op == "tile":
            code = "np.tile(%s, %s)" % (a.code, tup([self.rng.randrange(0, 3) for _ in range(self.rng.randrange(1, 3))]))
        elif op == "repeat":
            code = "np.repeat(%s, %d)" % (a.code, self.rng.randrange(0, 3)) if not rank or self.r() < 0.5 else \
                "%s.repeat(%d, axis=%d)" % (w, self.rng.randrange(0, 3), ax)
        elif op == "sort":
            code = "np.sort(%s, kind='stable')" % a.code if rank else "np.sort(%s, axis=None)" % a.code
        elif op == "argsort":
            code = "np.argsort(%s, kind='stable')" % a.code if rank else "np.argsort(%s, axis=None, kind='stable')" % a.code
        elif op == "unique":
            code = self.pick(["np.unique(%s)" % a.code, "np.unique(%s, return_counts=True)[1]" % a.code,
                              "np.unique(%s, return_inverse=True)[1]" % a.code, "np.unique(%s, return_index=True)[1]" % a.code])
        elif op == "nonzero":
            code = "np.nonzero(%s)[%d]" % (a.code, self.rng.randrange(rank)) if rank else "np.flatnonzero(%s)" % a.code
        elif op == "argwhere":
            code = "np.argwhere(%s)" % a.code
        elif op == "expand_dims":
            code = "np.expand_dims(%s, %d)" % (a.code, self.rng.randrange(-rank - 1, rank + 1))
        elif op == "pad":
            mode = self.pick(["constant", "edge", "reflect", "symmetric", "wrap"])
            code = "np.pad(%s, %d, mode='%s')" % (a.code, self.rng.randrange(0, 3), mode)
        elif op == "diff":
            code = "np.diff(%s)" % a.code if self.r() < 0.5 or not rank else "np.diff(%s, n=2, axis=%d)" % (a.code, ax)
        elif op in ("concatenate", "stack"):
            b = self.leaf_ex(a.shape)
            if b.err:
                return b
            if op == "concatenate":
                code = "np.concatenate([%s, %s], axis=%d)" % (a.code, b.code, ax) if rank else "np.concatenate([%s, %s], axis=None)" % (a.code, b.code)
            else:
                code = "np.stack([%s, %s], axis=%d)" % (a.code, b.code, self.rng.randrange(-rank - 1, rank + 1))
        elif op == "cumsum":
            # Exact only for integer and bool inputs (float scans round per step).
            if a.dt.startswith("float"):
                code = "np.cumsum(%s.astype(np.int64), axis=None)" % w
            else:
                code = "np.cumsum(%s)" % a.code if self.r() < 0.5 or not rank else "np.cumsum(%s, axis=%d)" % (a.code, ax)
        elif op == "searchsorted":
            code = "np.searchsorted(np.sort(%s, axis=None), %s, side='%s')" % (a.code, a.code, self.pick(["left", "right"]))
        elif op == "split":
            n = a.shape[0] if rank else 0
            code = "np.array_split(%s, %d)[0]" % (a.code, self.rng.randrange(1, 4)) if rank and n else "np.ravel(%s)" % a.code
        elif op in ("tril", "triu"):
            code = "np.%s(%s, %d)" % (op, a.code, self.rng.randrange(-2, 3))
        elif op == "moveaxis":
            code = "np.moveaxis(%s, %d, %d)" % (a.code, ax, self.rng.randrange(-rank, rank))
        elif op == "diagonal":
            code = "np.diagonal(%s, %d)" % (a.code, self.rng.randrange(-2, 3))
        else:  # diag
            code = "np.diag(%s, %d)" % (a.code, self.rng.randrange(-2, 3))
        return self.ex(code)

    def case_scalar(self):
        """NumPy scalars, 0-d arrays and Python scalars as the only operands
        (np.float64(2) * np.float32(3), np.sqrt(np.float32(2)), np.int8(100) +
        np.int8(100), which wraps), or a NumPy scalar with an array expression."""
        self.meta["areas"].add("npscalar")
        form = self.wpick([("mixed", 20), ("binop", 32), ("ufunc1", 14), ("ufunc2", 12), ("unary", 6),
                           ("convert", 8), ("complex", COMPLEX_WEIGHT)])
        if form == "complex":
            return self.complex_op(None)
        a = self.npscalar_ex(zero_d=self.r() < 0.15)
        if form == "mixed":
            b = self.gen_expr(1, self.variant(()), top=True)
            if b.err:
                return b
            op = self.pick(["+", "*", "-", "<", "/", "//"])
            e = self.ex("%s %s %s" % (a.code, op, self.wrap(b)))
            if e.err is None:
                self.set_taint(e, op, a, b)
            return e
        if form == "binop":
            op = self.pick(BINOPS)
            if op in BITWISE and a.dt in FLOAT_DTYPES and self.r() < 0.9:
                op = self.pick(["+", "-", "*", "<", "=="])
            if op == "**":
                b = self.scalar_operand(pool=[0, 1, 2, 3, 0.5, 2.0, -1, -2, 1.5, 10, True])
            elif self.r() < 0.6:
                b = self.npscalar_ex(zero_d=self.r() < 0.2)
            else:
                b = self.scalar_operand(a.dt, shift=op in ("<<", ">>"))
            if self.r() < 0.3:
                a, b = b, a
            if not isinstance(a, Ex):
                a = Ex(lit(a), a, form="py")
            if self.gated_cmp(op, a, b):
                raise Reject()
            e = self.ex("%s %s %s" % (self.wrap(a), op, self.wrap(b)))
            if e.err is None:
                self.set_taint(e, op, a, b)
            return e
        if form == "ufunc1":
            fn = self.pick(UFUNC1_EXACT + UFUNC1_APPROX + UFUNC1_INT_OK)
            if fn in BITWISE and a.dt in FLOAT_DTYPES and self.r() < 0.9:
                fn = "negative"
            if fn == "reciprocal" and a.dt not in FLOAT_DTYPES and (np.asarray(a.val) == 0).any():
                fn = "negative"
            e = self.ex("np.%s(%s)" % (fn, a.code))
            if e.err is None and fn in UFUNC1_APPROX:
                e.E = self.taint_of(e.val, e.dt, 4)
                e.approx = 1
            return e
        if form == "ufunc2":
            fn = self.pick(UFUNC2_EXACT + UFUNC2_APPROX)
            if fn in BITWISE and a.dt in FLOAT_DTYPES and self.r() < 0.9:
                fn = self.pick(["maximum", "add", "multiply"])
            b = self.npscalar_ex() if self.r() < 0.5 else \
                self.scalar_operand(a.dt, shift=fn in ("left_shift", "right_shift"))
            args = [a, b] if self.r() < 0.7 else [b, a]
            if self.gated_cmp(fn, *args):
                raise Reject()
            code = [x.code if isinstance(x, Ex) else lit_elem(x) for x in args]
            e = self.ex("np.%s(%s, %s)" % (fn, code[0], code[1]))
            if e.err is None:
                self.set_taint(e, fn, *args)
            return e
        if form == "unary":
            op = self.pick(["-", "abs", "~"])
            if op == "~" and a.dt in FLOAT_DTYPES:
                op = "-"
            return self.ex("abs(%s)" % a.code if op == "abs" else "%s%s" % (op, a.code))
        # convert: constructors, astype, item(), float()/int()/bool()
        dt = self.pick_dtype()
        if self.bad_cast(a.val, dt):
            dt = self.pick(["float64", "float32", "bool"])
        how = self.pick(["ctor", "ctor", "astype", "item", "builtin"])
        if how == "ctor":
            code = "np.%s(%s)" % ("bool_" if dt == "bool" else dt, a.code)
        elif how == "astype":
            code = "%s.astype(np.%s)" % (a.code, dt)
        elif how == "item":
            if a.dt == "uint64":  # gpy ints are 64-bit signed (docs/differences.md)
                return self.ex("%s.item() > 0" % a.code)
            code = "%s.item()" % a.code
        else:
            fn = self.pick(["float", "bool"] if a.dt in FLOAT_DTYPES else ["float", "int", "bool"])
            if a.dt == "uint64" and fn == "int":
                fn = "float"
            code = "%s(%s)" % (fn, a.code)
        return self.ex(code)

    def complex_op(self, e):
        """A complex NumPy scalar (or 0-d array) combined with e (an untainted
        real expression) or with another scalar. Only operations that are
        exact on the small dyadic parts cvalue() makes (+ - * and comparisons,
        negative, square, conjugate) or covered by the ULP model (absolute)."""
        self.meta["areas"].add("complex")
        c = self.npscalar_ex(dt=self.pick(COMPLEX_DTYPES), zero_d=self.r() < 0.2)
        if e is None:
            x = self.r()
            if x < 0.35:
                e = self.npscalar_ex(dt=self.pick(COMPLEX_DTYPES), zero_d=self.r() < 0.2)
            elif x < 0.6:
                e = self.npscalar_ex(dt=self.pick(DTYPES), v=None)
            elif x < 0.75:
                v = self.pick([2, -1, 0.5, 1.5, True, 0, complex(1.0, -0.5), complex(0.0, 2.0)])
                e = Ex(lit(v) if not isinstance(v, complex) else "complex(%r, %r)" % (v.real, v.imag),
                       v, form="py")
            elif x < 0.85:
                fn = self.pick(["negative", "square", "conjugate", "absolute", "isnan", "isfinite"])
                r = self.ex("np.%s(%s)" % (fn, c.code))
                if r.err is None and fn == "absolute":
                    r.E = self.taint_of(r.val, r.dt, 4)
                    r.approx = 1
                return r
            else:
                e = self.leaf_ex(self.rand_shape(2), allow_view=True)
        ops = ["+", "-", "*", "==", "!=", "add", "subtract", "multiply", "equal"]
        if e.form not in ("seq",):
            ops.append("<")
        op = self.pick(ops)
        args = [c, e] if self.r() < 0.6 else [e, c]
        if op.isalpha():
            code = "np.%s(%s, %s)" % (op, args[0].code, args[1].code)
        else:
            code = "%s %s %s" % (self.wrap(args[0]), op, self.wrap(args[1]))
        return self.ex(code)

    def case_shape(self):
        shape = self.rand_shape()
        a = self.leaf_ex(shape) if self.r() < 0.7 else self.gen_expr(1, shape, top=True)
        if a.err:
            return a
        rank = len(a.shape)
        n = int(np.prod(a.shape)) if rank else 1
        choices = ["reshape", "reshape_bad", "T", "ravel", "flatten", "squeeze", "astype", "newaxis"]
        if rank >= 2:
            choices += ["transpose", "swapaxes"]
        op = self.pick(choices)
        w = self.wrap(a)
        if op == "reshape":
            tgt = self.factor(n)
            if self.r() < 0.3 and tgt:
                tgt[self.rng.randrange(len(tgt))] = -1
            code = self.pick(["%s.reshape(%s)" % (w, tup(tgt)), "np.reshape(%s, %s)" % (a.code, tup(tgt))])
            if len(tgt) >= 1 and self.r() < 0.3:
                code = "%s.reshape(%s)" % (w, ", ".join(str(d) for d in tgt))
        elif op == "reshape_bad":
            code = "%s.reshape(%s)" % (w, tup([n + 1] if self.r() < 0.5 else [-1, -1]))
        elif op == "T":
            code = w + ".T"
        elif op == "ravel":
            code = self.pick(["%s.ravel()" % w, "np.ravel(%s)" % a.code])
        elif op == "flatten":
            code = w + ".flatten()"
        elif op == "squeeze":
            ones = [i for i, d in enumerate(a.shape) if d == 1]
            if ones and self.r() < 0.5:
                code = "%s.squeeze(%d)" % (w, self.pick(ones))
            elif self.r() < 0.15 and rank:
                code = "%s.squeeze(%d)" % (w, self.rng.randrange(rank))
            else:
                code = self.pick(["%s.squeeze()" % w, "np.squeeze(%s)" % a.code])
        elif op == "astype":
            dt = self.pick_dtype()
            if self.bad_cast(a.val, dt):
                dt = self.pick(["float64", "float16", "bool"])
            code = "%s.astype(np.%s)" % (w, dt)
        elif op == "newaxis":
            idx = [":"] * self.rng.randrange(rank + 1)
            idx.append(self.pick(["None", "np.newaxis"]))
            code = "%s[%s]" % (w, ", ".join(idx))
        elif op == "transpose":
            p = list(range(rank))
            self.rng.shuffle(p)
            code = self.pick(["np.transpose(%s, %s)" % (a.code, tup(p)), "%s.transpose(%s)" % (w, tup(p)),
                              "np.transpose(%s)" % a.code, "%s.transpose()" % w])
        else:
            i, j = self.rng.randrange(rank), self.rng.randrange(-rank, rank)
            code = self.pick(["%s.swapaxes(%d, %d)" % (w, i, j), "np.swapaxes(%s, %d, %d)" % (a.code, i, j)])
        e = self.ex(code)
        if e.err:
            return e
        e.E = None if a.E is None else self.ev_E(a, code, e)
        e.approx = a.approx
        # then an elementwise op on the (possibly strided) result
        if self.r() < 0.5:
            name = "v%d" % self.nvars
            self.nvars += 1
            err = self.stmt("%s = %s" % (name, e.code))
            if err:
                return Ex(name, err=err)
            ve = Ex(name, e.val, None, e.E, e.approx)
            b = self.sub(2, self.variant(e.shape))
            op = self.pick(["+", "*", "-", "<"] if not (ve.tainted or b.tainted) else ["+", "*"])
            e2 = self.ex("%s %s %s" % (name, op, self.wrap(b)))
            if e2.err is None:
                self.set_taint(e2, op, ve, b)
            return e2
        return e

    def ev_E(self, a, code, e):
        """The error bound of a view/reshape of a tainted value: apply the same code."""
        saved = self.env.get("__E")
        self.env["__E"] = np.broadcast_to(a.E, a.shape).copy()
        src = code.replace(a.code, "__E", 1) if a.code in code else None
        try:
            if src is None:
                return np.full(np.shape(e.val), np.inf)
            v, err = self.ev(src)
            if err or np.shape(v) != np.shape(e.val):
                return np.full(np.shape(e.val), np.inf)
            return np.asarray(v, dtype=np.float64)
        finally:
            self.env["__E"] = saved

    # -------- indexing
    def basic_index(self, shape):
        """A basic index (ints, slices, None, ...) for `shape`, as source text."""
        rank = len(shape)
        n = self.rng.randint(1, max(1, rank) + (1 if self.r() < 0.2 else 0))
        kinds = [self.wpick([("none", 10), ("ell", 8), ("int", 30), ("slice", 52)]) for _ in range(n)]
        seen = False
        for i, kd in enumerate(kinds):
            if kd == "ell":
                kinds[i] = "slice" if seen else kd
                seen = True
        remaining = sum(kd in ("int", "slice") for kd in kinds)
        dim = 0
        items = []
        for kd in kinds:
            if kd == "none":
                items.append("None")
            elif kd == "ell":
                items.append("...")
                dim = max(dim, rank - remaining)
            else:
                remaining -= 1
                d = shape[dim] if dim < rank else 2
                dim += 1
                if kd == "int":
                    if self.r() < 0.06 or d == 0:
                        j = self.pick([d, -d - 1, d + 3])
                    else:
                        j = self.rng.randrange(-d, d)
                    items.append(str(j))
                else:
                    start = self.pick([None, None, 0, 1, -1, 2, -2, d, d + 2])
                    stop = self.pick([None, None, -1, 1, 2, 3, d, -d, 100])
                    step = self.pick([None, None, None, 1, 2, -1, -1, -2, 3])
                    sl = (str(start) if start is not None else "") + ":" + (str(stop) if stop is not None else "")
                    if step is not None:
                        sl += ":" + str(step)
                    items.append(sl)
        if len(items) == 1 and self.r() < 0.7:
            return items[0]
        return ", ".join(items) + ("," if len(items) == 1 else "")

    def index_expr(self, a):
        """Indexes the array expression `a` (basic, boolean or integer-array index)."""
        shape = a.shape
        rank = len(shape)
        kind = self.wpick([("basic", 50), ("mask", 20), ("intarr", 30)])
        w = self.wrap(a)
        if kind == "basic" or rank == 0:
            idx = self.basic_index(shape) if rank or self.r() < 0.5 else self.pick(["...", "None", "()"])
            code = "%s[%s]" % (w, idx)
            self.meta["areas"].add("basic")
        elif kind == "mask":
            self.meta["areas"].add("mask")
            x = self.r()
            if x < 0.4 and not a.tainted and a.dt != "bool":
                code = "%s[%s %s %s]" % (w, w, self.pick(["<", ">", ">=", "!="]), lit(self.pick([0, 1, -1, 2.5])))
            else:
                mshape = shape
                if x >= 0.8 and rank > 1:
                    mshape = shape[:self.rng.randrange(1, rank)]  # a mask over the leading axes
                    self.meta["areas"].add("partial_mask")
                vals = [self.r() < 0.5 for _ in range(int(np.prod(mshape)))]
                m = "np.array([%s], dtype=np.bool_)" % ", ".join(lit(v) for v in vals)
                if len(mshape) > 1:
                    m += ".reshape(%s)" % tup(mshape)
                if self.r() < 0.1:
                    m = "np.array([%s])" % ", ".join(lit(v) for v in vals + [True])  # wrong length
                code = "%s[%s]" % (w, m)
        else:
            self.meta["areas"].add("intarr")
            d = shape[0]
            cnt = self.rng.randint(0, 5)
            ids = [self.rng.randrange(-d, d) if d else 0 for _ in range(cnt)]
            if self.r() < 0.08 or (d == 0 and cnt):
                ids.append(self.pick([d, -d - 1]))
            form = self.r()
            if form < 0.3:
                ix = "[%s]" % ", ".join(str(i) for i in ids)
                if not ids:
                    ix = "np.array([], dtype=np.int64)"
            elif form < 0.7 or rank < 2:
                ix = "np.array([%s], dtype=np.%s)" % (", ".join(str(i) for i in ids),
                                                     self.pick(["int64", "int32", "intp", "int8", "uint8"]
                                                               if min(ids, default=0) >= 0 else ["int64", "int32", "intp", "int8"]))
            elif form < 0.85:
                self.meta["areas"].add("multi_intarr")  # several index arrays, broadcast together
                d1 = shape[1]
                ids2 = [self.rng.randrange(-d1, d1) if d1 else 0 for _ in range(len(ids))]
                ix = "np.array([%s]), np.array([%s])" % (", ".join(str(i) for i in ids),
                                                        ", ".join(str(i) for i in ids2))
                if not ids:
                    ix = "np.array([], dtype=np.int64), np.array([], dtype=np.int64)"
                elif self.r() < 0.3:
                    ix = "np.array([%s]).reshape(-1, 1), np.array([%s])" % (", ".join(str(i) for i in ids),
                                                                            ", ".join(str(i) for i in ids2))
            else:
                self.meta["areas"].add("mixed_adv")  # an integer or a mask on a later axis
                d1 = shape[1]
                if self.r() < 0.5:
                    ix = ":, [%s]" % ", ".join(str(self.rng.randrange(-d1, d1)) for _ in range(self.rng.randint(0, 3))) if d1 else ":, []"
                else:
                    ix = "%s, np.array([%s], dtype=np.bool_)" % (
                        self.pick([":", "...", "::-1", str(self.rng.randrange(-shape[0], shape[0])) if shape[0] else ":"]),
                        ", ".join(lit(self.r() < 0.5) for _ in range(d1)))
            if rank >= 2 and self.r() < 0.3:
                self.meta["areas"].add("mixed_adv")
                ix = self.pick([":, ", "1:, ", "..., ", "None, "]) + ix if self.r() < 0.5 else ix + self.pick([", ::-1", ", 0", ", None"])
            code = "%s[%s]" % (w, ix)
        e = self.ex(code)
        if e.err is None:
            e.approx = a.approx
            e.E = None if a.E is None else self.ev_E(a, code, e)
        return e

    def case_index(self):
        shape = self.rand_shape()
        if not shape and self.r() < 0.7:
            shape = (self.pick([2, 3, 4]),)
        x = self.r()
        if x < 0.6:
            a = self.leaf_ex(shape)
        else:
            a = self.gen_expr(self.pick([1, 2]), shape, top=True)
        if a.err:
            return a
        e = self.index_expr(a)
        if e.err is None and self.r() < 0.25 and e.shape:
            if self.r() < 0.5:
                return self.index_expr(e)
            b = self.sub(2, self.variant(e.shape))
            op = self.pick(["+", "*"] if (e.tainted or b.tainted) else ["+", "*", "-", "<", "//"])
            e2 = self.ex("%s %s %s" % (self.wrap(e), op, self.wrap(b)))
            if e2.err is None:
                self.set_taint(e2, op, e, b)
            return e2
        return e

    # -------- in-place
    def case_inplace(self):
        shape = self.rand_shape()
        if not shape and self.r() < 0.6:
            shape = (self.pick([3, 4, 5]),)
        name = self.new_leaf(shape)
        rank = len(shape)
        kind = self.wpick([("aug", 30), ("slice", 20), ("mask", 12), ("intarr", 10), ("view", 12),
                           ("lazy", 12), ("overlap", 6), ("fill", 3)])
        self.meta["areas"].add("inplace_" + kind)
        aug = self.pick(["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="])
        dtn = str(self.env[name].dtype)
        if aug[:-1] in BITWISE and dtn in FLOAT_DTYPES and self.r() < 0.9:
            aug = self.pick(["+=", "*=", "-="])

        def scal():
            v = self.scalar_operand(dtn, shift=aug in ("<<=", ">>="))
            return v.code if isinstance(v, Ex) else lit(v)

        def rhs(tshape, allow_scalar=True):
            if allow_scalar and self.r() < 0.45:
                return scal()
            form = self.wpick(ARG_FORMS)
            if form != "expr":  # x += [1, 2, 3]; x[1:] = (True, False)
                vs = self.variant(tshape)
                if vs:
                    return self.seq_ex(vs, tuple_=form == "tuple").code
            e = self.gen_expr(self.pick([0, 0, 1]), self.variant(tshape))
            if e.err or e.tainted:
                raise Reject()
            return e.code if e.code.isidentifier() else self.wrap(e)

        def check_assign(target, op, value):
            """Rejects `target op value` if it would cast float values to ints
            out of range (undefined). Python runs x[i] op= v as t = x[i];
            t op= v; x[i] = t: for an array t that is an in-place ufunc (which
            refuses unsafe casts), for a scalar element an unsafe setitem."""
            if op == "=":
                val, err = self.ev(value)
            else:
                cur, err = self.ev(target)
                if err or isinstance(cur, np.ndarray):
                    return
                val, err = self.ev("(%s) %s (%s)" % (target, op[:-1], value))
            if not err and self.bad_cast(val, dtn):
                raise Reject()

        if kind == "aug":
            err = self.stmt("%s %s %s" % (name, aug, rhs(shape)))
        elif kind == "slice" and rank:
            idx = self.basic_index(shape)
            sub, err = self.ev("%s[%s]" % (name, idx))
            if err:
                return Ex("%s[%s]" % (name, idx), err=err)
            op = self.pick(["=", "=", aug])
            value = rhs(np.shape(sub))
            check_assign("%s[%s]" % (name, idx), op, value)
            err = self.stmt("%s[%s] %s %s" % (name, idx, op, value))
        elif kind == "mask" and rank:
            if self.r() < 0.5 and dtn != "bool":
                m = "%s %s %s" % (name, self.pick(["<", ">", "=="]), lit(self.pick([0, 1, 2, -1])))
            else:
                vals = [self.r() < 0.5 for _ in range(int(np.prod(shape)))]
                m = "np.array([%s])" % ", ".join(lit(v) for v in vals)
                if rank > 1:
                    m += ".reshape(%s)" % tup(shape)
            v = self.pick([scal(), "0"])
            op = self.pick(["=", "=", "=", aug])
            check_assign("%s[%s]" % (name, m), op, v)
            err = self.stmt("%s[%s] %s %s" % (name, m, op, v))
        elif kind == "intarr" and rank:
            d = shape[0]
            ids = [self.rng.randrange(-d, d) if d else 0 for _ in range(self.rng.randint(1, 4))]
            if not d:
                ids = []
            ix = self.pick(["[%s]" % ", ".join(map(str, ids)), "np.array([%s], dtype=np.int64)" % ", ".join(map(str, ids))])
            if not ids:
                ix = "np.array([], dtype=np.int64)"
            if rank >= 2 and self.r() < 0.4:
                self.meta["areas"].add("inplace_mixed_adv")
                d1 = shape[1]
                ids2 = [self.rng.randrange(-d1, d1) if d1 else 0 for _ in ids]
                ix = self.pick(["%s, [%s]" % (ix, ", ".join(map(str, ids2))), ":, [%s]" % ", ".join(map(str, ids2)),
                                "%s, 1:" % ix, "..., [%s]" % ", ".join(map(str, ids2))])
            sub, err = self.ev("%s[%s]" % (name, ix))
            if err:
                return Ex("%s[%s]" % (name, ix), err=err)
            if self.r() < 0.5 or not np.shape(sub):
                v = scal()
            else:
                v = rhs(np.shape(sub)[self.rng.randrange(0, len(np.shape(sub)) + 1):], allow_scalar=False)
            op = self.pick(["=", "=", aug])
            check_assign("%s[%s]" % (name, ix), op, v)
            err = self.stmt("%s[%s] %s %s" % (name, ix, op, v))
        elif kind == "view" and rank:
            idx = self.basic_index(shape)
            err = self.stmt("v = %s[%s]" % (name, idx))
            if not err:
                vv = self.env["v"]
                if not isinstance(vv, np.ndarray) or vv.ndim == 0 and self.r() < 0.5:
                    return self.ex(name)
                err = self.stmt("v %s %s" % (aug, rhs(vv.shape)))
                if not err and self.r() < 0.5:
                    err = self.stmt("v = v + 1")  # rebinding must not touch the base
        elif kind == "lazy":
            op = self.pick(["+", "*", "-"])
            err = self.stmt("y = %s %s %s" % (name, op, rhs(shape)))
            if not err:
                if rank and self.r() < 0.5:
                    err = self.stmt("%s[%s] = %s" % (name, self.basic_index(shape), scal()))
                else:
                    err = self.stmt("%s %s %s" % (name, aug, rhs(shape)))
            if not err:
                return self.ex(self.pick(["y", "y + %s" % name, "np.maximum(y, %s)" % name]))
        elif kind == "overlap" and rank and shape[0] >= 2:
            form = self.pick(["%s[1:] %s %s[:-1]" % (name, aug, name),
                              "%s[:-1] %s %s[1:]" % (name, aug, name),
                              "%s[:] = %s[::-1]" % (name, name),
                              "%s[::-1] %s %s" % (name, aug, name)])
            err = self.stmt(form)
        elif kind == "fill":
            err = self.stmt("%s.fill(%s)" % (name, scal()))
        else:
            err = self.stmt("%s %s %s" % (name, aug, rhs(shape)))
        if err:
            # NumPy raised in the last statement; if gpy does not, it shows the array
            return Ex(name, err=err)
        return self.ex(name)

    # -------- reductions
    def case_reduce(self):
        shape = self.rand_shape()
        op = self.pick(["sum", "sum", "prod", "min", "max", "mean", "mean", "std", "var", "any", "all",
                        "argmin", "argmax"])
        form = self.wpick(ARG_FORMS)
        if form != "expr" and shape:
            a = self.seq_ex(shape, tuple_=form == "tuple")  # np.sum([[1, 2], [3, 4]], axis=0)
        elif not shape and self.r() < P_SCALAR_ARG:
            a = self.py_ex() if self.r() < 0.3 else self.npscalar_ex()  # np.max(np.int8(3))
        else:
            a = self.gen_expr(self.wpick([(0, 45), (1, 35), (2, 20)]), shape, top=True)
        if a.err:
            return a
        if a.tainted and op in ("prod", "std", "var", "any", "all", "argmin", "argmax"):
            op = self.pick(["sum", "mean", "min", "max"])
        return self.reduce_of(a, op)

    def reduce_of(self, a, op):
        rank = len(a.shape)
        x = self.r()
        axis = None
        if x < 0.3 or rank == 0:
            axis = None if rank or self.r() < 0.7 else self.pick([0, -1, (), (0,)])
        elif x < 0.75:
            axis = self.rng.randrange(-rank, rank)
        elif x < 0.93:
            k = self.rng.randint(1, rank)
            axis = tuple(self.rng.sample(range(rank), k))
            if self.r() < 0.3:
                axis = tuple(ax - rank if self.r() < 0.5 else ax for ax in axis)
        else:
            axis = self.pick([rank, -rank - 1, (0, 0), ()])
        keep = self.r() < 0.25
        if keep and rank == 0 and GATE_0D_KEEPDIMS:
            keep = False
        kws = []
        if axis is not None or self.r() < 0.2:
            kws.append("axis=%s" % (tup(axis) if isinstance(axis, tuple) and axis else
                                    "()" if axis == () else str(axis)))
        if keep:
            kws.append("keepdims=True")
        ddof = 0
        if op in ("std", "var") and self.r() < 0.3:
            ddof = self.pick([1, 2])
            kws.append("ddof=%d" % ddof)
        w = self.wrap(a)
        if self.r() < 0.5 and a.form not in ("py", "seq"):
            code = "%s.%s(%s)" % (w, op, ", ".join(kws))
        else:
            code = "np.%s(%s)" % (op, ", ".join([a.code] + kws))
        e = self.ex(code)
        self.meta["areas"].add("reduce")
        if e.err or a.dt == "bool" and op not in ("mean", "std", "var"):
            return e
        self.meta["red"] = op
        # tolerance: summation order differs (pairwise vs chunked), scale with sqrt(n)
        rdt = e.dt
        if rdt not in EPS and not a.tainted:
            return e
        xv = np.asarray(a.val)
        n_out = max(1, int(np.prod(np.shape(e.val))))
        n = max(1, xv.size // n_out) if xv.size else 1
        ax = axis if axis != () else ()
        with np.errstate(all="ignore"):
            xf = np.abs(xv.astype(np.float64))
            epsd = max(EPS.get(rdt, EPS["float64"]), EPS.get(a.dt, 0))
            c = 4.0 * math.sqrt(n)
            if op in ("sum", "mean"):
                S = np.sum(xf, axis=ax, keepdims=keep)
                if op == "mean":
                    S = S / n
                tol = c * epsd * S
                if a.E is not None:
                    Es = np.sum(np.broadcast_to(a.E, xv.shape), axis=ax, keepdims=keep)
                    tol = tol + (Es / n if op == "mean" else Es)
                if rdt in EPS:
                    # partial sums that overflow the accumulator make the result depend on
                    # the order (np.mean accumulates float16 in float32; np.sum's float16
                    # accumulation depends on the memory layout, so assume float16)
                    acc = "float32" if rdt == "float16" and op == "mean" else rdt
                    Sfull = np.sum(xf, axis=ax, keepdims=keep)
                    tol = np.where(Sfull > float(np.finfo(acc).max), np.inf, tol)
            elif op in ("var", "std"):
                S2 = np.mean(xf * xf, axis=ax, keepdims=keep)
                tvar = 2 * c * epsd * S2 * n / max(1, n - ddof)
                if op == "std":
                    ref = np.sqrt(np.var(xv.astype(np.float64), axis=ax, keepdims=keep, ddof=ddof))
                    tol = tvar / (ref + np.sqrt(tvar))
                else:
                    tol = tvar
            elif op == "prod":
                tol = 4.0 * n * epsd * np.abs(np.asarray(e.val, dtype=np.float64))
                if rdt in EPS:
                    # partial products that overflow / underflow make the result
                    # depend on the order (inf * 0 = nan, or 0): accept anything there
                    fi = np.finfo(rdt)
                    big = np.prod(np.where(xf >= 1, xf, 1.0), axis=ax, keepdims=keep)
                    small = np.prod(np.where((xf < 1) & (xf > 0), xf, 1.0), axis=ax, keepdims=keep)
                    tol = np.where((big > float(fi.max)) | (small < float(fi.tiny)), np.inf, tol)
            elif op in ("min", "max") and a.E is not None:
                tol = np.max(np.broadcast_to(a.E, xv.shape), axis=ax, keepdims=keep) if xv.size else 0.0
            else:
                return e
            tol = np.nan_to_num(np.broadcast_to(np.asarray(tol, dtype=np.float64), np.shape(e.val)),
                                nan=0.0, posinf=0.0)
        e.E = tol
        if a.E is not None:
            e.approx = a.approx
        return e

    # -------- row patterns (one RowFused kernel: reductions over the last
    # axis broadcast back through keepdims, possibly nested)
    def case_rows(self):
        self.meta["areas"].add("rows")
        shape = self.rand_shape()
        if not shape:
            shape = (self.rng.randint(1, 6),)
        dt = self.pick(["float32", "float64"])
        a = self.leaf_ex(shape)
        A = "%s.astype(np.%s)" % (self.wrap(a), dt) if a.dt != dt else self.wrap(a)
        # Keep values finite and moderate: the tolerance below is relative
        # to a float64 reference.
        A = "np.clip(%s, -50, 50)" % A
        for line in ["A = " + A]:
            err = self.stmt(line)
            if err:
                raise Terminal(Ex("A", err=err))
        form = self.rng.randrange(5)
        if form == 0:
            code = "A - A.max(axis=-1, keepdims=True)"
        elif form == 1:
            err = self.stmt("e = np.exp(A - A.max(axis=-1, keepdims=True))")
            if err:
                raise Terminal(Ex("e", err=err))
            code = "e / e.sum(axis=-1, keepdims=True)"
        elif form == 2:
            code = "(A - A.mean(axis=-1, keepdims=True)) / (A.std(axis=-1, keepdims=True) + 1)"
        elif form == 3:
            code = "A / (np.abs(A).sum(axis=-1, keepdims=True) + 1) + A.min(axis=-1, keepdims=True)"
        else:
            code = "np.exp(A - A.max(axis=-1, keepdims=True)) / np.exp(A - A.max(axis=-1, keepdims=True)).sum(axis=-1, keepdims=True)"
        e = self.ex(code)
        if e.err or e.dt not in EPS:
            return e
        n = max(1, shape[-1])
        with np.errstate(all="ignore"):
            scale = np.abs(np.asarray(e.val, dtype=np.float64)) + 1.0
            e.E = np.nan_to_num(16.0 * math.sqrt(n) * EPS[e.dt] * scale * 50, nan=0.0, posinf=0.0)
        return e

    # -------- big arrays (multi-chunk reductions, threaded kernels)
    def case_big(self):
        self.meta["areas"].add("big")
        n = self.pick([70000, 131073, 200000])
        dt = self.pick(["float64", "float32", "int32", "int64", "int16", "float16", "uint8", "bool"])
        m = self.pick([7, 13, 101])
        base = "np.arange(%d, dtype=np.int64) %% %d - %d" % (n, m, m // 2)
        if dt == "bool":
            code = "(%s) > 0" % base
        else:
            code = "(%s).astype(np.%s)" % (base, dt)
        if dt in ("float32", "float64") and self.r() < 0.5:
            code = "%s * %s" % (code, self.pick(["0.25", "0.5", "1.5"]))
        err = self.stmt("x0 = " + code)
        if err:
            return Ex("x0", err=err)
        val = self.env["x0"]
        if n % 1000 == 0 and self.r() < 0.5:
            err = self.stmt("x0 = x0.reshape((%d, -1))" % (n // 1000))
            if err:
                return Ex("x0", err=err)
        a = Ex("x0", self.env["x0"])
        if self.r() < 0.4:
            a2 = self.ex("x0 * 2 - 1" if dt != "bool" else "x0 ^ True")
            if a2.err is None:
                a = a2
        op = self.pick(["sum", "max", "min", "mean", "argmax", "argmin", "any", "all", "prod", "std", "var"])
        if op == "prod" and dt != "bool":
            a = self.ex("(%s %% 3 == 0) * 1e-5 + 1.0" % self.wrap(a)) if dt in FLOAT_DTYPES else \
                self.ex("(%s %% 2) * 2 - 1" % self.wrap(a))
        rank = len(np.shape(a.val))
        axis = None if rank == 1 or self.r() < 0.5 else self.pick([0, 1, -1])
        kws = "" if axis is None else "axis=%d" % axis
        e = self.ex("%s.%s(%s)" % (self.wrap(a), op, kws))
        if e.err is None and e.dt in EPS:
            ax = axis
            xv = np.asarray(a.val)
            n_out = max(1, int(np.prod(np.shape(e.val))))
            nn = max(1, xv.size // n_out)
            with np.errstate(all="ignore"):
                xf = np.abs(xv.astype(np.float64))
                epsd = max(EPS[e.dt], EPS.get(a.dt, 0))
                if op in ("sum", "mean"):
                    # the data are small multiples of 1/4: every partial sum is exact in
                    # float32/64, so only the final rounding (and the mean's division) differ
                    tol = 8 * epsd * (np.abs(np.asarray(e.val, dtype=np.float64)) + np.mean(xf, axis=ax))
                elif op in ("std", "var"):
                    # worst-case bound of a blocked sequential sum: n * eps
                    tvar = 4 * nn * epsd * np.mean(xf * xf, axis=ax)
                    tol = tvar if op == "var" else tvar / (np.sqrt(np.var(xv.astype(np.float64), axis=ax)) +
                                                          np.sqrt(tvar))
                elif op == "prod":
                    tol = 4.0 * nn * epsd * np.abs(np.asarray(e.val, dtype=np.float64))
                else:
                    tol = 0.0
                e.E = np.broadcast_to(np.asarray(tol, dtype=np.float64), np.shape(e.val))
            self.meta["red"] = op
        return e


def make_case(seed, k, opts):
    """Returns (source lines of the try-block body, meta) for case k."""
    for attempt in range(50):
        c = Case(seed if attempt == 0 else "%s/%d" % (seed, attempt), k, opts)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # tolerance arithmetic on empty / inf data
                c.build()
        except Reject:
            continue
        c.meta["areas"] = sorted(c.meta["areas"])
        return c.lines, c.meta
    return ["r = 0"], {"kind": "none", "tol": None, "expect": None, "areas": []}


def case_source(k, lines):
    body = "".join("    %s\n" % ln for ln in lines)
    return ("try:\n%s    show(%d, r)\nexcept Exception as e:\n    print(\"CASE\", %d, \"ERR\", type(e).__name__, flush=True)\n    _flush()\n"
            % (body, k, k))


def script(seed, ks, opts, batch=True):
    """The full program for cases ks; returns (text, {k: (lines, meta)}).
    batch: flush after every case through input() (stdin must be /dev/null)."""
    parts = [PRELUDE.replace("FLUSH_DEF\n", FLUSH_BATCH if batch else FLUSH_NONE)]
    info = {}
    for k in ks:
        lines, meta = make_case(seed, k, opts)
        info[k] = (lines, meta)
        parts.append("# case %d\n" % k + case_source(k, lines))
    parts.append('print("DONE")\n')
    return "\n".join(parts), info


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", default="12345")
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--case", type=int, help="print one case (as a standalone program)")
    ap.add_argument("--batch", action="store_true",
                    help="flush after every case the way run.py needs (stdin must be /dev/null)")
    ap.add_argument("--include-unsupported", action="store_true",
                    help="also generate features gpy does not implement yet (see KNOWN_ISSUES.md)")
    opts = ap.parse_args()
    if opts.case is not None:
        text, _ = script(opts.seed, [opts.case], opts, batch=opts.batch)
    else:
        text, _ = script(opts.seed, range(opts.start, opts.start + opts.cases), opts, batch=opts.batch)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
