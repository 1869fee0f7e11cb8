# unique, searchsorted and the set operations of complex arrays (the C++
# versions in numpy/set_ops.cpp and numpy/searching.cpp sort by integer keys,
# which complex values lack; they call these instead). Built on the complex
# argsort, which has NumPy's order (real parts, then imaginary; NaNs last).


def _complex_unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True):
    ar = asarray(ar)
    if axis is not None:
        raise NotImplementedError("unique(axis=) of complex arrays is not supported yet")
    flat = ar.ravel()
    n = flat.size
    perm = argsort(flat, kind="stable")
    s = flat[perm]
    mask = ones(n, dtype=bool)
    if n > 1:
        mask[1:] = s[1:] != s[:-1]
        nans = isnan(s)
        if equal_nan and nans[-1]:
            # NaNs sort last: one stands for all of them.
            first = int(argmax(nans))
            mask[first] = True
            mask[first + 1:] = False
            if not (return_index or return_inverse or return_counts):
                # NumPy's hashing path keeps the first NaN of the input, not of the sorted order.
                s[first] = flat[int(argmax(isnan(flat)))]
    result = (s[mask],)
    if return_index:
        result += (perm[mask],)
    if return_inverse:
        inverse = empty(n, dtype=intp)
        inverse[perm] = cumsum(mask) - 1
        result += (inverse.reshape(ar.shape),)
    if return_counts:
        starts = concatenate((nonzero(mask)[0], [n]))
        result += (diff(starts),)
    return result[0] if len(result) == 1 else result


def _complex_searchsorted(a, v, side="left", sorter=None):
    a = asarray(a)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array")
    if side not in ("left", "right"):
        raise ValueError("side must be 'left' or 'right' (got " + repr(side) + ")")
    if sorter is not None:
        a = a[asarray(sorter)]
    vv = asarray(v)
    scalar = vv.ndim == 0
    q = vv.ravel().astype(result_type(a, vv))
    m = q.size
    # A stable sort of the queries with the array: a query before the array's
    # equal elements for 'left', after them for 'right'; its position among
    # the array's elements is then the count of those before it.
    left = side == "left"
    both = concatenate((q, a) if left else (a, q))
    order = argsort(both, kind="stable")
    is_query = (order < m) if left else (order >= a.size)
    before = cumsum(~is_query)
    result = empty(m, dtype=intp)
    qi = order[is_query] if left else order[is_query] - a.size
    result[qi] = before[is_query]
    if scalar:
        return result[0]
    return result.reshape(vv.shape)


def _complex_isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    e = asarray(element)
    t = _complex_unique(asarray(test_elements))
    if t.size == 0:
        found = zeros(e.shape, dtype=bool)
    else:
        pos = _complex_searchsorted(t, e.ravel())
        found = (pos < t.size) & (t[minimum(pos, t.size - 1)] == e.ravel())
        found = found.reshape(e.shape)
    return ~found if invert else found


def _complex_union1d(ar1, ar2):
    return _complex_unique(concatenate((asarray(ar1).ravel(), asarray(ar2).ravel())))


def _complex_intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    a = asarray(ar1).ravel()
    b = asarray(ar2).ravel()
    if return_indices:
        if assume_unique:
            ia = arange(a.size)
            ib = arange(b.size)
        else:
            a, ia = _complex_unique(a, return_index=True)
            b, ib = _complex_unique(b, return_index=True)
    elif not assume_unique:
        a = _complex_unique(a)
        b = _complex_unique(b)
    aux = concatenate((a, b))
    order = argsort(aux, kind="stable")
    s = aux[order]
    same = s[1:] == s[:-1]
    common = s[:-1][same]
    if not return_indices:
        return common
    i1 = order[:-1][same]
    i2 = order[1:][same] - a.size
    return common, ia[i1], ib[i2]


def _complex_setdiff1d(ar1, ar2, assume_unique=False):
    a = asarray(ar1).ravel() if assume_unique else _complex_unique(ar1)
    b = asarray(ar2).ravel() if assume_unique else _complex_unique(ar2)
    return a[_complex_isin(a, b, invert=True)]


def _complex_setxor1d(ar1, ar2, assume_unique=False):
    a = asarray(ar1).ravel() if assume_unique else _complex_unique(ar1)
    b = asarray(ar2).ravel() if assume_unique else _complex_unique(ar2)
    aux = sort(concatenate((a, b)))
    if aux.size == 0:
        return aux
    flag = concatenate(([True], aux[1:] != aux[:-1], [True]))
    return aux[flag[1:] & flag[:-1]]
