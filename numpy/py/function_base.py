# General array functions that NumPy writes in Python (its lib/function_base
# and numeric modules), written here for gpy: they run into the numpy module
# at import, so they see its names (asarray, concatenate, ...) as globals.
# Each follows NumPy 2's documented behaviour: dtypes, shapes, errors.
# (Python's max, min, sum, abs, any, all and round are NumPy's here: the
# module's own names win.)
import math


def _axis_index(axis, ndim):
    if axis < -ndim or axis >= ndim:
        raise AxisError("axis " + str(axis) + " is out of bounds for array of dimension " + str(ndim))
    return axis + ndim if axis < 0 else axis


def _along(ndim, axis, index):
    # The index tuple that applies `index` to dimension `axis` only.
    key = [slice(None)] * ndim
    key[axis] = index
    return tuple(key)


def _flat_or_axis(arr, axis):
    # delete and insert: the flattened array without an axis, else the axis checked.
    arr = asarray(arr)
    if axis is None:
        return arr.ravel(), 0
    return arr, _axis_index(axis, arr.ndim)


def append(arr, values, axis=None):
    arr = asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        values = ravel(values)
        axis = arr.ndim - 1
    return concatenate((arr, values), axis=axis)


def delete(arr, obj, axis=None):
    arr, axis = _flat_or_axis(arr, axis)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        start, stop, step = obj.indices(n)
        drop = arange(start, stop, step)
        keep = ones(n, dtype=bool)
        keep[drop] = False
    else:
        obj = asarray(obj)
        if obj.dtype == bool:
            if obj.shape != (n,):
                raise ValueError("boolean array argument obj to delete must be one dimensional and match the axis length of " + str(n))
            keep = logical_not(obj)
        else:
            if obj.size > 0 and obj.dtype.kind not in "iu":
                raise IndexError("arrays used as indices must be of integer (or boolean) type")
            idx = obj.ravel()
            if idx.size > 0:
                bad = (idx < -n) | (idx >= n)
                if bad.any():
                    first = int(idx[bad][0])
                    raise IndexError("index " + str(first) + " is out of bounds for axis " + str(axis) + " with size " + str(n))
            keep = ones(n, dtype=bool)
            keep[idx] = False
    return arr[_along(arr.ndim, axis, nonzero(keep)[0])]


