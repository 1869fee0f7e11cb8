"""The hostile-argument catalogue and the targets of the API fuzzer (api_fuzz.py).

Everything here produces *source text*: every generated call is a few lines
that run unchanged under gpy and under python3 + NumPy 2.  Nothing here runs
NumPy on generated values; NumPy is only introspected for signatures.

Targets (Target):
  func     np.NAME(...), np.linalg.NAME(...), np.random.NAME(...)
  gen      np.random.default_rng(0).NAME(...)          (Generator methods)
  method   x.NAME(...)                                  (ndarray methods)
  attr     x.NAME                                       (ndarray properties)
  setattr  x.NAME = V                                   (shape, real, imag)
  ufunc    np.U(...), np.U.reduce/accumulate/outer/at(...)
  uattr    np.U.nin / nout / nargs / identity / __name__
  getitem  x[IDX]            setitem  x[IDX] = V
"""
import inspect
import math
import random
import re

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
INT_DTYPES = DTYPES[1:9]
FLOAT_DTYPES = ["float16", "float32", "float64"]
COMPLEX_DTYPES = ["complex64", "complex128"]

# Element values per dtype, as source text.  Every value fits its dtype (storing
# an out-of-range Python int is a separate, known issue).
_IMAX = {"int8": 127, "int16": 32767, "int32": 2147483647, "int64": 9223372036854775807,
         "uint8": 255, "uint16": 65535, "uint32": 4294967295}
VALUES = {"bool": ["True", "False"]}
for _d in INT_DTYPES:
    if _d == "uint64":
        VALUES[_d] = ["0", "1", "2", "3", "5", "7", "100", "9223372036854775807",
                      "np.iinfo(np.uint64).max"]
    elif _d.startswith("u"):
        VALUES[_d] = ["0", "1", "2", "3", "5", "7", "100", str(_IMAX[_d])]
    else:
        lo = "(-9223372036854775807 - 1)" if _d == "int64" else str(-_IMAX[_d] - 1)
        VALUES[_d] = ["0", "1", "-1", "2", "3", "-5", "7", "100", str(_IMAX[_d]), lo]
for _d in FLOAT_DTYPES:
    VALUES[_d] = ["0.0", "-0.0", "1.0", "1.5", "-2.25", "0.5", "3.0", "-7.0", "100.0", "0.001",
                  "np.nan", "np.inf", "-np.inf", "65504.0", "1e30"]
for _d in COMPLEX_DTYPES:
    VALUES[_d] = ["0j", "(1+2j)", "(-1.5+0.5j)", "(3+0j)", "(2-1j)", "1j", "complex(np.nan, 0.0)",
                  "complex(np.inf, 1.0)", "(0.5-0.25j)"]

SHAPES = [(), (0,), (1,), (3,), (4,), (5,), (2, 3), (3, 2), (3, 1), (1, 3), (2, 2), (3, 3), (2, 0),
          (0, 3), (2, 3, 2), (2, 1, 3), (1, 1, 1, 1), (2, 2, 2, 2)]

# ---------------------------------------------------------------- the hostile catalogue
WRONG_TYPES = ["None", "'x'", "''", "'3'", "{}", "{'a': 1}", "['a', 'b']", "len", "lambda t: t",
               "np.add", "np", "[None]", "(1, 'a')", "[[1, 2], [3]]", "[[1], [2, 3]]", "[]", "()",
               "[[]]", "[(), ()]", "1j", "range(3)", "slice(1, 2)", "[np.zeros(3)]",
               "(np.zeros(2), np.ones(3))", "int", "float", "complex", "bool", "str", "np.float64",
               "np.int32", "np.dtype('f4')", "[1, 'a']", "{1, 2}", "Exception", "print"]
NP_SCALARS = ["np.float32(2.5)", "np.int8(-3)", "np.bool_(True)", "np.complex64(1+2j)",
              "np.float16(np.inf)", "np.int64(-1)", "np.uint8(200)", "np.float64(np.nan)",
              "np.uint64(3)", "np.int32(0)", "np.complex128(-1j)", "np.bool_(False)", "np.float32(-0.0)",
              "np.iinfo(np.uint64).max", "np.int16(2)"]
ZERO_D = ["np.array(3.0)", "np.array(2)", "np.array(True)", "np.array(1+1j)", "np.array(-1)",
          "np.array(np.nan)", "np.array(0, dtype=np.uint8)", "np.array(2.5, dtype=np.float16)"]
PY_NUMBERS = ["0", "1", "-1", "2", "3", "7", "-5", "True", "False", "1.5", "-0.0", "0.5", "np.nan",
              "np.inf", "-np.inf", "1e300", "-2.5", "(1+2j)", "100"]
HUGE_INTS = ["2**40", "2**62", "-2**62", "9223372036854775807", "(-9223372036854775807 - 1)", "2**63",
             "-2**40", "2**32 + 1"]
LISTS = ["[1, 2, 3]", "[1.5, -2.0]", "[[1, 2], [3, 4]]", "[True, False, True]", "[1+2j, 3]",
         "(1, 2)", "[[[1]], [[2]]]", "[0]", "[-1, 0, 1]", "[np.nan, 1.0]", "[2**62, 1]",
         "[np.float32(1), np.int8(2)]", "[np.array(1), np.array(2)]", "[[1, 2], [3, 4], [5, 6]]"]
