#!/usr/bin/env python3
"""Generates, from the running NumPy 2.x (the oracle for numpy/promote.cpp):

    python3 tests/unit/gen_promote_cases.py > tests/unit/promote_cases.inc
    python3 tests/unit/gen_promote_cases.py --table > numpy/ufunc_table.inc

The default output holds expected answers for promote_types, can_cast,
result_type (with NEP 50 weak Python scalars) and ufunc type resolution
(resolve_ufunc), each ufunc case recording the loop NumPy picks or the
exception it raises (kind and exact message).

--table prints the ufunc loop table used by numpy/ufunc_table.cpp: every
ufunc's ordered loop list (`ufunc.types`) restricted to gpy's 14 dtypes, with
the legacy type resolver NumPy's generate_umath.py names for that ufunc (that
part is not visible from Python, so it is written down in RESOLVERS below).
"""
import random
import sys
import warnings

import numpy as np

assert np.__version__.split(".")[0] == "2", "expected values must come from NumPy 2.x"

# gpy's dtypes, in DType enum order (runtime/dtype.h).
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "uint64", "float16", "float32", "float64", "complex64", "complex128"]
ENUM = {"bool": "Bool", "int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64",
        "uint8": "UInt8", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64",
        "float16": "Float16", "float32": "Float32", "float64": "Float64",
        "complex64": "Complex64", "complex128": "Complex128"}
# NumPy type chars -> our dtype; 'q'/'Q' (longlong) are int64/uint64 on LP64 Linux.
CHAR = {"?": "bool", "b": "int8", "h": "int16", "i": "int32", "l": "int64", "q": "int64",
        "B": "uint8", "H": "uint16", "I": "uint32", "L": "uint64", "Q": "uint64",
        "e": "float16", "f": "float32", "d": "float64", "F": "complex64", "D": "complex128"}
OUR_CHAR = {name: np.dtype(name).char for name in DTYPES}  # float64 -> 'd', int64 -> 'l'

UFUNCS = ("add subtract multiply divide true_divide floor_divide remainder mod fmod power "
          "float_power negative positive absolute fabs sign reciprocal square sqrt cbrt exp exp2 "
          "expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh "
          "arcsinh arccosh arctanh hypot floor ceil trunc rint maximum minimum fmax fmin isnan "
          "isinf isfinite signbit copysign logical_and logical_or logical_not logical_xor "
          "bitwise_and bitwise_or bitwise_xor invert left_shift right_shift deg2rad rad2deg "
          "degrees radians heaviside greater greater_equal less less_equal equal not_equal "
          "divmod modf conjugate ldexp frexp gcd lcm logaddexp logaddexp2 nextafter spacing bitwise_count").split()

# The legacy type resolver of each ufunc (numpy/_core/code_generators/
# generate_umath.py; the datetime branches are irrelevant here). Ufuncs not
# listed use PyUFunc_DefaultTypeResolver (the linear loop search).
RESOLVERS = {
    "add": "SimpleUniform",            # PyUFunc_AdditionTypeResolver
    "multiply": "SimpleUniform",       # PyUFunc_MultiplicationTypeResolver
    "subtract": "Subtraction",         # PyUFunc_SubtractionTypeResolver
    "divide": "TrueDivision",          # PyUFunc_TrueDivisionTypeResolver
    "negative": "Negative",            # PyUFunc_NegativeTypeResolver
    "positive": "SimpleUniform",
    "sign": "SimpleUniform",
    "absolute": "Absolute",            # PyUFunc_AbsoluteTypeResolver
    "maximum": "SimpleUniform", "minimum": "SimpleUniform",
    "fmax": "SimpleUniform", "fmin": "SimpleUniform",
    "greater": "Comparison", "greater_equal": "Comparison", "less": "Comparison",
    "less_equal": "Comparison", "equal": "Comparison", "not_equal": "Comparison",
    # SimpleBinaryComparison resolver, plus the logical promoter of dispatching.c
    "logical_and": "Logical", "logical_or": "Logical", "logical_xor": "Logical",
    # No legacy resolver at all (loops added the new way): the inputs' common
    # DType's loop, else NumPy's "did not contain a loop" UFuncTypeError.
    "gcd": "SimpleUniform", "lcm": "SimpleUniform",
}

WEAK_INTS = [0, 1, -1, 127, 128, 255, 256, 300, -129, 2**31, 2**63 - 1]
WEAK_FLOATS = [2.5, 1e300]
WEAK_BOOLS = [True]
WEAK_COMPLEX = [1j, 2.5 - 1e300j]


