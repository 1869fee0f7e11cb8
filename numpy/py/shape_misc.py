# More of NumPy's namespace built from gpy's array functions: cumulative_sum
# and cumulative_prod (the array API's), block, unstack, copyto,
# common_type, broadcast_shapes, isdtype, require, base_repr, binary_repr,
# the window functions, histogram and histogram_bin_edges, the unique_*
# family (NumPy 2's named results), polynomial helpers (poly, polyval,
# polyadd, polysub, polymul, polyder, polyint), array_repr and array_str.
# (Python's max, min, sum, abs, any, all, round and bool are NumPy's here.)
import math


def _cumulative(fn, x, axis, dtype, out, include_initial, initial):
    x = asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        axis = 0
    if x.ndim == 0:
        raise ValueError("The input must be at least one-dimensional")
    r = fn(x, axis=axis, dtype=dtype)
    if include_initial:
        shape = list(r.shape)
        ax = axis + x.ndim if axis < 0 else axis
        shape[ax] = 1
        r = concatenate((full(tuple(shape), initial, dtype=r.dtype), r), axis=ax)
    if out is not None:
        out[...] = r
        return out
    return r


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative(cumsum, x, axis, dtype, out, include_initial, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative(cumprod, x, axis, dtype, out, include_initial, 1)


def _block_depth(arrays, index):
    # The nesting depth of the lists, checked to be the same everywhere.
    if isinstance(arrays, tuple):
        raise TypeError("arrays is a tuple. Only lists can be used to arrange blocks, and np.block does not allow implicit conversion from tuple to ndarray.")
    if not isinstance(arrays, list):
        return 0, index
    if len(arrays) == 0:
        raise ValueError("List at arrays" + "".join("[" + str(i) + "]" for i in index) + " cannot be empty")
    depths = [_block_depth(a, index + [i]) for i, a in enumerate(arrays)]
    first = depths[0][0]
    for d, idx in depths:
        if d != first:
            raise ValueError("List depths are mismatched. First element was at depth " + str(first + len(index) + 1) +
                             ", but there is an element at depth " + str(d + len(index) + 1) +
                             " (arrays" + "".join("[" + str(i) + "]" for i in idx) + ")")
    return first + 1, index


def _block(arrays, depth, max_depth, result_ndim):
    if depth < max_depth:
        parts = [_block(a, depth + 1, max_depth, result_ndim) for a in arrays]
        return concatenate(parts, axis=-(max_depth - depth))
    a = asarray(arrays)
    while a.ndim < result_ndim:
        a = a[newaxis]
    return a


def block(arrays):
    depth, _ = _block_depth(arrays, [])
    list_ndim = depth

    def max_ndim(a):
        if isinstance(a, list):
            m = 0
            for x in a:
                k = max_ndim(x)
                if k > m:
                    m = k
            return m
        return ndim(a)
    result_ndim = list_ndim if list_ndim > max_ndim(arrays) else max_ndim(arrays)
    if list_ndim == 0:
        return array(arrays)
    return _block(arrays, 0, list_ndim, result_ndim)


def unstack(x, /, *, axis=0):
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    return tuple(moveaxis(x, axis, 0))


def _kind_rank(kind):
    return {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}[kind]


def copyto(dst, src, casting="same_kind", where=True):
    if not isinstance(dst, ndarray):
        raise TypeError("copyto() argument 1 must be numpy.ndarray, not " + type(dst).__name__)
    s = asarray(src)
    weak = (isinstance(src, int) or isinstance(src, float) or isinstance(src, complex)) and not isinstance(src, generic)
    if casting != "unsafe":
        if weak:
            # A Python scalar casts by kind (NEP 50): a float into an integer array is refused.
            if _kind_rank(s.dtype.kind) > _kind_rank(dst.dtype.kind):
                raise TypeError("Cannot cast scalar from " + repr(s.dtype) + " to " + repr(dst.dtype) +
                                " according to the rule '" + casting + "'")
        elif not can_cast(s.dtype, dst.dtype, casting):
            raise TypeError("Cannot cast array data from " + repr(s.dtype) + " to " + repr(dst.dtype) +
                            " according to the rule '" + casting + "'")
    if where is True:
        dst[...] = src
    else:
        putmask(dst, broadcast_to(asarray(where, dtype=bool), dst.shape), broadcast_to(s, dst.shape).astype(dst.dtype))


def common_type(*arrays):
    is_complex = False
    precision = 0
    ranks = {"float16": 0, "float32": 1, "float64": 2}
    for a in arrays:
        t = asarray(a).dtype
        if t.kind == "c":
            is_complex = True
            p = 1 if t == complex64 else 2
        elif t.kind in "biu":
            if t.kind == "b":
                raise TypeError("can't get common type for non-numeric array")
            p = 2
        elif t.kind == "f":
            p = ranks[t.name]
        else:
            raise TypeError("can't get common type for non-numeric array")
        if p > precision:
            precision = p
    if is_complex:
        return complex64 if precision <= 1 else complex128
    return [float16, float32, float64][precision]


def broadcast_shapes(*args):
    shapes = [(s,) if isinstance(s, int) else tuple(s) for s in args]
    n = 0
    for s in shapes:
        if len(s) > n:
            n = len(s)
    out = [1] * n
    for k, s in enumerate(shapes):
        for i in range(len(s)):
            j = n - len(s) + i
            d = s[i]
            if d == 1:
                continue
            if out[j] == 1:
                out[j] = d
            elif out[j] != d:
                # NumPy names the first argument whose dimension disagrees.
                first = 0
                for kk, ss in enumerate(shapes):
                    jj = j - (n - len(ss))
                    if jj >= 0 and ss[jj] != 1:
                        first = kk
                        break
                raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg " +
                                 str(first) + " with shape " + str(shapes[first]) + " and arg " + str(k) + " with shape " + str(s) + ".")
    return tuple(out)


