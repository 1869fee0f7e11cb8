# np.testing: NumPy's assert functions (numpy/testing/_private/utils.py)
# with its logic and AssertionError texts. They are defined under their NumPy
# names, attached to the native numpy.testing module, then removed from np's
# namespace (so inside them the module is reached as _tst_module).
# Differences: no datetime/string arrays (gpy has none), assert_raises only in
# its callable form, assert_string_equal without difflib's '?' hint lines.
_tst_module = testing


def _tst_repr(a, precision):
    # array_repr(a, precision=...): gpy's array_repr takes no options, so set
    # the print precision around repr() and put back the one in force.
    s = repr(array([1 / 3.0]))
    old = len(s[s.index(".") + 1:s.index("]")])
    set_printoptions(precision=precision)
    try:
        return repr(a)
    finally:
        set_printoptions(precision=old)


def _tst_err_msg(arrays, err_msg, header="Items are not equal:", verbose=True, names=("ACTUAL", "DESIRED"), precision=8):
    msg = ["\n" + header]
    err_msg = str(err_msg)
    if err_msg:
        if err_msg.find("\n") == -1 and len(err_msg) < 79 - len(header):
            msg = [msg[0] + " " + err_msg]
        else:
            msg.append(err_msg)
    if verbose:
        for i in range(len(arrays)):
            a = arrays[i]
            r = _tst_repr(a, precision) if isinstance(a, ndarray) else repr(a)
            if r.count("\n") > 3:
                r = "\n".join(r.splitlines()[:3]) + "..."
            msg.append(" " + names[i] + ": " + r)
    return "\n".join(msg)


def _tst_a2s(v):  # array2string of a 0-d result
    s = repr(asarray(v))
    j = s.find(", dtype=")
    return s[6:j] if j >= 0 else s[6:-1]


def _tst_compare(comparison, x, y, err_msg="", verbose=True, header="", precision=6, equal_nan=True, equal_inf=True, strict=False, names=("ACTUAL", "DESIRED")):
    x = asanyarray(x)
    y = asanyarray(y)
    ox, oy = x, y

    def fail(a, b, text):
        raise AssertionError(_tst_err_msg([a, b], text, verbose=verbose, header=header, names=names, precision=precision))

    def same_pos(x, y, func, hasval):
        x_id = func(x)
        y_id = func(y)
        if not asarray(x_id == y_id).all():
            fail(x, y, err_msg + "\n" + hasval + " location mismatch:")
        if x_id.ndim == 0:
            return bool(x_id)
        if y_id.ndim == 0:
            return bool(y_id)
        return y_id

    if strict:
        cond = x.shape == y.shape and x.dtype == y.dtype
    else:
        cond = x.shape == () or y.shape == () or x.shape == y.shape
    if not cond:
        if x.shape != y.shape:
            reason = "\n(shapes " + str(x.shape) + ", " + str(y.shape) + " mismatch)"
        else:
            reason = "\n(dtypes " + str(x.dtype) + ", " + str(y.dtype) + " mismatch)"
        fail(x, y, err_msg + reason)
    flagged = bool(False)
    if equal_nan:
        flagged = same_pos(x, y, isnan, "nan")
    if equal_inf:
        infs = same_pos(x, y, lambda xy: logical_and(isinf(xy), invert(flagged)), "inf")
        if infs.any():
            xi, yi = (x[infs], y[infs]) if x.ndim > 0 and y.ndim > 0 else (x, y)
            if not asarray(xi == yi).all():
                fail(xi, yi, err_msg + "\ninf values mismatch:")
        flagged = flagged | infs
    if flagged.ndim > 0:
        x, y = x[~flagged], y[~flagged]
        if x.size == 0:
            return
    elif flagged:
        return
    val = asarray(comparison(x, y))
    invalids = logical_not(val)
    reduced = val.ravel()
    if reduced.all():
        return
    n_mismatch = reduced.size - reduced.sum(dtype=intp)
    n_elements = flagged.size if flagged.ndim != 0 else reduced.size
    remarks = [f"Mismatched elements: {n_mismatch} / {n_elements} ({100 * n_mismatch / n_elements:.3g}%)"]
    if invalids.ndim != 0:
        positions = argwhere(~flagged)[invalids] if flagged.ndim > 0 else argwhere(invalids)
        lines = []
        for p in positions[:5]:
            t = tuple(p)
            lines.append(f" {p.tolist()}: {ox if ox.ndim == 0 else ox[t]} ({names[0]}), {oy if oy.ndim == 0 else oy[t]} ({names[1]})")
        s = "\n".join(lines)
        if len(positions) == 1:
            remarks.append("Mismatch at index:\n" + s)
        elif len(positions) <= 5:
            remarks.append("Mismatch at indices:\n" + s)
        else:
            remarks.append("First 5 mismatches are at indices:\n" + s)
    try:
        error = abs(x - y)
        if issubdtype(x.dtype, unsignedinteger):
            error = minimum(error, abs(y - x))
        remarks.append("Max absolute difference among violations: " + _tst_a2s(max(error[invalids])))
        nz_inv = logical_and(invalids, asarray(y != 0))
        if all(~nz_inv):
            rel = array(inf)
        else:
            rel = max(error[nz_inv] / abs(broadcast_to(y, error.shape)[nz_inv]))
        remarks.append("Max relative difference among violations: " + _tst_a2s(rel))
    except TypeError:
        pass
    fail(ox, oy, str(err_msg) + "\n" + "\n".join(remarks))