EMPTY = ["[]", "()", "np.array([])", "np.zeros((0, 3))", "np.zeros((3, 0), dtype=np.int8)",
         "np.array([], dtype=np.bool_)", "[[]]", "np.zeros(0, dtype=np.complex64)"]

AXES = ["0", "1", "-1", "2", "-2", "3", "-3", "5", "-9", "None", "(0,)", "(0, 1)", "(1, 0)", "(0, 0)",
        "()", "(-1, 0)", "[0]", "[0, 1]", "True", "False", "1.0", "np.int8(1)", "np.int64(-1)",
        "np.array(0)", "np.array([0])", "2**62", "(-9223372036854775807 - 1)", "9223372036854775807",
        "'0'", "(0, None)", "(0, 1, 2)", "(2, -1)", "np.uint64(0)", "np.bool_(True)", "(0.0,)"]
SHAPE_ARGS = ["()", "0", "1", "3", "(2, 3)", "(3, 2)", "(0,)", "(2, 0, 3)", "-1", "(-1,)", "(3, -1)",
              "(-1, 2)", "(3, -2)", "(-1, -1)", "2**62", "(2**32, 2**32)", "(2**31, 2**31, 4)",
              "9223372036854775807", "(2**62, 0)", "(0, 2**62)", "[2, 3]", "(2.0, 3)", "(True, 2)",
              "np.int8(3)", "np.array(3)", "np.array([2, 3])", "'3'", "None", "(1,) * 33",
              "(1,) * 65", "(1,) * 64", "(6,)", "(1, 6)", "(6, 1)", "(2, 1, 3)", "(-9223372036854775807 - 1)",
              "(2**40,)", "(2, 2**62)", "[]", "[[2]]", "(np.uint64(2), 3)", "1.5", "np.float64(2)"]
DTYPE_ARGS = ["np." + d if d != "bool" else "np.bool_" for d in DTYPES] + [
    "'f4'", "'int8'", "'<u2'", "'c16'", "'?'", "'f2'", "'>i4'", "int", "float", "complex", "bool",
    "None", "'x'", "np.dtype('int16')", "np.dtype('float32')", "str", "'S3'", "'U2'", "'O'",
    "np.float64(1)", "3", "np.bool", "np.intp", "np.single", "np.double", "np.half"]
ORDERS = ["'C'", "'F'", "'A'", "'K'", "'x'", "None", "'c'", "1", "''"]
BOOLS = ["True", "False", "None", "0", "1", "np.bool_(True)", "np.array(False)", "'yes'", "2",
         "[True]", "1.5"]
# Counts stay small enough that nothing NumPy accepts allocates more than ~32 MiB
# (np.pad of a 4-d array by 20 on every side is 42**4 float64s); the huge ones fail.
INTS_SMALL = ["0", "1", "2", "3", "-1", "-2", "5", "10", "20", "True", "2.5", "np.int8(2)",
              "np.uint64(3)", "np.array(2)", "np.array([2])", "None", "'2'", "[1, 2]", "np.nan",
              "np.float32(2)", "-20"] + ["2**40", "2**62", "9223372036854775807",
                                           "(-9223372036854775807 - 1)", "2**63"]
MODES = ["'raise'", "'wrap'", "'clip'", "'constant'", "'edge'", "'reflect'", "'symmetric'",
         "'linear_ramp'", "'maximum'", "'minimum'", "'mean'", "'median'", "'empty'", "'reduced'",
         "'complete'", "'r'", "'valid'", "'same'", "'full'", "'x'", "None", "1"]
METHODS = ["'linear'", "'lower'", "'higher'", "'nearest'", "'midpoint'", "'inverted_cdf'",
           "'weibull'", "'x'", "None", "0"]
KINDS = ["'stable'", "'quicksort'", "'mergesort'", "'heapsort'", "'introselect'", "'x'", "None", "0",
         "'table'", "'sort'"]
CASTINGS = ["'no'", "'equiv'", "'safe'", "'same_kind'", "'unsafe'", "'x'", "None", "1"]
SIDES = ["'left'", "'right'", "'x'", "None", "'L'", "0"]
SUBSCRIPTS = ["'ij,jk->ik'", "'ii'", "'ii->i'", "'i->'", "'ij->ji'", "'i,i'", "'ij,j'", "'...i,...i'",
              "'x'", "''", "'i,j->ij'", "'ijk'", "'ij,jk,kl->il'", "'->'", "'i->ii'", "'a,b'",
              "'ij->'", "'I'", "'ij,ij->'"]
ORDS = ["None", "1", "2", "-1", "-2", "np.inf", "-np.inf", "'fro'", "'nuc'", "0", "3", "'x'", "0.5"]
UPLOS = ["'L'", "'U'", "'x'", "'l'", "None"]