def insert(arr, obj, values, axis=None):
    arr, axis = _flat_or_axis(arr, axis)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        start, stop, step = obj.indices(n)
        indices = arange(start, stop, step)
    else:
        indices = asarray(obj)
        if indices.dtype == bool:
            raise TypeError("boolean indices are not supported by gpy's insert (NumPy deprecates them)")
        if indices.size > 0 and indices.dtype.kind not in "iu":
            raise IndexError("index " + repr(obj) + " is not an integer")
        indices = indices.astype(intp)
    if indices.ndim == 0:
        index = int(indices)
        if index < -n or index > n:
            raise IndexError("index " + str(index) + " is out of bounds for axis " + str(axis) + " with size " + str(n))
        if index < 0:
            index += n
        vals = asarray(values, dtype=arr.dtype)
        while vals.ndim < arr.ndim:
            vals = vals[newaxis]
        vals = moveaxis(vals, 0, axis)
        numnew = vals.shape[axis]
        shape = list(arr.shape)
        shape[axis] = n + numnew
        new = empty(tuple(shape), dtype=arr.dtype)
        new[_along(arr.ndim, axis, slice(None, index))] = arr[_along(arr.ndim, axis, slice(None, index))]
        new[_along(arr.ndim, axis, slice(index, index + numnew))] = vals
        new[_along(arr.ndim, axis, slice(index + numnew, None))] = arr[_along(arr.ndim, axis, slice(index, None))]
        return new
    indices = indices.ravel()
    numnew = indices.size
    if numnew > 0:
        bad = (indices < -n) | (indices > n)
        if bad.any():
            raise IndexError("index " + str(int(indices[bad][0])) + " is out of bounds for axis " + str(axis) + " with size " + str(n))
    indices = where(indices < 0, indices + n, indices)
    order = argsort(indices, kind="stable")
    placed = indices.copy()
    placed[order] = indices[order] + arange(numnew)
    shape = list(arr.shape)
    shape[axis] = n + numnew
    new = empty(tuple(shape), dtype=arr.dtype)
    old = ones(n + numnew, dtype=bool)
    old[placed] = False
    new[_along(arr.ndim, axis, placed)] = values
    new[_along(arr.ndim, axis, old)] = arr
    return new


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    # The result dtype from the choices as given (Python scalars are weak).
    dtype = result_type(*([c if isscalar(c) else asarray(c) for c in choicelist] + [default if isscalar(default) else asarray(default)]))
    choices = [asarray(c) for c in choicelist]
    conds = [asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != bool:
            raise TypeError("invalid entry " + str(i) + " in condlist: should be boolean ndarray")
    arrays = broadcast_arrays(*(conds + choices + [asarray(default)]))
    result = full(arrays[0].shape, arrays[-1], dtype=dtype)
    k = len(conds)
    for i in range(k - 1, -1, -1):
        result = where(arrays[i], arrays[k + i].astype(dtype), result)
    return result


def piecewise(x, condlist, funclist, *args, **kw):
    x = asarray(x)
    n2 = len(funclist)
    if isscalar(condlist) or not (isinstance(condlist[0], list) or isinstance(condlist[0], ndarray)):
        if not isscalar(condlist) and x.size == 1 and x.ndim == 0:
            condlist = [[c] for c in condlist]
        else:
            condlist = [condlist]
    condlist = asarray(condlist, dtype=bool)
    n = len(condlist)
    if n == n2 - 1:
        otherwise = logical_not(any(condlist, axis=0, keepdims=True))
        condlist = concatenate([condlist, otherwise], axis=0)
        n += 1
    elif n != n2:
        raise ValueError("with " + str(n) + " condition(s), either " + str(n) + " or " + str(n + 1) + " functions are expected")
    y = zeros_like(x)
    for cond, func in zip(condlist, funclist):
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


def _monotonicity(bins):
    # 1: increasing, -1: decreasing, 0: neither.
    if bins.size < 2:
        return 1
    d = diff(bins)
    if (d >= 0).all():
        return 1
    if (d <= 0).all():
        return -1
    return 0


def digitize(x, bins, right=False):
    x = asarray(x)
    bins = asarray(bins)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    mono = _monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if mono == -1:
        return len(bins) - searchsorted(bins[::-1], x, side=side)
    return searchsorted(bins, x, side=side)


def bincount(x, weights=None, minlength=0):
    x = asarray(x)
    if x.ndim > 1:
        raise ValueError("object too deep for desired array")
    if x.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if x.dtype.kind == "c":
        raise TypeError("Cannot cast array data from " + repr(x.dtype) + " to dtype('int64') according to the rule 'safe'")
    x = x.astype(intp)
    if x.size > 0 and x.min() < 0:
        raise ValueError("'list' argument must have no negative elements")
    n = int(x.max()) + 1 if x.size > 0 else 0
    if minlength > n:
        n = minlength
    if weights is None:
        out = zeros(n, dtype=intp)
        add.at(out, x, 1)
        return out
    w = asarray(weights).astype(float64)
    if w.shape != x.shape:
        raise ValueError("The weights and list don't have the same length.")
    out = zeros(n, dtype=float64)
    add.at(out, x, w)
    return out


def interp(x, xp, fp, left=None, right=None, period=None):
    scalar_x = isscalar(x) or (isinstance(x, ndarray) and x.ndim == 0 and not isinstance(x, generic) and False)
    x = asarray(x)
    xp = asarray(xp)
    fp = asarray(fp)
    is_complex = fp.dtype.kind == "c"
    dtype = complex128 if is_complex else float64
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array")
    if xp.size != fp.size:
        raise ValueError("fp and xp are not of the same length.")
    if xp.size == 0:
        raise ValueError("array of sample points is empty")
    xf = x.astype(float64)
    xp = xp.astype(float64)
    fp = fp.astype(dtype)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = None
        right = None
        xf = xf % period
        xp = xp % period
        order = argsort(xp)
        xp = xp[order]
        fp = fp[order]
        xp = concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = concatenate((fp[-1:], fp, fp[0:1]))
    n = xp.size
    lval = fp[0] if left is None else asarray(left).astype(dtype)
    rval = fp[-1] if right is None else asarray(right).astype(dtype)
    if n == 1:
        res = where(xf < xp[0], lval, where(xf > xp[0], rval, fp[0]))
    else:
        j = clip(searchsorted(xp, xf, side="right") - 1, 0, n - 2)
        x0 = xp[j]
        x1 = xp[j + 1]
        f0 = fp[j]
        f1 = fp[j + 1]
        slope = (f1 - f0) / (x1 - x0)
        res = slope * (xf - x0) + f0
        # NumPy retries from the right end where the left one gave NaN
        # (an infinite slope), then takes f0 where the two ends agree.
        retry = slope * (xf - x1) + f1
        res = where(isnan(res), retry, res)
        res = where(isnan(res) & (f0 == f1), f0, res)
        res = where(xf == xp[-1], fp[-1], res)
        res = where(xf < xp[0], lval, res)
        res = where(xf > xp[-1], rval, res)
    res = where(isnan(xf), nan, res) if not is_complex else res
    res = asarray(res).astype(dtype)
    if x.ndim == 0:
        return res[()]
    return res


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = asarray(y)
    nd = y.ndim
    if x is None:
        d = dx
    else:
        x = asarray(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * nd
            shape[_axis_index(axis, nd)] = d.shape[0]
            d = d.reshape(tuple(shape))
        else:
            d = diff(x, axis=axis)  # along x's own axis
    yaxis = _axis_index(axis, nd)
    upper = y[_along(nd, yaxis, slice(1, None))]
    lower = y[_along(nd, yaxis, slice(None, -1))]
    return add.reduce(d * (upper + lower) / 2.0, axis)


def sinc(x):
    # Zero becomes the dtype's epsilon (sin(eps) / eps is 1.0 in every float type).
    x = pi * asarray(x)
    eps = finfo(x.dtype).eps if x.dtype.kind == "f" else 1e-20
    y = where(x, x, eps)
    return sin(y) / y


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    p = asarray(p)
    nd = p.ndim
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = result_type(dd, period)
    if dtype.kind in "iu":  # integer phases and period: integer arithmetic
        high = period // 2
        ambiguous = period % 2 == 0
    else:
        high = period / 2
        ambiguous = True
    low = -high
    ddmod = mod(dd - low, period) + low
    if ambiguous:
        ddmod = where((ddmod == low) & (dd > 0), high, ddmod)
    correct = ddmod - dd
    correct = where(abs(dd) < discont, 0, correct)
    up = array(p, dtype=dtype)
    axis = _axis_index(axis, nd)
    up[_along(nd, axis, slice(1, None))] = p[_along(nd, axis, slice(1, None))] + cumsum(correct, axis=axis)
    return up


def trim_zeros(filt, trim="fb", axis=None):
    # The input's own slice (a list stays a list), as NumPy's.
    arr = asarray(filt)
    trim = trim.lower()
    if arr.ndim != 1 or axis is not None:
        raise NotImplementedError("gpy's trim_zeros trims 1-d arrays")
    nz = flatnonzero(arr)
    if nz.size == 0:
        return filt[0:0]
    start = int(nz[0]) if "f" in trim else 0
    stop = int(nz[-1]) + 1 if "b" in trim else arr.size
    return filt[start:stop]


def vander(x, N=None, increasing=False):
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = len(x)
    dtype = promote_types(x.dtype, int64)
    v = empty((len(x), N), dtype=dtype)
    if N > 0:
        # x itself as the first power (not 1 * x: (1+0j) * (nan+0j) is nan+nanj).
        cols = [ones(len(x), dtype=dtype)]
        if N > 1:
            cols.append(x.astype(dtype))
        for k in range(2, N):
            cols.append(cols[-1] * x)
        if not increasing:
            cols = cols[::-1]
        v[...] = stack(cols, axis=1)
    return v


def rot90(m, k=1, axes=(0, 1)):
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = asarray(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError("Axes=" + str(axes) + " out of range for array of ndim=" + str(m.ndim) + ".")
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(m, axes[1]), perm)
    return flip(transpose(m, perm), axes[1])


def fill_diagonal(a, val, wrap=False):
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        for d in a.shape[1:]:
            if d != a.shape[0]:
                raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(cumprod(a.shape[:-1]).sum())
        end = None
    total = a.size if end is None or end > a.size else end
    put(a, arange(0, total, step), val)


def diag_indices(n, ndim=2):
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    for d in arr.shape[1:]:
        if d != arr.shape[0]:
            raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def indices(dimensions, dtype=int, sparse=False):
    dimensions = tuple(dimensions)
    n = len(dimensions)
    # The dense result first, as NumPy: an impossible size fails before any work.
    res = None if sparse else empty((n,) + dimensions, dtype=dtype)
    parts = []
    for i, dim in enumerate(dimensions):
        shape = [1] * n
        shape[i] = dim
        parts.append(arange(dim, dtype=dtype).reshape(tuple(shape)))
    if sparse:
        return tuple(parts)
    for i in range(n):
        res[i] = parts[i]
    return res


def ix_(*args):
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, ndarray):
            new = asarray(new)
            if new.size == 0:
                new = new.astype(intp)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == bool:
            new = nonzero(new)[0]
        out.append(new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def mask_indices(n, mask_func, k=0):
    m = ones((n, n), dtype=int)
    a = mask_func(m, k)
    return nonzero(a != 0)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    if axis is not None:
        axisa = axisb = axisc = axis
    a = asarray(a)
    b = asarray(b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = moveaxis(a, axisa, -1)
    b = moveaxis(b, axisb, -1)
    na = a.shape[-1]
    nb = b.shape[-1]
    if (na != 2 and na != 3) or (nb != 2 and nb != 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    a0 = a[..., 0]
    a1 = a[..., 1]
    a2 = a[..., 2] if na == 3 else None
    b0 = b[..., 0]
    b1 = b[..., 1]
    b2 = b[..., 2] if nb == 3 else None
    if na == 2 and nb == 2:
        return a0 * b1 - a1 * b0
    if na == 2:
        c0 = a1 * b2
        c1 = -(a0 * b2)
        c2 = a0 * b1 - a1 * b0
    elif nb == 2:
        c0 = -(a2 * b1)
        c1 = a2 * b0
        c2 = a0 * b1 - a1 * b0
    else:
        c0 = a1 * b2 - a2 * b1
        c1 = a2 * b0 - a0 * b2
        c2 = a0 * b1 - a1 * b0
    c = stack(broadcast_arrays(c0, c1, c2), axis=-1)
    return moveaxis(c, -1, axisc)


def correlate(a, v, mode="valid"):
    a = asarray(a)
    v = asarray(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    if a.size == 0:
        raise ValueError("a cannot be empty")
    if v.size == 0:
        raise ValueError("v cannot be empty")
    if v.dtype.kind == "c":
        v = conj(v)
    return _correlate(a, v, mode)


def _correlate(a, v, mode):
    # out[k] = sum_j a[k + j - left] * v[j] over the overlap. As NumPy's
    # _pyarray_correlate: the longer operand is `a` (swapped, the result
    # comes out reversed).
    n = a.size
    m = v.size
    dtype = result_type(a, v)
    flipped = n < m
    if flipped:
        a, v = v, a
        n, m = m, n
    if mode == "valid":
        left = 0
        size = n - m + 1
    elif mode == "same":
        left = m // 2
        size = n
    elif mode == "full":
        left = m - 1
        size = n + m - 1
    else:
        raise ValueError("mode must be one of 'valid', 'same', or 'full' (got " + repr(mode) + ")")
    # Only the overlapping products, as NumPy's: a zero pad times a NaN or
    # inf in v would be NaN where NumPy has no term at all.
    a = a.astype(dtype)
    out = zeros(size, dtype=dtype)
    for j in range(m):
        lo = left - j if left - j > 0 else 0
        hi = left - j + n if left - j + n < size else size
        if lo < hi:
            out[lo:hi] += a[lo + j - left:hi + j - left] * v[j]
    if flipped:
        out = out[::-1]
    return out


def convolve(a, v, mode="full"):
    a = asarray(a)
    v = asarray(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    if len(v) > len(a):
        a, v = v, a
    if len(a) == 0:
        raise ValueError("a cannot be empty")
    if len(v) == 0:
        raise ValueError("v cannot be empty")
    return _correlate(a, v[::-1], mode)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if dtype is None:
        dtype = result_type(m, float64) if y is None else result_type(m, asarray(y), float64)
    X = asarray(m, dtype=dtype)
    while X.ndim < 2:
        X = X[newaxis]
    if not rowvar and X.shape[0] != 1:
        X = X.T
    if X.shape[0] == 0:
        return array([]).reshape(0, 0)
    if y is not None:
        y = asarray(y, dtype=dtype)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
        while y.ndim < 2:
            y = y[newaxis]
        if not rowvar and y.shape[0] != 1:
            y = y.T
        X = concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        fw = asarray(fweights, dtype=float64)
        w = fw
    if aweights is not None:
        aw = asarray(aweights, dtype=float64)
        w = aw if w is None else w * aw
    if w is None:
        avg = X.mean(axis=1)
        fact = X.shape[1] - ddof
    else:
        w_sum = w.sum()
        avg = (X * w).sum(axis=1) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * (w * aw).sum() / w_sum
    if fact <= 0:
        fact = 0.0
    X = X - avg[:, newaxis]
    X_T = X.T if w is None else (X * w).T
    c = dot(X, X_T.conj())
    c = c * (1.0 / fact) if fact == 0.0 else c / fact
    return c.squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = diag(c)
    stddev = sqrt(d.real)
    c = c / stddev[:, newaxis]
    c = c / stddev[newaxis, :]
    if c.dtype.kind == "c":
        return clip(c.real, -1, 1) + 1j * clip(c.imag, -1, 1)
    return clip(c, -1, 1)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = array(x, copy=bool(copy))
    kind = x.dtype.kind
    if kind not in "fc":
        return x[()] if x.ndim == 0 else x
    if kind == "c":
        real_part = nan_to_num(x.real, True, nan, posinf, neginf)
        imag_part = nan_to_num(x.imag, True, nan, posinf, neginf)
        out = (real_part + 1j * imag_part).astype(x.dtype)
        if not copy:
            # copy=False replaces in place, as NumPy's (x is the caller's array).
            x[...] = out
            out = x
        return out[()] if x.ndim == 0 else out
    info = finfo(x.dtype)
    big = info.max if posinf is None else posinf
    small = -info.max if neginf is None else neginf
    # copy=False writes into x itself (NumPy replaces in place and returns x).
    out = empty_like(x) if copy else x
    out[...] = where(isneginf(x), small, where(isposinf(x), big, where(isnan(x), nan, x)))
    return out[()] if x.ndim == 0 else out


def real_if_close(a, tol=100):
    a = asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = finfo(a.dtype).eps * tol
    if (abs(a.imag) < tol).all():
        return a.real
    return a


def isposinf(x, out=None):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    return logical_and(isinf(x), logical_not(signbit(x)), out=out)


def isneginf(x, out=None):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    return logical_and(isinf(x), signbit(x), out=out)


def fix(x, out=None):
    # Round toward zero, keeping the dtype: trunc (ceil below zero, floor above).
    return trunc(x, out=out)


def asarray_chkfinite(a, dtype=None, order=None):
    a = asarray(a, dtype=dtype)
    if a.dtype.kind in "fc" and not isfinite(a).all():
        raise ValueError("array must not contain infs or NaNs")
    return a


def isfortran(a):
    return True if a.flags.f_contiguous and not a.flags.c_contiguous else False


def iterable(y):
    try:
        iter(y)
    except TypeError:
        return False
    return True


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    args = indices(shape, dtype=dtype)
    return function(*args, **kwargs)


def fromiter(iter, dtype, count=-1, *, like=None):
    items = []
    for v in iter:
        if count >= 0 and len(items) == count:
            break
        items.append(v)
    if count >= 0 and len(items) < count:
        raise ValueError("iterator too short: Expected " + str(count) + " but iterator had only " + str(len(items)) + " items.")
    return array(items, dtype=float64 if dtype is None else dtype)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = asarray(arr)
    nd = arr.ndim
    axis = _axis_index(axis, nd)
    moved = moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    total = 1
    for d in outer:
        total *= d
    if total == 0:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    flat = moved.reshape((total, moved.shape[-1]))
    results = [asarray(func1d(flat[i], *args, **kwargs)) for i in range(total)]
    res = stack(results, axis=0)
    res = res.reshape(outer + res.shape[1:])
    # The function's own dims go where the axis was.
    rdims = res.ndim - len(outer)
    src = list(range(len(outer), res.ndim))
    dst = list(range(axis, axis + rdims))
    return moveaxis(res, src, dst) if rdims > 0 else res


def apply_over_axes(func, a, axes):
    val = asarray(a)
    N = val.ndim
    if isscalar(axes):
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = func(val, axis)
        if res.ndim == val.ndim:
            val = res
        else:
            res = expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of the correct shape")
    return val


def vectorize(pyfunc=None, otypes=None, doc=None, excluded=None, cache=False, signature=None):
    if signature is not None:
        raise NotImplementedError("gpy's vectorize has no signature=")
    if pyfunc is None:
        return lambda f: vectorize(f, otypes, doc, excluded, cache, signature)
    excluded_set = set() if excluded is None else set(excluded)

    def call(*args, **kwargs):
        positions = [i for i in range(len(args)) if i not in excluded_set]
        names = [k for k in kwargs if k not in excluded_set]
        arrays = broadcast_arrays(*([asarray(args[i]) for i in positions] + [asarray(kwargs[k]) for k in names]))
        shape = arrays[0].shape if arrays else ()
        flat = [a.ravel() for a in arrays]
        n = 1
        for d in shape:
            n *= d
        if n == 0 and otypes is None:
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        out = []
        for i in range(n):
            call_args = list(args)
            call_kw = dict(kwargs)
            for j, p in enumerate(positions):
                call_args[p] = flat[j][i]
            for j, k in enumerate(names):
                call_kw[k] = flat[len(positions) + j][i]
            out.append(pyfunc(*call_args, **call_kw))
        if out and isinstance(out[0], tuple):
            parts = list(zip(*out))
            types_ = otypes if otypes is not None else [None] * len(parts)
            return tuple(asarray(list(p), dtype=t).reshape(shape) for p, t in zip(parts, types_))
        dtype = None
        if otypes is not None:
            dtype = otypes[0] if not isinstance(otypes, str) else otypes[0]
        elif out:
            dtype = asarray(out[0]).dtype
        return asarray(out, dtype=dtype).reshape(shape)
    return call