def assert_(val, msg=""):
    if not val:
        try:
            smsg = msg()
        except TypeError:
            smsg = msg
        raise AssertionError(smsg)


def assert_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    if isinstance(desired, dict):
        if not isinstance(actual, dict):
            raise AssertionError(repr(type(actual)))
        _tst_module.assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in desired:
            if k not in actual:
                raise AssertionError(repr(k))
            _tst_module.assert_equal(actual[k], desired[k], f"key={k!r}\n{err_msg}", verbose)
        return
    if isinstance(desired, (list, tuple)) and isinstance(actual, (list, tuple)):
        _tst_module.assert_equal(len(actual), len(desired), err_msg, verbose)
        for k in range(len(desired)):
            _tst_module.assert_equal(actual[k], desired[k], f"item={k!r}\n{err_msg}", verbose)
        return
    if isinstance(actual, ndarray) or isinstance(desired, ndarray):
        return _tst_module.assert_array_equal(actual, desired, err_msg, verbose, strict=strict)
    msg = _tst_err_msg([actual, desired], err_msg, verbose=verbose)
    try:
        usecomplex = iscomplexobj(actual) or iscomplexobj(desired)
    except (ValueError, TypeError):
        usecomplex = False
    if usecomplex:
        try:
            _tst_module.assert_equal(real(actual) if iscomplexobj(actual) else actual, real(desired) if iscomplexobj(desired) else desired)
            _tst_module.assert_equal(imag(actual) if iscomplexobj(actual) else 0, imag(desired) if iscomplexobj(desired) else 0)
        except AssertionError:
            raise AssertionError(msg)
    if isscalar(desired) != isscalar(actual):
        raise AssertionError(msg)
    try:
        if isnan(desired) and isnan(actual):
            return
        if desired == 0 and actual == 0:
            if not signbit(desired) == signbit(actual):
                raise AssertionError(msg)
    except (TypeError, ValueError, NotImplementedError):
        pass
    if not desired == actual:
        raise AssertionError(msg)


def assert_almost_equal(actual, desired, decimal=7, err_msg="", verbose=True):
    try:
        usecomplex = iscomplexobj(actual) or iscomplexobj(desired)
    except ValueError:
        usecomplex = False
    header = "Arrays are not almost equal to %d decimals" % decimal
    if usecomplex:
        try:
            _tst_module.assert_almost_equal(real(actual) if iscomplexobj(actual) else actual, real(desired) if iscomplexobj(desired) else desired, decimal=decimal)
            _tst_module.assert_almost_equal(imag(actual) if iscomplexobj(actual) else 0, imag(desired) if iscomplexobj(desired) else 0, decimal=decimal)
        except AssertionError:
            raise AssertionError(_tst_err_msg([actual, desired], err_msg, verbose=verbose, header=header))
    if isinstance(actual, (ndarray, tuple, list)) or isinstance(desired, (ndarray, tuple, list)):
        return _tst_module.assert_array_almost_equal(actual, desired, decimal, err_msg)
    try:
        if not (isfinite(desired) and isfinite(actual)):
            if isnan(desired) or isnan(actual):
                if not (isnan(desired) and isnan(actual)):
                    raise AssertionError(_tst_err_msg([actual, desired], err_msg, verbose=verbose, header=header))
            elif not desired == actual:
                raise AssertionError(_tst_err_msg([actual, desired], err_msg, verbose=verbose, header=header))
            return
    except (NotImplementedError, TypeError):
        pass
    if abs(desired - actual) >= float64(1.5 * 10.0 ** (-decimal)):
        raise AssertionError(_tst_err_msg([actual, desired], err_msg, verbose=verbose, header=header))


def assert_approx_equal(actual, desired, significant=7, err_msg="", verbose=True):
    actual, desired = float(actual), float(desired)
    if desired == actual:
        return
    scale = 0.5 * (abs(desired) + abs(actual))
    scale = power(10, floor(log10(scale)))
    sc_desired = desired / scale if scale != 0 else 0.0
    sc_actual = actual / scale if scale != 0 else 0.0
    msg = _tst_err_msg([actual, desired], err_msg, header="Items are not equal to %d significant digits:" % significant, verbose=verbose)
    if not (isfinite(desired) and isfinite(actual)):
        if isnan(desired) or isnan(actual):
            if not (isnan(desired) and isnan(actual)):
                raise AssertionError(msg)
        elif not desired == actual:
            raise AssertionError(msg)
        return
    if abs(sc_desired - sc_actual) >= power(10.0, -(significant - 1)):
        raise AssertionError(msg)