_OUT_FIXED = ["5", "()", "[]", "'x'", "None", "[np.zeros(3)]", "(np.zeros(3),)",
              "(np.zeros(3), np.zeros(3))", "np.zeros(3)", "np.zeros(())", "np.zeros((2, 3))",
              "np.zeros((3, 2))", "np.zeros(3, dtype=np.int8)", "np.zeros(3, dtype=np.bool_)",
              "np.zeros(3, dtype=np.complex64)", "np.zeros(6)[::2]", "np.broadcast_to(np.zeros(1), (3,))",
              "np.zeros((3, 2)).T", "np.float64(0.0)", "np.array(0.0)", "np.zeros(0)", "(None,)",
              "np.zeros((2, 3), dtype=np.float32)", "np.zeros(1)", "np.zeros((2, 1))", "[5]", "{}",
              "np.zeros((1,) * 4)", "np.zeros((2, 3, 2))", "np.zeros(2, dtype=np.uint64)", "(5,)",
              "np.array(0, dtype=np.int64)", "np.zeros((3, 3))"]

# Names of parameters that take arrays (or array-likes).
ARRAY_PARAMS = {
    "a", "b", "x", "y", "x1", "x2", "arr", "ary", "m", "array", "element", "test_elements", "ar",
    "ar1", "ar2", "condition", "v", "values", "vals", "mask", "ind", "indices", "weights", "xp", "fp",
    "a1", "a2", "other", "p", "A", "B", "object", "prototype", "c", "multi_index", "sorter",
    "to_end", "to_begin", "prepend", "append", "from_", "dst", "src", "v1", "v2", "y1", "y2",
    "arg", "xi", "fill_value", "constant_values", "arrays_and_dtypes", "elem", "ary1", "ary2",
}
SEQ_OF_ARRAYS = {"arrays", "tup", "arys", "keys", "choices", "operands", "args", "xs", "condlist",
                 "choicelist"}


class Target:
    """One thing to call.  params: list of (name, kind, required) with kind one of
    'pos' (positional-only), 'any', 'kw' (keyword-only), 'var' (*args), 'varkw' (**kw)."""

    def __init__(self, name, kind, params, novalue=False, text=None, extra=None):
        self.name = name          # the name reported (np.sum, ndarray.sum, add.reduce, ...)
        self.kind = kind
        self.params = params
        self.novalue = novalue    # compare dtype/shape only, not values
        self.text = text          # callable prefix, e.g. "np.sum"
        self.extra = extra or {}
        self.weight = {"uattr": 0.1, "attr": 0.5, "getitem": 8, "setitem": 8, "setattr": 2}.get(kind, 1.0)

    def __repr__(self):
        return f"Target({self.name})"


# ---------------------------------------------------------------- signatures
def _params_from_signature(sig):
    out = []
    for p in sig.parameters.values():
        if p.name in ("self", "like", "device", "subok", "refcheck"):
            continue          # NumPy plumbing (like=, device=, subok=): not worth the noise
        req = p.default is inspect.Parameter.empty
        k = {inspect.Parameter.POSITIONAL_ONLY: "pos", inspect.Parameter.POSITIONAL_OR_KEYWORD: "any",
             inspect.Parameter.KEYWORD_ONLY: "kw", inspect.Parameter.VAR_POSITIONAL: "var",
             inspect.Parameter.VAR_KEYWORD: "varkw"}[p.kind]
        if k in ("var", "varkw"):
            req = False
        out.append((p.name, k, req))
    return out


def _params_from_doc(text):
    """Parses a NumPy docstring signature line 'a.sum(axis=None, /, *, out=None)'."""
    m = re.search(r"\((.*)\)", text)
    if not m:
        return None
    body = m.group(1)
    body = re.sub(r"<[^>]*>", "None", body)
    body = body.replace("[", "").replace("]", "")
    toks, depth, cur = [], 0, ""
    for ch in body:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            toks.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        toks.append(cur.strip())
    out, kind = [], "any"
    names = [t for t in toks if t not in ("/", "*")]
    if "/" in toks:
        kind = "pos"
    for t in toks:
        if t == "/":
            kind = "any"
            out = [(n, "pos", r) for (n, _, r) in out]
            continue
        if t == "*":
            kind = "kw"
            continue
        if t.startswith("**"):
            out.append((t[2:], "varkw", False))
            continue
        if t.startswith("*"):
            out.append((t[1:], "var", False))
            kind = "kw"
            continue
        name, _, default = t.partition("=")
        name = name.strip()
        if not name.isidentifier() or name in ("subok", "refcheck", "like", "device"):
            continue
        out.append((name, kind, default == ""))
    del names
    return out


def numpy_object(path):
    obj = np
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def function_params(path):
    try:
        return _params_from_signature(inspect.signature(numpy_object(path)))
    except (TypeError, ValueError):
        doc = (numpy_object(path).__doc__ or "").strip().splitlines()
        return _params_from_doc(doc[0]) if doc else None


def method_params(name):
    f = getattr(np.ndarray, name)
    doc = (f.__doc__ or "").strip().splitlines()
    for line in doc[:3]:
        if line.strip().startswith("a." + name + "("):
            return _params_from_doc(line)
    try:
        return _params_from_signature(inspect.signature(f))
    except (TypeError, ValueError):
        return [("args", "var", False)]