def ufunc_loops(u):
    """The ufunc's loops restricted to our dtypes, chars normalised, first
    occurrence kept (duplicates can never be chosen by a first-match search)."""
    out = []
    for sig in u.types:
        ins, outs = sig.split("->")
        chars = ins + outs
        if any(c not in CHAR for c in chars):
            continue
        norm = "".join(OUR_CHAR[CHAR[c]] for c in ins) + "->" + "".join(OUR_CHAR[CHAR[c]] for c in outs)
        if norm not in out:
            out.append(norm)
    return out


def cxx_str(s):
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.append("\\%03o" % ord(ch))
    return '"' + "".join(out) + '"sv'


def emit_table():
    print("// Generated by tests/unit/gen_promote_cases.py --table from NumPy %s; do not edit." % np.__version__)
    print("// Each ufunc's ordered loop list (numpy.<ufunc>.types) restricted to gpy's dtypes")
    print("// ('q'/'Q' folded into int64/uint64), and its legacy type resolver.")
    print("// Included by numpy/ufunc_table.cpp.")
    print()
    loops = []
    entries = []
    for name in UFUNCS:
        u = getattr(np, name)
        first = len(loops)
        ls = ufunc_loops(u)
        loops.extend(ls)
        resolver = RESOLVERS.get(u.__name__, "Default")
        entries.append((name, u.__name__, u.nin, u.nout, resolver, first, len(ls)))
    print("static const LoopSig kLoops[] = {")
    for sig in loops:
        ins, outs = sig.split("->")
        ts = ", ".join("T::" + ENUM[CHAR[c]] for c in ins + outs)
        print("    {{%s}},  // %s" % (ts, sig))
    print("};")
    print()
    print("static constexpr UfuncDef kUfuncs[] = {")
    for name, npname, nin, nout, res, first, count in entries:
        print('    {"%s"sv, "%s"sv, %d, %d, UfuncResolver::%s, %d, %d},' % (name, npname, nin, nout, res, first, count))
    print("};")


def sig_of(dtypes):
    """'bb' for a tuple of dtypes; '' when a dtype is outside our set (object)."""
    s = ""
    for d in dtypes:
        if d.char not in CHAR:
            return ""
        s += OUR_CHAR[CHAR[d.char]]
    return s


def operand_cxx(x):
    """C++ expression for a TestOperand (helpers A/WB/WI/WF/WC in test_promote.cpp):
    an array of dtype x, or the Python scalar x."""
    if isinstance(x, str):
        return "A(T::%s)" % ENUM[x]
    if isinstance(x, bool):
        return "WB(%d)" % int(x)
    if isinstance(x, int):
        return "WI(INT64_C(%d))" % x if x >= 0 else "WI(INT64_C(%d) - 1)" % (x + 1)
    if isinstance(x, float):
        return "WF(%s)" % float.hex(x)
    if isinstance(x, complex):
        return "WC(%s)" % float.hex(x.real)
    raise TypeError(x)


def numpy_value(x):
    return np.zeros(1, dtype=x) if isinstance(x, str) else x


def resolve_arg(x):
    if isinstance(x, str):
        return np.dtype(x)
    if isinstance(x, bool):
        return np.dtype(bool)
    return type(x)


def int_range(d):
    info = np.iinfo(d)
    return int(info.min), int(info.max)


def ufunc_case(name, args):
    """(in_sig, out_sig, err_kind, err_msg, constant) for np.<name>(*args)."""
    u = getattr(np, name)
    vals = [numpy_value(a) for a in args]
    err_kind = err_msg = ""
    out_sig = in_sig = ""
    constant = -1
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                res = u(*vals)
            except ValueError:
                # value errors of the loop itself (integer ** negative): not
                # type resolution; use empty arrays to get the dtypes
                vals = [np.zeros(0, dtype=a) if isinstance(a, str) else a for a in args]
                res = u(*vals)
        results = res if isinstance(res, tuple) else (res,)
        out_sig = sig_of([np.asarray(r).dtype for r in results])
    except OverflowError as e:
        err_kind, err_msg = "OverflowError", str(e)
    except TypeError as e:
        err_kind, err_msg = "TypeError", str(e)
    if not err_kind:
        try:
            rd = u.resolve_dtypes(tuple(resolve_arg(a) for a in args) + (None,) * u.nout)
            in_sig = sig_of(rd[:u.nin])
            assert sig_of(rd[u.nin:]) == out_sig or sig_of(rd[u.nin:]) == "", (name, args, rd, out_sig)
        except Exception:
            in_sig = ""
        # comparisons of an integer array with an out-of-range Python int give a constant
        if RESOLVERS.get(u.__name__) == "Comparison" and len(args) == 2:
            for i in (0, 1):
                a, s = args[i], args[1 - i]
                if (isinstance(a, str) and np.dtype(a).kind in "iu" and isinstance(s, int)
                        and not isinstance(s, bool)):
                    lo, hi = int_range(a)
                    if not lo <= s <= hi:
                        arr = np.array([lo, hi, 0], dtype=a)
                        r = u(arr, s) if i == 0 else u(s, arr)
                        assert r.all() or not r.any()
                        constant = int(bool(r[0]))
    return in_sig, out_sig, err_kind, err_msg, constant