def assert_array_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    _tst_compare(lambda x, y: x == y, actual, desired, err_msg=err_msg, verbose=verbose, header="Arrays are not equal", strict=strict)


def assert_array_almost_equal(actual, desired, decimal=6, err_msg="", verbose=True):
    def compare(x, y):
        y = asanyarray(y, result_type(y, 1.0))
        z = abs(x - y)
        if not issubdtype(z.dtype, number):
            z = z.astype(float64)
        return z < 1.5 * 10.0 ** (-decimal)
    _tst_compare(compare, actual, desired, err_msg=err_msg, verbose=verbose, header="Arrays are not almost equal to %d decimals" % decimal, precision=decimal)


def assert_array_less(x, y, err_msg="", verbose=True, *, strict=False):
    _tst_compare(lambda x, y: x < y, x, y, err_msg=err_msg, verbose=verbose, header="Arrays are not strictly ordered `x < y`", equal_inf=False, strict=strict, names=("x", "y"))


def assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg="", verbose=True, *, strict=False):
    actual, desired = asanyarray(actual), asanyarray(desired)
    header = f"Not equal to tolerance rtol={rtol:g}, atol={atol:g}"
    _tst_compare(lambda x, y: isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan), actual, desired, err_msg=str(err_msg), verbose=verbose, header=header, equal_nan=equal_nan, strict=strict)


def assert_string_equal(actual, desired):
    if not isinstance(actual, str):
        raise AssertionError(repr(type(actual)))
    if not isinstance(desired, str):
        raise AssertionError(repr(type(desired)))
    if desired == actual:
        return
    a, d = actual.splitlines(True), desired.splitlines(True)
    out = []
    for i in range(len(a) if len(a) > len(d) else len(d)):
        la = a[i] if i < len(a) else None
        ld = d[i] if i < len(d) else None
        if la != ld:
            if la is not None:
                out.append("- " + la)
            if ld is not None:
                out.append("+ " + ld)
    raise AssertionError("Differences in strings:\n" + "".join(out).rstrip())


def assert_raises(exception_class, *args, **kwargs):
    if not args:
        raise NotImplementedError("gpy's assert_raises takes the callable form only: assert_raises(exc, func, *args, **kwargs)")
    func = args[0]
    try:
        func(*args[1:], **kwargs)
    except exception_class:
        return None
    if isinstance(exception_class, tuple):
        name = str(exception_class)
    else:
        name = exception_class.__name__
    raise AssertionError(name + " not raised by " + getattr(func, "__name__", str(func)))


def _tst_int_repr(x):
    for ft, it in ((float16, int16), (float32, int32), (float64, int64)):
        if x.dtype == ft:
            rx = x.view(it)
            neg = rx < 0
            rx[neg] = it(iinfo(it).min) - rx[neg]
            return rx
    raise ValueError(f"Unsupported dtype {x.dtype}")


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    x, y = (asarray(a, dtype=dtype), asarray(b, dtype=dtype)) if dtype else (asarray(a), asarray(b))
    t = common_type(x, y)
    if iscomplexobj(x) or iscomplexobj(y):
        raise NotImplementedError("_nulp not implemented for complex array")
    x = array([x], dtype=t)
    y = array([y], dtype=t)
    x[isnan(x)] = nan
    y[isnan(y)] = nan
    if not x.shape == y.shape:
        raise ValueError(f"Arrays do not have the same shape: {x.shape} - {y.shape}")
    ret = abs(asarray(_tst_int_repr(x) - _tst_int_repr(y), dtype=t))
    if not all(ret <= maxulp):
        raise AssertionError("Arrays are not almost equal up to %g ULP (max difference is %g ULP)" % (maxulp, max(ret)))
    return ret


_tst_module.assert_ = assert_
_tst_module.assert_equal = assert_equal
_tst_module.assert_almost_equal = assert_almost_equal
_tst_module.assert_approx_equal = assert_approx_equal
_tst_module.assert_array_equal = assert_array_equal
_tst_module.assert_array_almost_equal = assert_array_almost_equal
_tst_module.assert_array_less = assert_array_less
_tst_module.assert_allclose = assert_allclose
_tst_module.assert_string_equal = assert_string_equal
_tst_module.assert_raises = assert_raises
_tst_module.assert_array_max_ulp = assert_array_max_ulp
del assert_, assert_equal, assert_almost_equal, assert_approx_equal, assert_array_equal
del assert_array_almost_equal, assert_array_less, assert_allclose, assert_string_equal
del assert_raises, assert_array_max_ulp