# Targets never called: they write files, change global state or are gpy-only.
EXCLUDED = {
    "save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "fromfile", "genfromtxt",
    "set_printoptions", "seterr", "benchmark", "synchronize", "asnumpy", "tofile", "dump", "dumps",
    "setflags", "set_allow_tf32", "get_allow_tf32", "device_count", "get_default_memory_pool",
    "get_default_pinned_memory_pool", "get_current_stream", "get_elapsed_time",
    "get_device_properties", "printoptions", "get_printoptions", "show_config", "info", "source",
    "test", "memmap",
}
# np.random's legacy distributions: NumPy's legacy samplers can loop for
# minutes on hostile parameters (beta with tiny a and b, zipf with a huge a),
# and each such call costs the whole batch timeout. gpy's implementations are
# shared with the Generator methods, which stay fuzzed (NumPy's Generator
# guards those cases); their checks are tests/lang/numpy/random/distributions.gpy.
LEGACY_SAMPLERS = {
    "beta", "binomial", "chisquare", "dirichlet", "f", "gamma", "geometric", "gumbel", "hypergeometric",
    "laplace", "logistic", "lognormal", "logseries", "multinomial", "multivariate_normal", "negative_binomial",
    "noncentral_chisquare", "noncentral_f", "pareto", "poisson", "power", "rayleigh", "standard_cauchy",
    "standard_exponential", "standard_gamma", "standard_t", "triangular", "vonmises", "wald", "weibull", "zipf",
    "random_integers",
}
# Classes and type objects exposed as callables: only the scalar types are called.
# Results NumPy leaves unspecified (uninitialised memory, random streams that differ
# by design, the order around a partition's kth element, the signs of singular and
# eigen-vectors): only their dtype and shape are compared.
NOVALUE_FUNCS = {"empty", "empty_like", "partition", "argpartition", "ndarray.partition",
                 "ndarray.argpartition", "linalg.svd", "linalg.qr", "linalg.eigh", "linalg.lstsq"}
SETATTRS = ["shape", "real", "imag"]
SKIP_ATTRS = {"data", "ctypes", "flags", "base", "flat", "device", "__array_priority__",
              "__array_interface__", "__array_struct__"}


def build_targets(probe):
    """probe: dict from api_fuzz's discovery run: names gpy has, per namespace."""
    targets = []
    for name in sorted(probe["np_funcs"]):
        if name in EXCLUDED:
            continue
        obj = getattr(np, name)
        if isinstance(obj, np.ufunc):
            continue
        if isinstance(obj, type):
            if issubclass(obj, np.generic) and obj is not np.generic and not inspect.isabstract(obj):
                try:
                    obj(0)
                except Exception:
                    continue
                targets.append(Target("np." + name, "func", [("value", "any", False)], text="np." + name))
            continue
        if not callable(obj):
            continue
        params = function_params(name)
        if params is None:
            continue
        nov = name in NOVALUE_FUNCS
        targets.append(Target("np." + name, "func", params, novalue=nov, text="np." + name))
    for sub in ("linalg", "random"):
        for name in sorted(probe.get(sub, [])):
            if name in EXCLUDED or (sub == "random" and name in LEGACY_SAMPLERS):
                continue
            obj = getattr(getattr(np, sub), name, None)
            if obj is None or isinstance(obj, type) or not callable(obj):
                continue
            params = function_params(sub + "." + name)
            if params is None:
                continue
            targets.append(Target(f"np.{sub}.{name}", "func", params,
                                  novalue=(sub == "random" or f"{sub}.{name}" in NOVALUE_FUNCS),
                                  text=f"np.{sub}.{name}"))
    rng = np.random.default_rng(0)
    for name in sorted(probe.get("gen", [])):
        f = getattr(rng, name, None)
        if f is None:
            continue
        try:
            params = _params_from_signature(inspect.signature(f))
        except (TypeError, ValueError):
            continue
        targets.append(Target("Generator." + name, "gen", params, novalue=True,
                              text=f"np.random.default_rng(0).{name}"))
    for name in sorted(probe.get("methods", [])):
        if name in EXCLUDED or name in SKIP_ATTRS:
            continue
        f = getattr(np.ndarray, name, None)
        if f is None:
            continue
        if not callable(f):
            targets.append(Target("ndarray." + name, "attr", [], text=name))
            continue
        if name.startswith("__"):
            continue
        params = method_params(name)
        nov = ("ndarray." + name) in NOVALUE_FUNCS
        targets.append(Target("ndarray." + name, "method", params, novalue=nov, text=name))
    for name in SETATTRS:
        if name in probe.get("methods", []):
            targets.append(Target("ndarray." + name + "=", "setattr", [], text=name))
    for name in sorted(probe.get("ufuncs", [])):
        u = getattr(np, name)
        targets.append(Target(name, "ufunc", [], text="np." + name, extra={"nin": u.nin, "nout": u.nout}))
        for meth in probe.get("ufunc_methods", []):
            if u.nin != 2 and meth != "at":
                continue
            # reduceat (numpy/py/misc_more.py, one reduce per slice) is tested by the
            # program corpus; fuzzed, it repeats reduce's known order gaps for
            # non-reorderable ufuncs (arctan2, hypot) on every slice.
            if meth == "reduceat":
                continue
            targets.append(Target(f"{name}.{meth}", "ufunc." + meth, [], text=f"np.{name}.{meth}",
                                  extra={"nin": u.nin, "nout": u.nout}))
        targets.append(Target(f"{name}.<attrs>", "uattr", [], text="np." + name,
                              extra={"nin": u.nin, "nout": u.nout}))
    targets.append(Target("ndarray.__getitem__", "getitem", []))
    targets.append(Target("ndarray.__setitem__", "setitem", []))
    return targets


