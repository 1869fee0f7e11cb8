#!/usr/bin/env python3
"""Writes tests/unit/array_print_cases.inc: what NumPy 2 prints for arrays,
scalars and np.format_float_{positional,scientific}, for
tests/unit/test_array_print.cpp (numpy/array_print.{h,cpp}).

Run from anywhere with python3 and NumPy 2.x:
    python3 tests/unit/gen_array_print_cases.py
Everything is drawn from a fixed seed, so the output only changes when the
case list or NumPy's behaviour changes.

An array case stores the dtype, shape, byte strides, the offset of element 0
inside a raw little-endian buffer (hex), the print options, and NumPy's
str() and repr() of that view.
"""
import os
import sys
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "array_print_cases.inc")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", "float32", "float64", "complex64", "complex128"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]

DEFAULT_OPTS = dict(precision=8, threshold=1000, edgeitems=3, linewidth=75,
                    suppress=False, nanstr="nan", infstr="inf", sign="-",
                    floatmode="maxprec")

rng = np.random.default_rng(20240611)
warnings.simplefilter("ignore")  # overflow to inf in float16 casts is wanted


# ---------------------------------------------------------------- values

def float_values(flavor, n, dtype):
    """n float64 values of one flavour (cast to dtype by the caller)."""
    r = rng
    if flavor == "ints":
        return r.integers(-20, 20, n).astype(float)
    if flavor == "normal":
        return r.normal(0, 3, n)
    if flavor == "fractions":
        return r.integers(-8, 8, n) / 4.0
    if flavor == "mixed":  # several decades: exponent form
        return r.normal(0, 1, n) * 10.0 ** r.integers(-6, 7, n)
    if flavor == "tiny":
        return r.random(n) * 10.0 ** r.integers(-12, -4, n)
    if flavor == "huge":
        lim = {"float16": 4, "float32": 30, "float64": 200}[dtype]
        return r.normal(0, 1, n) * 10.0 ** r.integers(3, lim, n)
    if flavor == "special":
        v = r.normal(0, 10, n)
        pool = [np.nan, np.inf, -np.inf, -0.0, 0.0, -np.nan]
        for i in range(n):
            if r.random() < 0.45:
                v[i] = pool[r.integers(0, len(pool))]
        return v
    if flavor == "allspecial":
        pool = [np.nan, np.inf, -np.inf]
        return np.array([pool[r.integers(0, 3)] for _ in range(n)])
    if flavor == "zeros":
        return np.array([0.0 if r.random() < 0.5 else -0.0 for _ in range(n)])
    if flavor == "uniform":
        return r.random(n)
    if flavor == "prec":  # long shortest reprs and values near rounding edges
        base = np.array([1 / 3, 2 / 3, 0.1, 0.123456789012, 9.99999999, 0.999999995,
                         1.000000005, 12345.6789, 0.5e-3, 0.15, 2.675, 1e-4])
        return base[r.integers(0, len(base), n)] * r.choice([1, -1], n)
    raise ValueError(flavor)


def make_values(dtype, n, flavor):
    dt = np.dtype(dtype)
    if dtype == "bool":
        return r_bool(n)
    if dtype in INTS:
        info = np.iinfo(dt)
        if flavor == "small":
            return rng.integers(max(info.min, -50), min(info.max, 50), n, endpoint=True).astype(dt)
        if flavor == "extremes":
            pool = [info.min, info.max, 0, 1, info.max - 1, info.min + 1 if info.min else 2]
            return np.array([pool[rng.integers(0, len(pool))] for _ in range(n)], dtype=dt)
        return rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
    if dtype in FLOATS:
        return float_values(flavor, n, dtype).astype(dt)
    # complex: independent flavours for the parts
    fl_re, fl_im = flavor if isinstance(flavor, tuple) else (flavor, flavor)
    part = "float32" if dtype == "complex64" else "float64"
    re = float_values(fl_re, n, part)
    im = float_values(fl_im, n, part)
    return (re + 1j * im).astype(dt)


def r_bool(n):
    return rng.random(n) < 0.5


def array_of(dtype, shape, flavor):
    n = int(np.prod(shape)) if len(shape) else 1
    v = make_values(dtype, n, flavor)
    return np.asarray(v).reshape(shape)


# ---------------------------------------------------------------- C++ text