_ISDTYPE_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def isdtype(dtype, kind):
    dt = dtype if isinstance(dtype, type(float64(0).dtype)) else None
    if dt is None:
        if not isinstance(dtype, type) and not isinstance(dtype, type(float64(0).dtype)):
            raise TypeError("dtype argument must be a NumPy dtype, but it is a " + str(type(dtype)) + ".")
        dt = asarray(0, dtype=dtype).dtype
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str):
            if k not in _ISDTYPE_KINDS:
                raise ValueError("kind argument is a string, but " + repr(k) + " is not a known kind name.")
            if dt.kind in _ISDTYPE_KINDS[k]:
                return True
        else:
            if asarray(0, dtype=k).dtype == dt:
                return True
    return False


def require(a, dtype=None, requirements=None, *, like=None):
    if requirements is None:
        return asarray(a, dtype=dtype)
    reqs = set(r.upper() for r in ([requirements] if isinstance(requirements, str) else requirements))
    names = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
             "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}
    reqs = set(names[r] for r in reqs)
    if "C" in reqs and "F" in reqs:
        raise ValueError("Cannot specify both C and Fortran contiguous.")
    order = "C" if "C" in reqs else ("F" if "F" in reqs else "A")
    arr = asarray(a, dtype=dtype)
    if (order == "C" and not arr.flags.c_contiguous) or (order == "F" and not arr.flags.f_contiguous) or "O" in reqs:
        arr = arr.copy(order=order if order != "A" else "K")
    return arr


def base_repr(number, base=2, padding=0):
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if base > len(digits):
        raise ValueError("Bases greater than 36 not handled in base_repr.")
    if base < 2:
        raise ValueError("Bases less than 2 not handled in base_repr.")
    num = -number if number < 0 else number
    res = []
    while num:
        res.append(digits[num % base])
        num //= base
    if padding:
        res.append("0" * padding)
    if number < 0:
        res.append("-")
    return "".join(reversed(res)) or "0"