def emit_cases():
    print("// Generated by tests/unit/gen_promote_cases.py from NumPy %s; do not edit." % np.__version__)
    print()
    # promote_types: all pairs
    print("static const PromoteCase kPromoteCases[] = {")
    for a in DTYPES:
        for b in DTYPES:
            r = np.promote_types(a, b)
            print("    {T::%s, T::%s, T::%s}," % (ENUM[a], ENUM[b], ENUM[CHAR[r.char]]))
    print("};")
    print()
    # can_cast: all pairs, bit i set when allowed under Casting(i)
    levels = ["no", "equiv", "safe", "same_kind", "unsafe"]
    print("// mask bit i: np.can_cast(from, to, casting=%s[i])" % "/".join(levels))
    print("static const CanCastCase kCanCastCases[] = {")
    for a in DTYPES:
        for b in DTYPES:
            mask = 0
            for i, lv in enumerate(levels):
                if np.can_cast(a, b, casting=lv):
                    mask |= 1 << i
            print("    {T::%s, T::%s, 0x%02x}," % (ENUM[a], ENUM[b], mask))
    print("};")
    print()
    # result_type: all pairs and triples of {14 dtypes (as arrays), weak bool/int/float/complex}
    pool = DTYPES + [True, 1, 2.5, 1j]
    print("static const ResultTypeCase kResultTypeCases[] = {")
    combos = [(a,) for a in pool] + [(a, b) for a in pool for b in pool] + \
             [(a, b, c) for a in pool for b in pool for c in pool]
    rng = random.Random(1234)  # longer sequences: a fixed random sample
    combos += [tuple(rng.choice(pool) for _ in range(n)) for n in (4, 5) for _ in range(1500)]
    for c in combos:
        args = [np.zeros(1, dtype=a) if isinstance(a, str) else a for a in c]
        r = np.result_type(*args)
        ops = ", ".join(operand_cxx(a) for a in c)
        print("    {{%s}, T::%s}," % (ops, ENUM[CHAR[r.char]]))
    print("};")
    print()
    # ufunc resolution; error messages are interned in kUfuncMessages
    rows = []
    messages = {"": 0}
    for name in UFUNCS:
        u = getattr(np, name)
        cases = []
        if u.nin == 1:
            cases += [(d,) for d in DTYPES]
            cases += [(s,) for s in (True, 1, 2.5, 1j)]
        else:
            cases += [(a, b) for a in DTYPES for b in DTYPES]
            scalars = WEAK_INTS + WEAK_FLOATS + WEAK_BOOLS + WEAK_COMPLEX
            for d in DTYPES:
                for s in scalars:
                    cases.append((d, s))
                    cases.append((s, d))
            for s in (True, 1, 2.5, 1j):
                for t in (True, 1, 2.5, 1j):
                    cases.append((s, t))
        for args in cases:
            in_sig, out_sig, ek, em, const = ufunc_case(name, args)
            ops = ", ".join(operand_cxx(a) for a in args)
            msg = messages.setdefault(em, len(messages))
            rows.append("    {%s, {%s}, %s, %s, %s, %d, %d}," % (
                cxx_str(name), ops, cxx_str(in_sig), cxx_str(out_sig), cxx_str(ek), msg, const))
    print("static const std::string_view kUfuncMessages[] = {")
    for m in messages:
        print("    %s," % cxx_str(m))
    print("};")
    print()
    print("// in/out: NumPy type chars of the loop's inputs/outputs (in empty: not checked,")
    print("// NumPy computes in object); error kind + index into kUfuncMessages; constant:")
    print("// -1, or the constant result of comparing an int array with an out-of-range int")
    print("static const UfuncCase kUfuncCases[] = {")
    for r in rows:
        print(r)
    print("};")


if __name__ == "__main__":
    if "--table" in sys.argv[1:]:
        emit_table()
    else:
        emit_cases()