def c_str(s):
    """A C++ string literal; non-ASCII text becomes UTF-8 octal escapes."""
    out = []
    for ch in s:
        o = ord(ch)
        if o >= 127:
            out.append("".join("\\%03o" % b for b in ch.encode("utf-8")))
        elif ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif 32 <= o:
            out.append(ch)
        else:
            raise ValueError(f"control character in text: {s!r}")
    return '"' + "".join(out) + '"'


def c_hex(b):
    h = b.hex()
    if len(h) <= 96:
        return '"' + h + '"'
    parts = ['"' + h[i:i + 96] + '"' for i in range(0, len(h), 96)]
    return "\n        ".join(parts)


def c_opts(o):
    return ("{%d, %d, %d, %d, %s, %s, %s, '%s', %s}"
            % (o["precision"], o["threshold"], o["edgeitems"], o["linewidth"],
               "true" if o["suppress"] else "false", c_str(o["nanstr"]), c_str(o["infstr"]),
               o["sign"], c_str(o["floatmode"])))


def c_ints(xs):
    return "{" + ", ".join(str(int(x)) for x in xs) + "}"


# ---------------------------------------------------------------- cases

array_cases = []


def add(label, view, base, opts=None):
    """view must be a view into the contiguous array base (or base itself)."""
    o = dict(DEFAULT_OPTS)
    o.update(opts or {})
    assert base.flags.c_contiguous
    offset = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    raw = base.tobytes()
    assert 0 <= offset <= max(len(raw) - view.itemsize, 0) or view.size == 0
    with np.printoptions(**o):
        s = str(view)
        r = repr(view)
    array_cases.append((label, view.dtype.name, view.shape, view.strides, offset, raw, o, s, r))


def add_plain(label, a, opts=None):
    a = np.ascontiguousarray(a) if a.ndim else np.array(a)
    add(label, a, a, opts)


SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4), (2, 1, 3, 2), (0, 3)]
FLOAT_FLAVORS = ["ints", "normal", "fractions", "mixed", "tiny", "huge", "special", "prec"]
INT_FLAVORS = ["small", "full", "extremes"]
COMPLEX_FLAVORS = ["ints", "normal", ("normal", "ints"), "mixed", ("special", "normal"), ("fractions", "tiny")]


def gen_basic():
    for dt in DTYPES:
        if dt == "bool":
            flavors = [None]
        elif dt in INTS:
            flavors = INT_FLAVORS
        elif dt in FLOATS:
            flavors = FLOAT_FLAVORS
        else:
            flavors = COMPLEX_FLAVORS
        for shape in SHAPES:
            for fl in flavors:
                if (0 in shape) and fl not in (None, "small", "ints"):
                    continue
                a = array_of(dt, shape, fl)
                add_plain(f"{dt} {shape} {fl}", a)


def gen_special_floats():
    for dt in FLOATS + COMPLEX:
        for fl in ["allspecial", "zeros", "uniform"]:
            for shape in [(), (4,), (2, 3)]:
                add_plain(f"{dt} {shape} {fl}", array_of(dt, shape, fl))
    # hand-picked
    picks = [
        ("float64", [1.0, 2.0, 3.0]), ("float64", [0.5, 1.25]), ("float64", [1e-5, 1.0]),
        ("float64", [1e8, 1.0]), ("float64", [99999999.0, 1.0]), ("float64", [1000.0, 1.0]),
        ("float64", [1000.1, 1.0]), ("float64", [-0.0, 0.0]), ("float64", [np.nan]),
        ("float64", [np.inf, -np.inf, np.nan]), ("float64", [1e-300, 1e300]),
        ("float64", [5e-324, 1.0]), ("float64", [1.7976931348623157e308]),
        ("float64", [0.1, 0.2, 0.30000000000000004]), ("float64", [123456789.123456789]),
        ("float32", [0.1, 0.2, 0.3]), ("float32", [1e-4, 2e-4]), ("float32", [1e6, 1.0]),
        ("float32", [999999.0, 1.0]), ("float32", [16777217.0]), ("float32", [3.4028235e38, -1.0]),
        ("float32", [1e-45, 1.0]), ("float16", [65504.0, -65504.0]), ("float16", [1000.0]),
        ("float16", [999.5, 0.1]), ("float16", [6e-8, 1.0]), ("float16", [1e-4, 2e-4]),
        ("float16", [0.1, 0.2, 0.3, 0.333]), ("float16", [1024.0, 2048.0]),
        ("float64", [10.1, 1.12345678]), ("float32", [10.1, 1.12345678]),
        ("complex128", [1 + 2j, -3.5 - 0.25j]), ("complex128", [complex(0, 1e-7), 1]),
        ("complex128", [complex(np.nan, np.inf), complex(-np.inf, -np.nan)]),
        ("complex128", [complex(-0.0, -0.0), 0j]), ("complex64", [1e20 + 1e-20j, 1j]),
        ("complex64", [complex(np.inf, 0), complex(0, -np.inf)]),
    ]
    for dt, vals in picks:
        a = np.array(vals, dtype=dt)
        add_plain(f"{dt} pick {vals}", a)
        add_plain(f"{dt} pick0d {vals[0]}", np.array(vals[0], dtype=dt))
        add_plain(f"{dt} pick fixed {vals}", a, dict(floatmode="fixed"))