def binary_repr(num, width=None):
    num = int(num)
    if num == 0:
        return "0" * (width or 1)
    if num > 0:
        binary = bin(num)[2:]
        outwidth = len(binary) if width is None else (width if width > len(binary) else len(binary))
        if width is not None and width < len(binary):
            raise ValueError("Insufficient bit width=" + str(width) + " provided for binwidth=" + str(len(binary)))
        return binary.zfill(outwidth)
    if width is None:
        return "-" + bin(-num)[2:]
    poswidth = len(bin(-num)[2:])
    if 2 ** (poswidth - 1) == -num:
        poswidth -= 1
    twocomp = 2 ** (poswidth + 1) + num
    binary = bin(twocomp)[2:]
    binwidth = len(binary)
    outwidth = binwidth if binwidth > width else width
    if width < binwidth:
        raise ValueError("Insufficient bit width=" + str(width) + " provided for binwidth=" + str(binwidth))
    return "1" * (outwidth - binwidth) + binary


def _window(M, shape):
    # NumPy computes with M as a float64 (a NumPy unsigned M must not wrap
    # in 1 - M) over the points n = 1 - M, 3 - M, ..., M - 1.
    M = asarray([0.0, M])[1]
    if M < 1:
        return array([], dtype=float64)
    if M == 1:
        return ones(1, dtype=float64)
    return shape(arange(1 - M, M, 2), M - 1)


def bartlett(M):
    return _window(M, lambda n, d: where(less_equal(n, 0), 1 + n / d, 1 - n / d))


def hanning(M):
    return _window(M, lambda n, d: 0.5 + 0.5 * cos(pi * n / d))


def hamming(M):
    return _window(M, lambda n, d: 0.54 + 0.46 * cos(pi * n / d))


def blackman(M):
    return _window(M, lambda n, d: 0.42 + 0.5 * cos(pi * n / d) + 0.08 * cos(2.0 * pi * n / d))


