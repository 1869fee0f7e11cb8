# NumPy's ufuncs that gpy composes from its own operations (as functions,
# without ufunc methods yet): divmod, modf, frexp, ldexp, nextafter,
# spacing, bitwise_count (gcd, lcm, logaddexp and logaddexp2 are real ufuncs). Each takes
# NumPy's loop for its operands (_ufunc_loop: the dtypes NumPy's type
# resolution picks, or its TypeError) and gives NumPy's values, special
# values included. (Python's max, min, abs, ... are NumPy's here: the
# module's own names win.)


def _result(r, scalar):
    # A ufunc of scalars only (Python, NumPy or 0-d) returns a scalar.
    return r[()] if scalar else r


def _all_scalar(*xs):
    for x in xs:
        if ndim(x) != 0:
            return False
    return True


def divmod(x1, x2, /):
    return (floor_divide(x1, x2), remainder(x1, x2))


def modf(x, /):
    scalar = _all_scalar(x)
    t, o1, o2 = _ufunc_loop("modf", x)
    x = asarray(x).astype(t)
    whole = trunc(x)
    frac = where(isinf(x), 0.0, x - whole).astype(t)
    frac = copysign(frac, x)
    return (_result(frac.astype(o1), scalar), _result(whole.astype(o2), scalar))


def frexp(x, /):
    scalar = _all_scalar(x)
    t, tm, te = _ufunc_loop("frexp", x)
    x = asarray(x).astype(t)
    ax = abs(x).astype(float64)
    finite_nonzero = isfinite(x) & (x != 0)
    safe = where(finite_nonzero, ax, 1.0)
    e = floor(log2(safe)).astype(int32) + 1
    half = (e // 2).astype(float64)
    m = safe * exp2(-half) * exp2(half - e.astype(float64))  # two steps: 2**1024 is not a double
    # log2 may round across a power of two: bring m back into [0.5, 1).
    up = m >= 1.0
    e = where(up, e + 1, e)
    m = where(up, m / 2, m)
    down = m < 0.5
    e = where(down, e - 1, e)
    m = where(down, m * 2, m)
    m = copysign(m, x.astype(float64))
    mant = where(finite_nonzero, m, x.astype(float64)).astype(tm)
    expo = where(finite_nonzero, e, 0).astype(te)
    return (_result(mant, scalar), _result(expo, scalar))


def ldexp(x1, x2, /):
    scalar = _all_scalar(x1, x2)
    t1, t2, out = _ufunc_loop("ldexp", x1, x2)
    x1 = asarray(x1).astype(t1)
    e = clip(asarray(x2).astype(t2).astype(int64), -2200, 2200)
    # Two steps, each a power of two that is a normal double.
    half = e // 2
    r = (x1.astype(float64) * exp2(half.astype(float64))) * exp2((e - half).astype(float64))
    return _result(r.astype(out), scalar)


def _dtype_class(x):
    # NumPy's DType class names, as its "did not contain a loop" message gives them.
    if isinstance(x, float):
        if not isinstance(x, generic):
            return "numpy.dtypes._PyFloatDType"
    elif isinstance(x, int):
        return "numpy.dtypes._PyLongDType"
    elif isinstance(x, complex):
        if not isinstance(x, generic):
            return "numpy.dtypes._PyComplexDType"
    name = asarray(x).dtype.name
    name = {"bool": "Bool", "uint8": "UInt8", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64"}.get(name, name.capitalize())
    return "numpy.dtypes." + name + "DType"


def _bits_type(dtype):
    return {float64: int64, float32: int32, float16: int16}[dtype.type]


def nextafter(x1, x2, /):
    scalar = _all_scalar(x1, x2)
    t1, t2, dtype = _ufunc_loop("nextafter", x1, x2)
    a, b = broadcast_arrays(asarray(x1).astype(t1), asarray(x2).astype(t2))
    a = a.copy()
    ib = _bits_type(dtype)
    bits = a.view(ib)
    step = where((a < b) == (a > 0), 1, -1).astype(ib)
    moved = (bits + step).view(dtype)
    tiny = copysign(zeros_like(a) + 1, b).astype(dtype)
    smallest = (zeros_like(a).view(ib) + 1).view(dtype) * tiny
    r = where(a == 0, smallest, moved)
    r = where(a == b, b, r)
    r = where(isnan(a) | isnan(b), nan, r)
    return _result(asarray(r).astype(dtype), scalar)


def spacing(x, /):
    scalar = _all_scalar(x)
    t, out = _ufunc_loop("spacing", x)
    x = asarray(x).astype(t)
    # float16's spacing is toward +inf always (NumPy's npy_half_spacing), the
    # others away from zero.
    toward = full_like(x, inf) if x.dtype == float16 else where(signbit(x), -inf, inf).astype(x.dtype)
    r = asarray(nextafter(x, toward)) - x
    r = where(x == 0, asarray(nextafter(zeros_like(x), ones_like(x))), r)  # +0 and -0: the smallest positive
    r = where(isinf(x), nan, r)
    return _result(asarray(r).astype(x.dtype), scalar)


def bitwise_count(x, /):
    scalar = _all_scalar(x)
    t, out = _ufunc_loop("bitwise_count", x)
    x = asarray(x).astype(t)
    v = absolute(x.astype(int64)).astype(uint64) if x.dtype.kind == "i" else x.astype(uint64)
    v = v - ((v >> 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + ((v >> 2) & 0x3333333333333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0F
    v = (v * 0x0101010101010101) >> 56
    return _result(v.astype(out), scalar)