OPTION_SETS = [
    dict(precision=3),
    dict(suppress=True),
    dict(threshold=10),
    dict(linewidth=40),
    dict(floatmode="fixed"),
    dict(floatmode="unique"),
    dict(floatmode="maxprec_equal"),
    dict(floatmode="fixed", precision=3),
    dict(floatmode="maxprec_equal", precision=4),
    dict(sign="+"),
    dict(sign=" "),
    dict(nanstr="NaN", infstr="Infinity"),
    dict(edgeitems=1, threshold=5),
    dict(edgeitems=0, threshold=3),
    dict(nanstr="\u221e\u221e", infstr="\u221e", linewidth=30),
    dict(precision=0),
    dict(suppress=True, precision=3),
    dict(precision=12, floatmode="unique"),
]


def gen_options():
    for dt in DTYPES:
        for i, opts in enumerate(OPTION_SETS):
            if dt == "bool":
                fl = None
            elif dt in INTS:
                fl = ["small", "full", "extremes"][i % 3]
            elif dt in FLOATS:
                fl = ["normal", "mixed", "special", "tiny", "prec", "fractions"][i % 6]
            else:
                fl = [("normal", "normal"), ("mixed", "ints"), ("special", "fractions"), ("tiny", "normal")][i % 4]
            shape = [(5,), (3, 4), (2, 3, 4), (12,)][i % 4]
            add_plain(f"{dt} {shape} {fl} {opts}", array_of(dt, shape, fl), opts)


def gen_views():
    for dt in DTYPES:
        fl = None if dt == "bool" else ("full" if dt in INTS else ("normal" if dt in FLOATS else "normal"))
        base = array_of(dt, (3, 4), fl)
        add(f"{dt} transposed", base.T, base)
        base = array_of(dt, (7,), fl)
        add(f"{dt} reversed", base[::-1], base)
        base = array_of(dt, (9,), fl)
        add(f"{dt} step2", base[1::2], base)
        base = array_of(dt, (4,), fl)
        add(f"{dt} broadcast rows", np.broadcast_to(base, (3, 4)), base)
        base = array_of(dt, (3, 1), fl)
        add(f"{dt} broadcast cols", np.broadcast_to(base, (3, 5)), base)
        base = array_of(dt, (4, 5), fl)
        add(f"{dt} rev2d", base[::-1, ::-2], base)
        base = array_of(dt, (2, 3, 4), fl)
        add(f"{dt} swap3d", base.transpose(2, 0, 1), base)
        base = array_of(dt, (), fl)
        add(f"{dt} broadcast scalar", np.broadcast_to(base, (2, 3)), base)


def gen_summaries():
    for dt in DTYPES:
        fl = None if dt == "bool" else ("full" if dt in INTS else "normal")
        add_plain(f"{dt} 1d 2000", array_of(dt, (2000,), fl))
        add_plain(f"{dt} 2d 40x30", array_of(dt, (40, 30), fl))
        add_plain(f"{dt} 3d 11x10x10", array_of(dt, (11, 10, 10), fl))
        add_plain(f"{dt} 1d 1001 edge2", array_of(dt, (1001,), fl), dict(edgeitems=2))
        add_plain(f"{dt} 2d thr10", array_of(dt, (5, 8), fl), dict(threshold=10))
        add_plain(f"{dt} 2d (2,50) thr10", array_of(dt, (2, 50), fl), dict(threshold=10))
    # formatting decided on the edge items only
    a = np.arange(2000.0)
    a[1000] = 1e-9  # hidden by summarisation
    add_plain("float64 arange summary hides tiny", a)
    add_plain("float64 arange 1001", np.arange(1001.0))
    add_plain("int64 arange 2000", np.arange(2000))
    b = np.arange(3000.0).reshape(1000, 3)
    add(f"float64 reversed summary", b[::-1], b)
    add(f"float64 transposed summary", b.T, b)
    add_plain("float64 2d summary thr3 e1", np.arange(24.0).reshape(4, 6), dict(threshold=3, edgeitems=1))
    add_plain("float64 4d summary", np.arange(7.0 ** 4).reshape(7, 7, 7, 7), dict(threshold=100, edgeitems=2))
    add_plain("int8 0d thr0", np.array(5, dtype=np.int8), dict(threshold=0))
    add_plain("float64 0d thr0", np.array(5.0), dict(threshold=0))