# ---------------------------------------------------------------- the generator
def _lit(vals):
    return "[" + ", ".join(vals) + "]"


def _nested(vals, shape):
    if len(shape) == 0:
        return vals[0]
    if len(shape) == 1:
        return _lit(vals)
    step = len(vals) // shape[0] if shape[0] else 0
    return _lit([_nested(vals[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])])


class Case:
    """One generated call: setup lines, the call (assigns r), the names to print after."""

    def __init__(self, index, target, lines, shows):
        self.index = index
        self.target = target
        self.lines = lines
        self.shows = shows

    def source(self):
        """The reproducer: paste into a .gpy file after `import numpy as np`."""
        return "\n".join(self.lines)


class Gen:
    def __init__(self, seed, index, targets):
        self.r = random.Random(f"{seed}:{index}")
        self.index = index
        self.targets = targets
        self.nvars = 0
        self.lines = []
        self.vars = []

    # -- helpers
    def pick(self, seq):
        return self.r.choice(seq)

    def chance(self, p):
        return self.r.random() < p

    def var(self, expr):
        name = f"v{self.nvars}"
        self.nvars += 1
        self.lines.append(f"{name} = {expr}")
        self.vars.append(name)
        return name

    def dtype(self):
        return self.pick(DTYPES)

    def np_dtype(self, d):
        return "np.bool_" if d == "bool" else "np." + d

    # -- arrays
    def array(self, dtype=None, shape=None, views=True):
        d = dtype or self.dtype()
        shape = self.pick(SHAPES) if shape is None else shape
        n = math.prod(shape)
        dt = self.np_dtype(d)
        if n == 0:
            return f"np.zeros({shape!r}, dtype={dt})"
        if views and self.chance(0.25) and len(shape) >= 1:
            v = self.r.randrange(5)
            if v == 0:       # a strided view: x[::2] of a base twice as long
                base = (shape[0] * 2,) + tuple(shape[1:])
                return f"({self.array(d, base, False)})[::2]"
            if v == 1:       # a transposed view
                return f"({self.array(d, tuple(reversed(shape)), False)}).T"
            if v == 2:
                return f"({self.array(d, shape, False)})[::-1]"
            if v == 3:       # a broadcast view (read-only in NumPy)
                one = (1,) + tuple(shape[1:])
                return f"np.broadcast_to({self.array(d, one, False)}, {shape!r})"
            return f"({self.array(d, shape + (2,), False)})[..., 1]"
        if d not in ("bool",) and not d.startswith("complex") and self.chance(0.15):
            base = f"np.arange({n}, dtype={dt})"
            return base if len(shape) == 1 else f"{base}.reshape({shape!r})"
        vals = [self.pick(VALUES[d]) for _ in range(n)]
        return f"np.array({_nested(vals, shape)}, dtype={dt})"

    def arraylike(self):
        """An argument where an array is expected: mostly arrays, sometimes anything."""
        x = self.r.random()
        if x < 0.62:
            a = self.array()
            return self.var(a) if self.chance(0.5) else a
        if x < 0.70:
            return self.pick(LISTS)
        if x < 0.76:
            return self.pick(NP_SCALARS + ZERO_D)
        if x < 0.82:
            return self.pick(PY_NUMBERS)
        if x < 0.86:
            return self.pick(EMPTY)
        if self.vars and x < 0.92:
            v = self.pick(self.vars)
            return self.pick([v, f"{v}[::2]", f"{v}.T", f"{v}[::-1]", f"{v}[..., :1]"])
        return self.hostile()

    def hostile(self):
        pool = self.pick([WRONG_TYPES, NP_SCALARS, ZERO_D, PY_NUMBERS, HUGE_INTS, LISTS, EMPTY,
                          AXES, SHAPE_ARGS, DTYPE_ARGS])
        return self.pick(pool)

    def out_arg(self):
        x = self.r.random()
        if self.vars and x < 0.35:
            v = self.pick(self.vars)
            return self.pick([v, v, f"{v}[::-1]", f"{v}.T", f"{v}[::2]", f"({v},)", f"[{v}]",
                              f"np.zeros_like({v})", f"np.zeros_like({v}, dtype=np.float32)",
                              f"np.zeros_like({v}, dtype=np.int8)", f"np.broadcast_to({v}, {v}.shape)",
                              f"({v}, {v})"])
        if x < 0.9:
            return self.pick(_OUT_FIXED)
        return self.hostile()

    def seq_of_arrays(self):
        x = self.r.random()
        if x < 0.6:
            n = self.pick([1, 2, 2, 3])
            shape = self.pick(SHAPES)
            same = self.chance(0.7)
            items = [self.array(shape=shape if same else None) if self.chance(0.85) else self.arraylike()
                     for _ in range(n)]
            return ("(" + ", ".join(items) + ",)") if self.chance(0.4) else _lit(items)
        if x < 0.75:
            return self.pick(["[]", "()", "[[]]", "[np.zeros(3), 'x']", "[[1, 2], [3]]",
                              "[np.zeros((2, 3)), np.zeros(3)]", "[1, 2]", "[np.float32(1), 2.5]",
                              "[np.zeros(0), np.zeros(0)]"])
        if x < 0.85:
            return self.arraylike()
        return self.hostile()

    # -- values by parameter name
    def value_for(self, name, target):
        if self.chance(0.15):
            return self.hostile()
        t = target.name
        if name == "out":
            return self.out_arg()
        if name in SEQ_OF_ARRAYS:
            return self.seq_of_arrays()
        if name in ("axis", "axis1", "axis2", "source", "destination") or (
                name == "start" and t == "np.rollaxis"):
            return self.pick(AXES)
        if name == "axes":
            if "tensordot" in t:
                return self.pick(["0", "1", "2", "3", "-1", "[[0], [1]]", "([1], [0])", "[[1, 0], [0, 1]]",
                                  "((0,), ())", "[[5], [0]]", "2**62", "'x'"])
            return self.pick(AXES + ["(1, 0, 2)", "[1, 0]", "(0, 1, 1)"])
        if name in ("shape", "newshape", "new_shape", "dims", "size", "reps"):
            if name == "size" and t in ("np.size", "ndarray.size"):
                return self.pick(AXES)
            return self.pick(SHAPE_ARGS)
        if name in ("dtype", "rtype", "type", "arg1", "arg2", "type1", "type2", "to", "from_", "dtype_"):
            if name == "from_" and self.chance(0.5):
                return self.arraylike()
            return self.pick(DTYPE_ARGS)
        if name == "order":
            if t.endswith("sort") or "partition" in t:
                return self.pick(["None", "'x'", "['a']", "0"])
            return self.pick(ORDERS)
        if name in ("keepdims", "endpoint", "retstep", "return_index", "return_inverse", "return_counts",
                    "assume_unique", "invert", "equal_nan", "replace", "full_matrices", "compute_uv",
                    "hermitian", "upper", "overwrite_input", "returned", "sparse", "shuffle", "stable",
                    "copy", "right", "sorted", "reduced", "density", "include_initial"):
            return self.pick(BOOLS)
        if name in ("n", "N", "M", "k", "num", "offset", "decimals", "ddof", "repeats", "shift",
                    "ndmin", "kth", "deg", "bins", "nth", "count", "ord_", "correction", "prec",
                    "precision", "threshold", "indices_or_sections", "index", "obj", "pad_width", "sections"):
            if name in ("shift", "kth", "indices_or_sections", "repeats", "obj", "pad_width") and self.chance(0.35):
                return self.pick(["[]", "[1, 2]", "(1, -1)", "[0, 2**62]", "np.array([1, 2])", "((1, 2),)",
                                  "[(1, 1), (0, 2)]", "[[1, 2], [3, 4]]", "(2,)", "[-1]", "[3, 1]",
                                  "[1.5]", "[True, False]", "slice(0, 2)", "((1, 1), (2, 2), (3, 3))"])
            return self.pick(INTS_SMALL)
        if name in ("mode",):
            return self.pick(MODES)
        if name in ("method", "interpolation"):
            return self.pick(METHODS)
        if name == "kind":
            return self.pick(KINDS)
        if name == "casting":
            return self.pick(CASTINGS)
        if name == "side":
            return self.pick(SIDES)
        if name == "subscripts":
            return self.pick(SUBSCRIPTS)
        if name == "ord":
            return self.pick(ORDS)
        if name == "UPLO":
            return self.pick(UPLOS)
        if name in ("q",):
            return self.pick(["50", "0", "100", "[0, 50, 100]", "101", "-1", "0.5", "np.nan", "[[25, 75]]",
                              "np.array([10.0, 90.0])", "np.float32(30)", "[]", "1e-300"])
        if name in ("indexing",):
            return self.pick(["'xy'", "'ij'", "'x'", "None"])
        if name in ("start", "stop", "step", "low", "high", "loc", "scale", "base", "initial",
                    "value", "a_min", "a_max", "min", "max", "nan", "posinf", "neginf", "rtol", "atol",
                    "rcond", "tol", "lam", "alpha", "seed", "num_samples", "val", "fill_value",
                    "constant_values", "to_end", "to_begin", "prepend", "append", "element"):
            x = self.r.random()
            if x < 0.45:
                return self.pick(PY_NUMBERS)
            if x < 0.65:
                return self.pick(NP_SCALARS + ZERO_D)
            if x < 0.8:
                return self.pick(LISTS + EMPTY)
            if x < 0.9:
                return self.arraylike()
            return self.pick(HUGE_INTS)
        if name == "where":
            if self.chance(0.6):
                return self.array(dtype="bool", shape=self.pick([(), (1,), (3,), (2, 3), (3, 1), (2, 1)]))
            return self.pick(["True", "False", "[True, False, True]", "None", "1", "'x'", "np.bool_(False)"])
        if name == "p" and ("random" in t or t.startswith("Generator")):
            return self.pick(["None", "[0.5, 0.5]", "[0.2, 0.3, 0.5]", "[1.0]", "[0.5, 0.6]", "[-0.5, 1.5]",
                              "np.array([0.25, 0.25, 0.25, 0.25])", "[np.nan, 1]", "[]"])
        if name in ARRAY_PARAMS or name.startswith("arr") or name in ("args", "xi", "arys"):
            return self.arraylike()
        # Anything else: a mix.
        x = self.r.random()
        if x < 0.4:
            return self.arraylike()
        if x < 0.6:
            return self.pick(INTS_SMALL)
        return self.hostile()

    # -- calls
    def arglist(self, target, params):
        """Source text of the argument list for params (with occasional misuse)."""
        pos, kws = [], []
        mode = self.r.random()
        required = [p for p in params if p[2]]
        stop_pos = False
        for name, kind, req in params:
            if kind == "var":
                if not stop_pos:
                    for _ in range(self.pick([0, 1, 1, 2, 2, 3])):
                        pos.append(self.value_for(name, target))
                stop_pos = True
                continue
            if kind == "varkw":
                continue
            use = req or self.chance(0.35)
            if req and mode < 0.06 and self.chance(0.5):
                use = False          # a required argument missing
            if not use:
                if kind in ("pos", "any"):
                    stop_pos = True
                continue
            v = self.value_for(name, target)
            if kind == "pos" or (kind == "any" and not stop_pos and (req or self.chance(0.5))):
                if kind == "any" and stop_pos:
                    kws.append(f"{name}={v}")
                else:
                    pos.append(v)
            elif kind == "pos":
                pos.append(v)
            else:
                stop_pos = True
                kws.append(f"{name}={v}")
        if mode > 0.95:
            pos.append(self.hostile())      # one positional too many
        elif mode > 0.92:
            kws.append(f"bogus_kw={self.pick(PY_NUMBERS)}")
        elif mode > 0.90 and required:
            name = required[0][0]
            if required[0][1] != "pos" and pos:
                kws.append(f"{name}={self.value_for(name, target)}")   # given twice
        del required
        return ", ".join(pos + kws)

    def case(self):
        t = self.r.choices(self.targets, weights=[x.weight for x in self.targets])[0]
        self._build(t)
        shows = ["r"] + list(self.vars)
        return Case(self.index, t, self.lines, shows)

    def _ufunc_operands(self, n):
        ops = []
        for _ in range(n):
            x = self.r.random()
            if x < 0.7:
                a = self.array()
                ops.append(self.var(a) if self.chance(0.5) else a)
            elif x < 0.85:
                ops.append(self.pick(PY_NUMBERS + NP_SCALARS + ZERO_D))
            else:
                ops.append(self.arraylike())
        return ops

    def _ufunc_kwargs(self, nout, allow_where=True):
        kws = []
        if self.chance(0.3):
            if nout > 1 and self.chance(0.5):
                a = self.out_arg()
                kws.append(f"out=({a}, {self.out_arg()})" if self.chance(0.7) else f"out={a}")
            else:
                kws.append(f"out={self.out_arg()}")
        if allow_where and self.chance(0.15):
            kws.append(f"where={self.value_for('where', Target('u', 'u', []))}")
        if self.chance(0.2):
            kws.append(f"dtype={self.pick(DTYPE_ARGS)}")
        if self.chance(0.1):
            kws.append(f"casting={self.pick(CASTINGS)}")
        if self.chance(0.05):
            kws.append(f"order={self.pick(ORDERS)}")
        if self.chance(0.05):
            kws.append("signature=" + self.pick(["None", "'ff->f'", "'dd->d'", "'x'", "(np.float64, None, None)"]))
        return kws

    def _build(self, t):
        k = t.kind
        if k == "func" or k == "gen":
            if t.params and t.params[0][0] == "value":   # a scalar type: np.float32(x)
                args = self.pick(PY_NUMBERS + NP_SCALARS + ZERO_D + LISTS + HUGE_INTS + WRONG_TYPES[:12]
                                 + [self.array()])
                self.lines.append(f"r = {t.text}({args})")
                return
            self.lines.append(f"r = {t.text}({self.arglist(t, t.params)})")
            return
        if k in ("method", "attr", "setattr", "getitem", "setitem"):
            x = self.r.random()
            if x < 0.8:
                recv = self.var(self.array())
            elif x < 0.9:
                recv = self.var(self.pick(NP_SCALARS + ZERO_D))
            else:
                base = self.var(self.array())
                recv = self.pick([f"{base}.T", f"{base}[::2]", f"{base}[::-1]", f"{base}[..., 0]"])
            if k == "method":
                self.lines.append(f"r = {recv}.{t.text}({self.arglist(t, t.params)})")
            elif k == "attr":
                self.lines.append(f"r = {recv}.{t.text}")
            elif k == "setattr":
                v = self.pick(SHAPE_ARGS) if t.text == "shape" else self.value_for("value", t)
                self.lines.append(f"{recv}.{t.text} = {v}")
                self.lines.append(f"r = {recv}")
            else:
                idx = self.index_expr(recv)
                if k == "getitem":
                    self.lines.append(f"r = {recv}[{idx}]")
                else:
                    self.lines.append(f"{recv}[{idx}] = {self.value_for('value', t)}")
                    self.lines.append(f"r = {recv}")
            return
        nin, nout = t.extra["nin"], t.extra["nout"]
        if k == "ufunc":
            n = nin
            if self.chance(0.05):
                n = self.pick([0, nin - 1, nin + 1])
            args = self._ufunc_operands(max(n, 0))
            if self.chance(0.08):
                args.append(self.out_arg())          # out given positionally
            kws = self._ufunc_kwargs(nout)
            self.lines.append(f"r = {t.text}({', '.join(args + kws)})")
            return
        if k == "uattr":
            attr = self.pick(["nin", "nout", "nargs", "identity", "__name__", "ntypes"])
            self.lines.append(f"r = {t.text}.{attr}")
            return
        meth = k.split(".", 1)[1]
        if meth == "reduce" or meth == "accumulate":
            args = self._ufunc_operands(1)
            kws = []
            for name, p in (("axis", 0.5), ("dtype", 0.2), ("out", 0.25), ("keepdims", 0.2),
                            ("initial", 0.2), ("where", 0.1)):
                if meth == "accumulate" and name in ("keepdims", "initial", "where"):
                    continue
                if self.chance(p):
                    kws.append(f"{name}={self.value_for(name, t)}")
            if self.chance(0.05):
                args.append(self.hostile())
            self.lines.append(f"r = {t.text}({', '.join(args + kws)})")
            return
        if meth == "outer":
            args = self._ufunc_operands(2 if not self.chance(0.05) else self.pick([1, 3]))
            kws = self._ufunc_kwargs(nout)
            self.lines.append(f"r = {t.text}({', '.join(args + kws)})")
            return
        if meth == "at":
            a = self.var(self.array())
            idx = self.pick(["0", "[0, 0, 1]", "[0, 1]", "([0, 1],)", "np.array([0, 0, -1])", "[]",
                             "[5]", "[-1]", "(0, 0)", "np.array([True])", "[1.5]", "slice(None)",
                             "..."] + ["2**62", "[[0, 1], [1, 0]]", "'x'", "None"])
            args = [a, idx]
            if nin == 2:
                args.append(self.pick(["1", "2.5", "np.array([1, 2])", "[1, 2, 3]", "np.float32(1)", "'x'",
                                       "np.array([[1], [2]])", "None", "True", "np.nan", "1j"]
                                      + [self.array()]))
            elif self.chance(0.1):
                args.append("1")
            self.lines.append(f"r = {t.text}({', '.join(args)})")
            return
        if meth == "reduceat":
            args = self._ufunc_operands(1)
            args.append(self.pick(["[0, 1]", "[0]", "[]", "[5]", "[-1]", "np.array([0, 2])", "[1, 0]"]))
            self.lines.append(f"r = {t.text}({', '.join(args)})")
            return
        raise AssertionError(k)

    def index_expr(self, recv):
        one = ["0", "-1", "1", "5", "-9", "2**62", "(-9223372036854775807 - 1)", "True", "False", "None",
               "...", "1:", "::-1", "::0", "2**62:", ":-2**62", "::2**62", "np.int8(1)", "np.uint64(0)",
               "np.array(0)", "np.array(True)", "[0, 1]", "[True, False]", "[]", "np.array([], dtype=np.int64)",
               "np.array([1.5])", "'a'", "[[0]]", "np.array([0, -1])", "1.0", "np.bool_(True)",
               "[-1, 5]", "np.array([[True]])", "(0,)", "()", "[0, [1]]", f"{recv} > 0", f"{recv} != {recv}",
               "np.zeros(3, dtype=np.bool_)", "slice(None)", "np.array([0], dtype=np.uint8)",
               "np.array([2**62])", "{}", "[None]", "np.float32(0)", "np.array(1.0)"]
        n = self.pick([1, 1, 1, 2, 2, 3, 5])
        parts = [self.pick(one) for _ in range(n)]
        return ", ".join(parts)


# The catalogue entries checked by api_fuzz's self-check: each must evaluate
# the same way (value or exception type) under gpy and NumPy, or it is dropped.
def catalogue_entries():
    seen, out = set(), []
    for pool in (WRONG_TYPES, NP_SCALARS, ZERO_D, PY_NUMBERS, HUGE_INTS, LISTS, EMPTY, AXES, SHAPE_ARGS,
                 DTYPE_ARGS, ORDERS, BOOLS, INTS_SMALL, _OUT_FIXED):
        for e in pool:
            if e not in seen:
                seen.add(e)
                out.append(e)
    return out


def drop_entries(bad):
    """Removes catalogue entries that the self-check found gpy cannot even evaluate."""
    for pool in (WRONG_TYPES, NP_SCALARS, ZERO_D, PY_NUMBERS, HUGE_INTS, LISTS, EMPTY, AXES, SHAPE_ARGS,
                 DTYPE_ARGS, ORDERS, BOOLS, INTS_SMALL, _OUT_FIXED):
        pool[:] = [e for e in pool if e not in bad]
