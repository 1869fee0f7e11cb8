# quantile, percentile, nanquantile and nanpercentile for what the native
# versions (numpy/statistics.cpp) lack: the Hyndman & Fan methods and
# inverted_cdf weights, by NumPy's _quantile formulas. 'linear', 'lower',
# 'higher', 'nearest' and 'midpoint' without weights stay native.
import math

_native_quantile = quantile
_native_percentile = percentile
_native_nanquantile = nanquantile
_native_nanpercentile = nanpercentile

_Q_NATIVE = ("linear", "lower", "higher", "nearest", "midpoint")
_Q_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
              "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher",
              "midpoint", "nearest")
_Q_ALPHA_BETA = {"interpolated_inverted_cdf": (0, 1), "hazen": (0.5, 0.5), "weibull": (0, 0),
                 "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0)}


def _q_boundary(index, odd):
    # NumPy's _discrete_interpolation_to_boundaries: the order statistic
    # after index, or the one at it when index is integral (closest_observation:
    # and odd).
    prev = floor(index)
    cond = (index - prev) == 0
    if odd:
        cond = cond & (prev % 2 == 1)
    return maximum(where(cond, prev, prev + 1).astype(intp), 0)


def _q_sorted(arr, q, method, weak_q):
    # arr sorted along axis 0 (NaN last), n = arr.shape[0] > 0: the
    # quantiles, shape q.shape + arr.shape[1:].
    n = arr.shape[0]
    if method == "inverted_cdf":
        return take(arr, _q_boundary(n * q - 1, False), axis=0)
    if method == "closest_observation":
        return take(arr, _q_boundary(n * q - 1 - 0.5, True), axis=0)
    if method == "averaged_inverted_cdf":
        v = n * q - 1
    else:
        alpha, beta = _Q_ALPHA_BETA[method]
        v = n * q + (alpha + q * (1 - alpha - beta)) - 1
    v = asarray(v)
    prev = floor(v)
    nxt = prev + 1
    # Past either end both neighbours are the end element (NumPy's _get_indexes).
    prev = where(v >= n - 1, -1, where(v < 0, 0, prev)).astype(intp)
    nxt = where(v >= n - 1, -1, where(v < 0, 0, nxt)).astype(intp)
    gamma = v - prev
    if method == "averaged_inverted_cdf":
        gamma = where(gamma == 0, 0.5, 1.0)
    gamma = gamma.astype(v.dtype)
    a = arr[prev]
    b = arr[nxt]
    d = b - a
    if weak_q:
        # A Python q is weak: float32 data give float32 quantiles.
        t = float(gamma)
        return subtract(b, d * (1 - t)) if t >= 0.5 else add(a, d * t)
    t = gamma.reshape(v.shape + (1,) * (arr.ndim - 1))
    lo = add(a, d * t)
    return where(t >= 0.5, subtract(b, d * (1 - t)).astype(lo.dtype), lo)


def _q_weighted(arr, w, q):
    # inverted_cdf of each column of arr (n, ...) under weights w (same shape),
    # as NumPy's weighted _quantile: the first value whose cdf reaches q.
    order = argsort(arr, axis=0)
    arr = take_along_axis(arr, order, axis=0)
    w = take_along_axis(w, order, axis=0)
    cdf = w.cumsum(axis=0, dtype=float64)
    cdf = cdf / cdf[-1]
    if isnan(cdf[-1]).any():
        raise ValueError("Weights included NaN, inf or were all zero.")
    if q.dtype.kind == "f":
        cdf = cdf.astype(q.dtype)
    if (cdf[0] == 0).any():
        cdf[cdf == 0] = -1
    rest = arr.shape[1:]
    result = empty(q.shape + rest, dtype=arr.dtype)
    for kk in ndindex(rest):
        col = (slice(None),) + kk
        idx = minimum(searchsorted(cdf[col], q, side="left"), arr.shape[0] - 1)
        result[(Ellipsis,) + kk] = take(arr[col], idx, axis=0)
    return result, arr


def _q_along0(arr, q, method, weak_q, w):
    # NumPy's _quantile over axis 0 of arr (n > 0), NaN-holding columns NaN.
    if w is None:
        arr = sort(arr, axis=0)
        result = _q_sorted(arr, q, method, weak_q)
        if asarray(result).ndim == 0:
            result = asarray(result)[()]
    else:
        result, arr = _q_weighted(arr, w, q)
    if arr.dtype.kind == "f":
        nans = isnan(arr[-1])
        if nans.any():
            if result.ndim == 0:
                return arr[-1]
            copyto(result, arr[-1], where=nans)
    return result


def _q_axes(a, axis):
    # The reduced axes, normalized and checked as NumPy's normalize_axis_tuple.
    if axis is None:
        return tuple(range(a.ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(_axis_index(int(ax), a.ndim) for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    return axes


def _q_generic(a, q, axis, out, method, keepdims, weights, weak_q, skip_nan):
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    if method not in _Q_METHODS:
        raise ValueError(repr(method) + " is not a valid method. Use one of: dict_keys(" + str(list(_Q_METHODS)) + ")")
    axes = _q_axes(a, axis)
    rest = tuple(d for d in range(a.ndim) if d not in axes)
    rest_shape = tuple(a.shape[d] for d in rest)
    # The reduced axes merged into axis 0 (their order does not matter to a quantile).
    arr = transpose(a, axes + rest).reshape((math.prod(a.shape[d] for d in axes),) + rest_shape)
    w = None
    if weights is not None:
        w = transpose(broadcast_to(weights, a.shape), axes + rest).reshape(arr.shape)
    if skip_nan:
        result = None
        for kk in ndindex(rest_shape):
            col = arr[(slice(None),) + kk]
            keep = ~isnan(col)
            col = col[keep]
            if col.size == 0:
                r = full(q.shape, nan, dtype=col.dtype)[()]
            else:
                r = _q_along0(col, q, method, weak_q, None if w is None else w[(slice(None),) + kk][keep])
            if rest_shape == ():
                result = r
            else:
                # apply_along_axis: the first column's result sets the dtype.
                if result is None:
                    result = empty(q.shape + rest_shape, dtype=asarray(r).dtype)
                result[(Ellipsis,) + kk] = r
    else:
        if arr.shape[0] == 0:
            raise IndexError("index -1 is out of bounds for axis 0 with size 0")
        result = _q_along0(arr, q, method, weak_q, w)
    if keepdims:
        result = asarray(result).reshape(q.shape + tuple(1 if d in axes else a.shape[d] for d in range(a.ndim)))
    if out is not None:
        out[...] = result
        return out
    return result


def _q_entry(a, q, axis, out, overwrite_input, method, keepdims, weights, scale, skip_nan, native):
    if weights is None and method in _Q_NATIVE:
        return native(a, q, axis, out, overwrite_input, method, keepdims)
    a = asarray(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    weak_q = type(q) in (int, float)
    q = asarray(q if scale == 1 else true_divide(q, 100))
    if not (q.size == 0 or (q.min() >= 0 and q.max() <= 1)):
        raise ValueError("Quantiles must be in the range [0, 1]" if scale == 1 else "Percentiles must be in the range [0, 100]")
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError("Only method 'inverted_cdf' supports weights. Got: " + str(method) + ".")
        weights = asarray(weights)
        if weights.shape != a.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            axes = _q_axes(a, axis)
            if weights.shape != tuple(a.shape[ax] for ax in axes):
                raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
            weights = weights.transpose(tuple(sorted(range(len(axes)), key=lambda i: axes[i])))
            weights = weights.reshape(tuple(s if ax in axes else 1 for ax, s in enumerate(a.shape)))
        if (weights < 0).any():
            raise ValueError("Weights must be non-negative.")
    if skip_nan and a.size == 0:
        # NumPy: nanmean(a, axis, out, keepdims), whatever q and method.
        return native(a, q, axis, out, False, "linear", keepdims)
    return _q_generic(a, q, axis, out, method, keepdims, weights, weak_q, skip_nan)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    return _q_entry(a, q, axis, out, overwrite_input, method, keepdims, weights, 1, False, _native_quantile)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    return _q_entry(a, q, axis, out, overwrite_input, method, keepdims, weights, 100, False, _native_percentile)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    return _q_entry(a, q, axis, out, overwrite_input, method, keepdims, weights, 1, True, _native_nanquantile)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None):
    return _q_entry(a, q, axis, out, overwrite_input, method, keepdims, weights, 100, True, _native_nanpercentile)