def gen_wraps():
    for dt in DTYPES:
        fl = None if dt == "bool" else ("extremes" if dt in INTS else ("mixed" if dt in FLOATS else ("normal", "mixed")))
        for lw in (75, 40, 20):
            add_plain(f"{dt} wrap 1d lw{lw}", array_of(dt, (30,), fl), dict(linewidth=lw))
        add_plain(f"{dt} wrap 2d", array_of(dt, (3, 25), fl))
        add_plain(f"{dt} wrap 3d lw40", array_of(dt, (2, 2, 9), fl), dict(linewidth=40))
        add_plain(f"{dt} wrap summary lw50", array_of(dt, (1500,), fl), dict(linewidth=50))
    # repr extras pushed to a new line
    for n in range(5, 10):
        add_plain(f"float32 extras wrap {n}", np.arange(n, dtype=np.float32) + 0.5)
        add_plain(f"int8 extras wrap {n}", (np.arange(n) * 23 - 100).astype(np.int8))
    add_plain("float32 long last line", np.linspace(0, 1, 11).astype(np.float32))
    add_plain("uint8 long last line", np.arange(19, dtype=np.uint8) * 13)
    add_plain("float64 lw tiny", np.arange(6.0), dict(linewidth=5))
    add_plain("int16 lw tiny 2d", np.arange(12, dtype=np.int16).reshape(3, 4), dict(linewidth=3))
    add_plain("float32 empty 2d summary", np.zeros((0, 2000), dtype=np.float32))
    add_plain("complex128 lw 30", np.arange(8) * (1.5 - 2.25j), dict(linewidth=30))


def gen_empty():
    for dt in DTYPES:
        for shape in [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0)]:
            add_plain(f"{dt} empty {shape}", np.zeros(shape, dtype=dt))


# ---------------------------------------------------------------- scalars

scalar_cases = []


def add_scalar(dt, v):
    x = np.array([v]).astype(dt)
    raw = x.tobytes()
    s = x[0]
    scalar_cases.append((dt, raw, str(s), repr(s)))


def gen_scalars():
    for dt in DTYPES:
        if dt == "bool":
            vals = [True, False]
        elif dt in INTS:
            info = np.iinfo(dt)
            vals = [0, 1, info.max, info.min, 42] + list(rng.integers(info.min, info.max, 10, endpoint=True, dtype=dt))
            if info.min < 0:
                vals.append(-7)
        elif dt in FLOATS:
            vals = [0.0, -0.0, 1.0, -1.5, 0.1, 1 / 3, 1e-4, 9.99e-5, 1e-5, 999.0, 1000.0, 65504.0,
                    1e6, 999999.0, 1e15, 1e16, 1.5e16, 123456789.0, np.nan, -np.nan, np.inf, -np.inf,
                    5e-324, 1e-45, 6e-8, 3.4028235e38, 1.7976931348623157e308]
            vals += list(rng.normal(0, 1, 8) * 10.0 ** rng.integers(-10, 20, 8))
        else:
            vals = [0j, 1 + 2j, -1 - 2j, 2j, -2j, complex(-0.0, 2), complex(1.5, -0.0), 1.5 + 0j,
                    complex(np.nan, 1), complex(1, np.nan), complex(np.inf, -np.inf), complex(0, np.inf),
                    complex(-np.inf, np.nan), complex(0, np.nan), 1e20 + 1e-7j, complex(1e-5, 1e16),
                    complex(0.1, 0.2), complex(1 / 3, -2 / 3)]
            vals += list(rng.normal(0, 1, 6) * 10.0 ** rng.integers(-8, 18, 6) +
                         1j * rng.normal(0, 1, 6) * 10.0 ** rng.integers(-8, 18, 6))
        for v in vals:
            add_scalar(dt, v)