def _hist_range(a, range):
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (math.isfinite(first) and math.isfinite(last)):
            raise ValueError("supplied range of [" + str(first) + ", " + str(last) + "] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        first, last = a.min(), a.max()
        if not (isfinite(first) and isfinite(last)):
            raise ValueError("autodetected range of [" + str(first) + ", " + str(last) + "] is not finite")
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


def _unsigned_subtract(a, b):
    # a - b of integers in the unsigned type, so a signed range does not overflow.
    dt = result_type(a, b)
    if dt.kind != "i":
        return subtract(a, b, dtype=dt)
    u = {1: uint8, 2: uint16, 4: uint32, 8: uint64}[dt.itemsize]
    return subtract(asarray(a, dtype=dt).astype(u), asarray(b, dtype=dt).astype(u))


def _ptp(x):
    return _unsigned_subtract(x.max(), x.min())


def _hist_bin_stone(x, first, last):
    n = x.size
    ptp_x = _ptp(x)
    if n <= 1 or ptp_x == 0:
        return 0
    best = None
    # The bin count minimizing the estimated L2 risk (the first of equals).
    for nbins in range(1, int(maximum(100, int(sqrt(n)))) + 1):
        p_k = histogram(x, bins=nbins, range=(first, last))[0] / n
        j = (2 - (n + 1) * p_k.dot(p_k)) / (ptp_x / nbins)
        if best is None or j < best_j:
            best, best_j = nbins, j
    return ptp_x / best


def _hist_bin_doane(x):
    if x.size > 2:
        sg1 = sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
        sigma = std(x)
        if sigma > 0.0:
            g1 = mean(power((x - mean(x)) / sigma, 3))
            return _ptp(x) / (1.0 + log2(x.size) + log2(1.0 + absolute(g1) / sg1))
    return 0.0


def _hist_bin_fd(x):
    iqr = subtract(*percentile(x, [75, 25]))
    return 2.0 * iqr * x.size ** (-1.0 / 3.0)


def _hist_bin_width(name, x, first, last):
    # NumPy's _hist_bin_* estimators of the bin width.
    if name == "sqrt":
        return _ptp(x) / sqrt(x.size)
    if name == "sturges":
        return _ptp(x) / (log2(x.size) + 1.0)
    if name == "rice":
        return _ptp(x) / (2.0 * x.size ** (1.0 / 3))
    if name == "scott":
        return (24.0 * pi ** 0.5 / x.size) ** (1.0 / 3.0) * std(x)
    if name == "stone":
        return _hist_bin_stone(x, first, last)
    if name == "doane":
        return _hist_bin_doane(x)
    if name == "fd":
        return _hist_bin_fd(x)
    # auto: fd, limited by sqrt and sturges (Python's max and min, which keep
    # the winner's dtype; the module's max and min are NumPy's).
    fd_bw = _hist_bin_fd(x)
    half_sqrt = _ptp(x) / sqrt(x.size) / 2
    sturges_bw = _ptp(x) / (log2(x.size) + 1.0)
    fd_bw = half_sqrt if half_sqrt > fd_bw else fd_bw
    return sturges_bw if sturges_bw < fd_bw else fd_bw


def _hist_ravel(a, weights):
    a = asarray(a)
    if a.dtype == bool:
        a = a.astype(uint8)
    if weights is not None:
        weights = asarray(weights)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        weights = weights.ravel()
    return a.ravel(), weights


def _hist_edges(a, bins, range, weights):
    # NumPy's _get_bin_edges: the edges, and the bin count when they are uniform.
    if isinstance(bins, str):
        if bins not in ("stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges"):
            raise ValueError(repr(bins) + " is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
        first, last = _hist_range(a, range)
        if range is not None:
            a = a[(a >= first) & (a <= last)]
        n = 1
        if a.size > 0:
            width = _hist_bin_width(bins, a, first, last)
            if width:
                if a.dtype.kind in "iu" and width < 1:
                    width = 1
                n = int(ceil(_unsigned_subtract(last, first) / width))
    elif ndim(bins) == 0:
        if asarray(bins).dtype.kind not in "biu":
            raise TypeError("`bins` must be an integer, a string, or an array")
        n = int(bins)
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _hist_range(a, range)
    elif ndim(bins) == 1:
        edges = asarray(bins)
        if (edges[:-1] > edges[1:]).any():
            raise ValueError("`bins` must increase monotonically, when an array")
        return edges, None
    else:
        raise ValueError("`bins` must be 1d, when an array")
    dtype = result_type(first, last, a)
    if dtype.kind in "biu":
        dtype = float64
    edges = linspace(first, last, n + 1, endpoint=True, dtype=dtype)
    if (edges[:-1] >= edges[1:]).any():
        raise ValueError("Too many bins for data range. Cannot create " + str(n) + " finite-sized bins.")
    return edges, n


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a, weights = _hist_ravel(a, weights)
    return _hist_edges(a, bins, range, weights)[0]


def histogram(a, bins=10, range=None, density=None, weights=None):
    a, w = _hist_ravel(a, weights)
    edges, n = _hist_edges(a, bins, range, w)
    if n is not None:
        # Uniform bins: NumPy's index arithmetic, then the edge corrections.
        first = edges[0]
        last = edges[-1]
        data, wk = a, w
        # The autodetected range holds every element; a given one is checked
        # (and the data compacted only when some element falls outside).
        if range is not None:
            keep = (a >= first) & (a <= last)
            if not keep.all():
                data = a[keep]
                wk = None if w is None else w[keep]
        norm_n = n / (last - first)
        # Unweighted counts in one pass (numpy/histogram.cpp), the same arithmetic.
        counts = None if wk is not None else _histogram_uniform(data, edges, n, first, norm_n)
        if counts is None:
            f_idx = (data.astype(edges.dtype) - first) * norm_n
            idx = f_idx.astype(intp)
            idx = where(idx == n, n - 1, idx)
            dec = data < edges[idx]
            idx = where(dec, idx - 1, idx)
            inc = (data >= edges[idx + 1]) & (idx != n - 1)
            idx = where(inc, idx + 1, idx)
            if wk is None:
                counts = bincount(idx, minlength=n).astype(intp)
            else:
                counts = zeros(n, dtype=wk.dtype)
                add.at(counts, idx, wk)
    else:
        order = argsort(a, kind="stable")
        sa = a[order]
        if w is None:
            cum = concatenate((searchsorted(sa, edges[:-1], side="left"), searchsorted(sa, edges[-1:], side="right")))
            counts = diff(cum).astype(intp)
        else:
            sw = w[order]
            cw = concatenate((zeros(1, dtype=sw.dtype), sw.cumsum()))
            cum = concatenate((searchsorted(sa, edges[:-1], side="left"), searchsorted(sa, edges[-1:], side="right")))
            counts = diff(cw[cum])
    if density:
        db = diff(edges).astype(float64)
        return counts / db / counts.sum(), edges
    return counts, edges


def unique_values(x):
    return unique(x, equal_nan=False)


def unique_counts(x):
    values, counts = unique(x, return_counts=True, equal_nan=False)
    return _named_tuple("UniqueCountsResult", ("values", "counts"), (values, counts))


def unique_inverse(x):
    x = asarray(x)
    values, inverse = unique(x, return_inverse=True, equal_nan=False)
    return _named_tuple("UniqueInverseResult", ("values", "inverse_indices"), (values, inverse.reshape(x.shape)))


def unique_all(x):
    x = asarray(x)
    values, indices, inverse, counts = unique(x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    return _named_tuple("UniqueAllResult", ("values", "indices", "inverse_indices", "counts"),
                        (values, indices, inverse.reshape(x.shape), counts))


def poly(seq_of_zeros):
    seq = asarray(seq_of_zeros)
    if seq.ndim == 2 and seq.shape[0] == seq.shape[1] and seq.shape[0] != 0:
        seq = linalg.eigvals(seq)  # a matrix: its characteristic polynomial
    if seq.ndim != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if seq.size == 0:
        return 1.0
    dt = result_type(seq, float64) if seq.dtype.kind != "c" else seq.dtype
    a = ones((1,), dtype=dt)
    for z in seq.astype(dt):  # in dt: -z of an unsigned root must not wrap
        a = convolve(a, array([1, -z], dtype=dt), mode="full")
    if a.dtype.kind == "c":
        roots = seq.astype(complex128)
        pos = roots[roots.imag > 0]
        neg = conjugate(roots[roots.imag < 0])
        pos = pos[lexsort((pos.imag, pos.real))]  # NumPy's complex order, by real then imaginary part
        neg = neg[lexsort((neg.imag, neg.real))]
        if len(pos) == len(neg) and (pos == neg).all():
            a = a.real.copy()
    return a


def polyval(p, x):
    p = asarray(p)
    x = asarray(x)
    y = zeros_like(x)
    for pv in p:
        y = y * x + pv
    return y


def _aligned(a1, a2):
    # Two coefficient arrays padded with leading zeros to one length.
    a1 = atleast_1d(asarray(a1))
    a2 = atleast_1d(asarray(a2))
    d = len(a2) - len(a1)
    if d > 0:
        a1 = concatenate((zeros(d, a1.dtype), a1))
    elif d < 0:
        a2 = concatenate((zeros(-d, a2.dtype), a2))
    return a1, a2


def polyadd(a1, a2):
    a1, a2 = _aligned(a1, a2)
    return a1 + a2


def polysub(a1, a2):
    a1, a2 = _aligned(a1, a2)
    return a1 - a2


def _poly1d_coeffs(a):
    # NumPy's poly1d form: leading zeros dropped, at least one coefficient.
    a = atleast_1d(asarray(a))
    nz = flatnonzero(a)
    if nz.size == 0:
        return zeros(1, dtype=a.dtype)
    return a[int(nz[0]):]


def polymul(a1, a2):
    return convolve(_poly1d_coeffs(a1), _poly1d_coeffs(a2))


def polyder(p, m=1):
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = asarray(p)
    n = len(p) - 1
    y = p[:-1] * arange(n, 0, -1)
    if m == 0:
        return p
    return polyder(y, m - 1)


def polyint(p, m=1, k=None):
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = zeros(m, float64)
    k = atleast_1d(asarray(k))
    if len(k) == 1 and m > 1:
        k = k[0] * ones(m, float64)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = asarray(p)
    if m == 0:
        return p
    y = concatenate((p / arange(len(p), 0, -1), [k[0]]))
    return polyint(y, m - 1, k=k[1:])


