# max, min, argmax and argmin of complex arrays (numpy/reduce.cpp calls these):
# NumPy's order is lexicographic (the real parts, then the imaginary ones) and
# the first element with a NaN part wins. Built from real reductions, so they
# run fused on either backend.


def _complex_extreme_index(a, axis, is_max):
    # The index along `axis` of the first extreme element (or the first NaN).
    r = a.real
    i = a.imag
    bad = isnan(r) | isnan(i)
    fill = -inf if is_max else inf
    rr = where(bad, fill, r)
    best_r = rr.max(axis=axis, keepdims=True) if is_max else rr.min(axis=axis, keepdims=True)
    on_r = (rr == best_r) & ~bad
    ii = where(on_r, i, fill)
    best_i = ii.max(axis=axis, keepdims=True) if is_max else ii.min(axis=axis, keepdims=True)
    hit = on_r & (ii == best_i)
    return where(bad.any(axis=axis), argmax(bad, axis=axis), argmax(hit, axis=axis))


def _complex_axis(x, nd):
    x = int(x)
    if x < -nd or x >= nd:
        raise AxisError("axis " + str(x) + " is out of bounds for array of dimension " + str(nd))
    return x % nd if nd else 0


def _complex_extreme(a, axis, keepdims, is_max, want_index, out, initial):
    name = ("arg" if want_index else "") + ("max" if is_max else "min")
    if want_index and initial is not None:
        raise TypeError(name + "() got an unexpected keyword argument 'initial'")
    nd = a.ndim
    if axis is None:
        axes = tuple(range(nd))
    elif isinstance(axis, tuple):
        axes = tuple(_complex_axis(x, nd) for x in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
    else:
        axes = (_complex_axis(axis, nd),)
    if want_index and axis is None:
        flat = a.ravel()
        if flat.size == 0:
            raise ValueError("attempt to get " + name + " of an empty sequence")
        r = _complex_extreme_index(flat, 0, is_max)
        if keepdims:
            r = r.reshape((1,) * nd)
        return _complex_store(r, out)
    kept = [d for d in range(nd) if d not in axes]
    span = 1
    for d in axes:
        span *= a.shape[d]
    if span == 0 and initial is None:
        if want_index:
            raise ValueError("attempt to get " + name + " of an empty sequence")
        raise ValueError("zero-size array to reduction operation " + ("maximum" if is_max else "minimum") + " which has no identity")
    # The reduced axes last, as one.
    moved = transpose(a, kept + list(axes)).reshape(tuple(a.shape[d] for d in kept) + (span,))
    if want_index:
        r = _complex_extreme_index(moved, -1, is_max)
    elif span == 0:
        r = full(tuple(a.shape[d] for d in kept), initial, dtype=a.dtype)
    else:
        idx = _complex_extreme_index(moved, -1, is_max)
        r = take_along_axis(moved, expand_dims(idx, -1), -1)[..., 0]
        if initial is not None:
            r = maximum(r, initial) if is_max else minimum(r, initial)
    if keepdims:
        r = expand_dims(r, axes)
    if r.ndim == 0 and out is None:
        r = r[()]
    return _complex_store(r, out)


def _complex_store(r, out):
    if out is None:
        return r
    copyto(out, r)
    return out