# ---------------------------------------------------------------- Dragon4

float_cases = []


def gen_format_float(n=400):
    for _ in range(n):
        dt = FLOATS[rng.integers(0, 3)]
        t = np.dtype(dt).type
        r = rng.random()
        if r < 0.35:
            u = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}[dt]
            bits = rng.integers(0, np.iinfo(u).max, dtype=u, endpoint=True)
            x = np.array([bits], dtype=u).view(dt)[0]
        elif r < 0.7:
            x = t(rng.normal() * 10.0 ** rng.integers(-12, 12))
        else:
            x = t(rng.choice([0.0, -0.0, 1.0, 0.5, 0.1, 0.3, 1e-4, 1e16, 123456789.0, 0.99999999,
                              9.5, 0.05, 0.15, 2.5, 1e-8, 5e-9, 65504, 6e-8, np.inf, np.nan]))
        sci = rng.random() < 0.5
        unique = bool(rng.random() < 0.6)
        prec = int(rng.integers(-1, 12)) if unique else int(rng.integers(0, 12))
        frac = bool(rng.random() < 0.7)
        if not frac and prec == 0:
            prec = 1
        trim = "k.0-"[rng.integers(0, 4)]
        sign = bool(rng.random() < 0.2)
        pl = int(rng.integers(-1, 6))
        pr = int(rng.integers(-1, 12))
        md = int(rng.integers(-1, 12))
        if md > 0 and prec > 0 and md > prec:
            md = prec
        none = lambda v: None if v < 0 else v  # noqa: E731
        if sci:
            e = np.format_float_scientific(x, precision=none(prec), unique=unique, trim=trim, sign=sign,
                                           pad_left=none(pl), exp_digits=none(pr), min_digits=none(md))
        else:
            e = np.format_float_positional(x, precision=none(prec), unique=unique, fractional=frac,
                                           trim=trim, sign=sign, pad_left=none(pl), pad_right=none(pr),
                                           min_digits=none(md))
        raw = np.array([x], dtype=dt).tobytes()
        float_cases.append(("S" if sci else "P", dt, raw, prec, unique, frac, trim, sign, pl, pr, md, e))


# ---------------------------------------------------------------- main

def main():
    gen_basic()
    gen_special_floats()
    gen_options()
    gen_views()
    gen_summaries()
    gen_wraps()
    gen_empty()
    gen_scalars()
    gen_format_float()

    out = []
    w = out.append
    w(f"// Generated by tests/unit/gen_array_print_cases.py from NumPy {np.__version__}; do not edit.")
    w(f"// {len(array_cases)} array cases, {len(scalar_cases)} scalar cases, {len(float_cases)} format_float cases.")
    w("")
    w("static const ArrayPrintCase kArrayPrintCases[] = {")
    for label, dt, shape, strides, offset, raw, o, s, r in array_cases:
        assert len(shape) <= 4
        w(f"    {{{c_str(label)}, {c_str(dt)}, {len(shape)}, {c_ints(shape)}, {c_ints(strides)}, {offset},")
        w(f"        {c_hex(raw)},")
        w(f"        {c_opts(o)},")
        w(f"        {c_str(s)},")
        w(f"        {c_str(r)}}},")
    w("};")
    w("")
    w("static const ScalarPrintCase kScalarPrintCases[] = {")
    for dt, raw, s, r in scalar_cases:
        w(f"    {{{c_str(dt)}, {c_hex(raw)}, {c_str(s)}, {c_str(r)}}},")
    w("};")
    w("")
    w("static const FormatFloatCase kFormatFloatCases[] = {")
    for kind, dt, raw, prec, unique, frac, trim, sign, pl, pr, md, e in float_cases:
        w(f"    {{'{kind}', {c_str(dt)}, {c_hex(raw)}, {prec}, {str(unique).lower()}, {str(frac).lower()}, "
          f"'{trim}', {str(sign).lower()}, {pl}, {pr}, {md}, {c_str(e)}}},")
    w("};")
    with open(OUT, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {OUT}: {len(array_cases)} array, {len(scalar_cases)} scalar, "
          f"{len(float_cases)} format_float cases", file=sys.stderr)


if __name__ == "__main__":
    main()
