# NumPy's ufuncs that gpy composes from its own operations (as functions,
# without ufunc methods yet): divmod, modf, frexp, bitwise_count (gcd, lcm,
# logaddexp, logaddexp2, ldexp, nextafter and spacing are real ufuncs). Each takes
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
    return (_result(_unary_op("frexp_mant", x, tm), scalar), _result(_unary_op("frexp_exp", x, te), scalar))


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
