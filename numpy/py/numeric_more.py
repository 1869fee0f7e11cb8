# More of NumPy's functions written for gpy (NumPy 2 semantics): gradient,
# i0, kaiser, rollaxis, resize, polyfit, polydiv, histogram2d, histogramdd,
# packbits, unpackbits, matvec, vecmat (the 2.2 gufuncs, as functions) and
# einsum_path (NumPy's greedy and optimal searches and its printed report).
# NumPy's RankWarning from polyfit is not raised (gpy has no warnings).
# (Python's max, min, sum, abs, any, all and round are NumPy's here.)
_range = range


def _axes_tuple(axis, ndim):
    axes = tuple(_axis_index(a, ndim) for a in (axis if isinstance(axis, (tuple, list)) else [axis]))
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    return axes


def _op_index(x, what):
    # operator.index: Python and NumPy integers only.
    if isinstance(x, bool) or not isinstance(x, (int, integer)):
        raise TypeError(what)
    return int(x)


def gradient(f, *varargs, axis=None, edge_order=1):
    f = asarray(f)
    N = f.ndim
    axes = tuple(_range(N)) if axis is None else _axes_tuple(axis, N)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len(axes)
    elif n == 1 and ndim(varargs[0]) == 0:
        dx = list(varargs) * len(axes)
    elif n == len(axes):
        dx = list(varargs)
        for i in _range(n):
            d = asarray(dx[i])
            if d.ndim == 0:
                continue
            if d.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if len(d) != f.shape[axes[i]]:
                raise ValueError("when 1d, distances must match the length of the corresponding dimension")
            if d.dtype.kind in "iu":
                d = d.astype(float64)
            d = diff(d)
            dx[i] = d[0] if (d == d[0]).all() else d
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(float64)
        otype = float64
    outvals = []
    for ax, h in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) elements are required.")
        out = empty_like(f, dtype=otype)
        uniform = ndim(h) == 0

        def at(i):
            return f[_along(N, ax, i)]
        if uniform:
            out[_along(N, ax, slice(1, -1))] = (at(slice(2, None)) - at(slice(None, -2))) / (2. * h)
        else:
            dx1 = h[0:-1]
            dx2 = h[1:]
            shape = [1] * N
            shape[ax] = -1
            shape = tuple(shape)
            a = (-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            out[_along(N, ax, slice(1, -1))] = a * at(slice(None, -2)) + b * at(slice(1, -1)) + c * at(slice(2, None))
        if edge_order == 1:
            out[_along(N, ax, 0)] = (at(1) - at(0)) / (h if uniform else h[0])
            out[_along(N, ax, -1)] = (at(-1) - at(-2)) / (h if uniform else h[-1])
        else:
            if uniform:
                a, b, c = -1.5 / h, 2. / h, -0.5 / h
            else:
                dx1, dx2 = h[0], h[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            out[_along(N, ax, 0)] = a * at(0) + b * at(1) + c * at(2)
            if uniform:
                a, b, c = 0.5 / h, -2. / h, 1.5 / h
            else:
                dx1, dx2 = h[-2], h[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[_along(N, ax, -1)] = a * at(-3) + b * at(-2) + c * at(-1)
        outvals.append(out)
    return outvals[0] if len(axes) == 1 else tuple(outvals)


_i0A = [-4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16, 1.715391285555133e-15,
    -1.1685332877993451e-14, 7.676185498604936e-14, -4.856446783111929e-13, 2.95505266312964e-12,
    -1.726826291441556e-11, 9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
    -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07, 1.1173875391201037e-06,
    -4.4167383584587505e-06, 1.6448448070728896e-05, -5.754195010082104e-05, 0.00018850288509584165,
    -0.0005763755745385824, 0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
    -0.02373741480589947, 0.04930528423967071, -0.09490109704804764, 0.17162090152220877,
    -0.3046826723431984, 0.6767952744094761]
_i0B = [-7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17, 3.461222867697461e-17,
    -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15,
    -9.554846698828307e-15, -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
    7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
    -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10, 3.3962320257083865e-09,
    2.266668990498178e-08, 2.0489185894690638e-07, 2.8913705208347567e-06, 6.889758346916825e-05,
    0.0033691164782556943, 0.8044904110141088]


def _chbevl(x, vals):
    b0 = vals[0]
    b1 = 0.0
    for i in _range(1, len(vals)):
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + vals[i]
    return 0.5 * (b0 - b2)


def i0(x):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(float64)
    x = absolute(x)
    flat = x.reshape(-1)
    return piecewise(flat, [flat <= 8.0], [lambda t: exp(t) * _chbevl(t / 2.0 - 2, _i0A),
                                           lambda t: exp(t) * _chbevl(32.0 / t - 2.0, _i0B) / sqrt(t)]).reshape(x.shape)


def kaiser(M, beta):
    values = array([0.0, M, beta])
    M = values[1]
    beta = values[2]
    if M == 1:
        return ones(1, dtype=values.dtype)
    n = arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(beta)


def rollaxis(a, axis, start=0):
    n = a.ndim
    axis = _axis_index(axis, n)
    if start < 0:
        start += n
    if not (0 <= start < n + 1):
        raise AxisError("'start' arg requires " + str(-n) + " <= start < " + str(n + 1) + ", but " + str(start) + " was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(_range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return a.transpose(axes)


def resize(a, new_shape):
    if isinstance(new_shape, (int, integer)):
        new_shape = (new_shape,)
    a = ravel(a)
    new_size = 1
    for d in new_shape:
        new_size *= d
        if d < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    if a.size == 0 or new_size == 0:
        return zeros_like(a, shape=tuple(new_shape))
    repeats = (new_size + a.size - 1) // a.size
    return reshape(concatenate((a,) * repeats)[:new_size], tuple(new_shape))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    order = int(deg) + 1
    x = asarray(x) + 0.0
    y = asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, newaxis]
        rhs = rhs * (w[:, newaxis] if rhs.ndim == 2 else w)
    scale = sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if full:
        return c, resids, rank, s, rcond
    if cov:
        Vbase = linalg.inv(dot(lhs.T, lhs)) / outer(scale, scale)
        if isinstance(cov, str) and cov == "unscaled":
            fac = 1
        else:
            if len(x) <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = resids / (len(x) - order)
        return (c, Vbase * fac) if y.ndim == 1 else (c, Vbase[:, :, newaxis] * fac)
    return c


def polydiv(u, v):
    u = atleast_1d(u) + 0.0
    v = atleast_1d(v) + 0.0
    w = u[0] + v[0]
    m = len(u) - 1
    n = len(v) - 1
    scale = 1. / v[0]
    q = zeros((m - n + 1 if m - n + 1 > 1 else 1,), w.dtype)
    r = u.astype(w.dtype)
    for k in _range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while allclose(r[0], 0, rtol=1e-14) and (r.shape[-1] > 1):
        r = r[1:]
    return q, r


def _outer_edges(a, rng):
    if rng is not None:
        lo, hi = rng
        if lo > hi:
            raise ValueError("max must be larger than min in range parameter.")
        if not (isfinite(lo) and isfinite(hi)):
            raise ValueError("supplied range of [" + str(lo) + ", " + str(hi) + "] is not finite")
    elif a.size == 0:
        lo, hi = 0, 1
    else:
        lo, hi = a.min(), a.max()
        if not (isfinite(lo) and isfinite(hi)):
            raise ValueError("autodetected range of [" + str(lo) + ", " + str(hi) + "] is not finite")
    if lo == hi:
        lo = lo - 0.5
        hi = hi + 0.5
    return lo, hi


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    if isinstance(sample, ndarray) and sample.ndim == 2:
        N, D = sample.shape
    else:
        sample = atleast_2d(sample).T
        if sample.ndim != 2:
            raise ValueError("too many values to unpack (expected 2)")
        N, D = sample.shape
    edges = D * [None]
    dedges = D * [None]
    nbin = [0] * D
    if weights is not None:
        weights = asarray(weights)
    if isinstance(bins, (list, tuple)) or (isinstance(bins, ndarray) and bins.ndim > 0):
        if len(bins) != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    else:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    for i in _range(D):
        if ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError("`bins[" + str(i) + "]` must be positive, when an integer")
            smin, smax = _outer_edges(sample[:, i], range[i])
            n = _op_index(bins[i], "`bins[" + str(i) + "]` must be an integer, when a scalar")
            edges[i] = linspace(smin, smax, n + 1)
        elif ndim(bins[i]) == 1:
            edges[i] = asarray(bins[i])
            if (edges[i][:-1] > edges[i][1:]).any():
                raise ValueError("`bins[" + str(i) + "]` must be monotonically increasing, when an array")
        else:
            raise ValueError("`bins[" + str(i) + "]` must be a scalar or 1d array")
        nbin[i] = len(edges[i]) + 1
        dedges[i] = diff(edges[i])
    count = []
    for i in _range(D):
        c = searchsorted(edges[i], sample[:, i], side="right")
        c[sample[:, i] == edges[i][-1]] -= 1
        count.append(c)
    size = 1
    for b in nbin:
        size *= b
    xy = ravel_multi_index(tuple(count), tuple(nbin)) if N > 0 else zeros(0, dtype=intp)
    hist = bincount(xy, weights, minlength=size).reshape(tuple(nbin)).astype(float64)
    hist = hist[D * (slice(1, -1),)]
    if density:
        s = hist.sum()
        for i in _range(D):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            hist = hist / dedges[i].reshape(tuple(shape))
        hist = hist / s
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    N = len(bins) if isinstance(bins, (list, tuple)) or (isinstance(bins, ndarray) and bins.ndim > 0) else 1
    if N != 1 and N != 2:
        xedges = yedges = asarray(bins)
        bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


def _bitorder(bitorder, pack):
    if not isinstance(bitorder, str):
        raise TypeError(("pack() argument 3" if pack else "unpack() argument 4") + " must be str, not " + type(bitorder).__name__)
    if pack and bitorder != "little" and bitorder != "big":
        raise ValueError("'order' must be either 'little' or 'big'")
    if not pack and (bitorder[:1] != "l" and bitorder[:1] != "b"):
        raise ValueError("'order' must begin with 'l' or 'b'")
    return bitorder[:1] == "l"


def _bits_axis(a, axis):
    # The array with the axis moved last (a 0-d array counts as 1-d).
    if axis is None:
        return a.ravel(), 0
    if a.ndim == 0:
        a = a.reshape(1)
    axis = _axis_index(axis, a.ndim)
    return moveaxis(a, axis, -1), axis


def packbits(a, /, axis=None, bitorder="big"):
    little = _bitorder(bitorder, True)
    a = asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    b, axis = _bits_axis(a, axis)
    n = b.shape[-1]
    k = (n + 7) // 8
    bits = zeros(b.shape[:-1] + (k * 8,), dtype=uint8)
    bits[..., :n] = b != 0
    w = left_shift(uint8(1), arange(8, dtype=uint8) if little else arange(7, -1, -1, dtype=uint8))
    r = (bits.reshape(b.shape[:-1] + (k, 8)) * w).sum(axis=-1).astype(uint8)
    return moveaxis(r, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    little = _bitorder(bitorder, False)
    a = asarray(a)
    if a.dtype != uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    b, axis = _bits_axis(a, axis)
    shifts = arange(8, dtype=uint8) if little else arange(7, -1, -1, dtype=uint8)
    bits = ((b[..., newaxis] >> shifts) & uint8(1)).reshape(b.shape[:-1] + (b.shape[-1] * 8,))
    if count is not None:
        count = _op_index(count, "'" + type(count).__name__ + "' object cannot be interpreted as an integer")
        n = bits.shape[-1]
        if count < 0:
            if -count > n:
                raise ValueError("-count larger than number of elements")
            bits = bits[..., :n + count]
        elif count <= n:
            bits = bits[..., :count]
        else:
            bits = concatenate((bits, zeros(bits.shape[:-1] + (count - n,), dtype=uint8)), axis=-1)
    return moveaxis(bits, -1, axis)


def _shape_str(shape):
    return "(" + ",".join(str(s) for s in shape) + ")"


def _gufunc_vec(name, x1, x2, out, mat_first):
    # matvec (m,n),(n)->(m) and vecmat (n),(n,m)->(m): checks and messages of NumPy's gufuncs.
    sig = "(m,n),(n)->(m)" if mat_first else "(n),(n,m)->(m)"
    x1 = asarray(x1)
    x2 = asarray(x2)
    ops = (x1, x2)
    core = (2, 1) if mat_first else (1, 2)
    for i in _range(2):
        if ops[i].ndim < core[i]:
            raise ValueError(name + ": Input operand " + str(i) + " does not have enough dimensions (has " + str(ops[i].ndim) +
                             ", gufunc core with signature " + sig + " requires " + str(core[i]) + ")")
    n1 = x1.shape[-1]
    n2 = x2.shape[-1] if mat_first else x2.shape[-2]
    if n1 != n2:
        raise ValueError(name + ": Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " + sig +
                         " (size " + str(n2) + " is different from " + str(n1) + ")")
    m = x1.shape[-2] if mat_first else x2.shape[-1]
    l1 = x1.shape[:x1.ndim - core[0]]
    l2 = x2.shape[:x2.ndim - core[1]]
    for i in _range(1, (len(l1) if len(l1) > len(l2) else len(l2)) + 1):
        d1 = l1[-i] if i <= len(l1) else 1
        d2 = l2[-i] if i <= len(l2) else 1
        if d1 != d2 and d1 != 1 and d2 != 1:
            raise ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                             " ".join(_shape_str(o.shape) + "->" + _shape_str(l + ("newaxis",)) for o, l in ((x1, l1), (x2, l2))) +
                             "  and requested shape (" + str(m) + ")")
    cplx = x1.dtype.kind == "c" or x2.dtype.kind == "c"
    if not mat_first:
        x1, x2 = matrix_transpose(x2), conjugate(x1) if x1.dtype.kind == "c" else x1
    # gpy's matmul has no complex loop: multiply and sum there.
    r = (x1 * x2[..., newaxis, :]).sum(axis=-1) if cplx else matmul(x1, x2[..., newaxis])[..., 0]
    if out is None:
        return r
    out[...] = r
    return out


def matvec(x1, x2, /, out=None):
    return _gufunc_vec("matvec", x1, x2, out, True)


def vecmat(x1, x2, /, out=None):
    return _gufunc_vec("vecmat", x1, x2, out, False)


# einsum_path: NumPy's _core/einsumfunc.py (sets of labels; no itertools here).
_EINSUM_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _pairs(n):
    return [(i, j) for i in _range(n) for j in _range(i + 1, n)]


def _first_min(items):
    best = items[0]
    for it in items:
        if it[0] < best[0]:
            best = it
    return best


def _size_by_dict(indices, idx_dict):
    ret = 1
    for i in indices:
        ret *= idx_dict[i]
    return ret


def _flop_count(idx_contraction, inner, num_terms, size_dictionary):
    factor = num_terms - 1 if num_terms > 2 else 1
    if inner:
        factor += 1
    return _size_by_dict(idx_contraction, size_dictionary) * factor


def _find_contraction(positions, input_sets, output_set):
    idx_contract = set()
    idx_remain = output_set.copy()
    remaining = []
    for ind, value in enumerate(input_sets):
        if ind in positions:
            idx_contract |= value
        else:
            remaining.append(value)
            idx_remain |= value
    new_result = idx_remain & idx_contract
    remaining.append(new_result)
    return new_result, remaining, idx_contract - new_result, idx_contract


def _optimal_path(input_sets, output_set, idx_dict, memory_limit):
    full_results = [(0, [], input_sets)]
    for iteration in _range(len(input_sets) - 1):
        iter_results = []
        for cost, positions, remaining in full_results:
            for con in _pairs(len(input_sets) - iteration):
                new_result, new_input_sets, idx_removed, idx_contract = _find_contraction(con, remaining, output_set)
                if _size_by_dict(new_result, idx_dict) > memory_limit:
                    continue
                total = cost + _flop_count(idx_contract, idx_removed, len(con), idx_dict)
                iter_results.append((total, positions + [con], new_input_sets))
        if iter_results:
            full_results = iter_results
        else:
            return _first_min(full_results)[1] + [tuple(_range(len(input_sets) - iteration))]
    if len(full_results) == 0:
        return [tuple(_range(len(input_sets)))]
    return _first_min(full_results)[1]


def _parse_possible_contraction(positions, input_sets, output_set, idx_dict, memory_limit, path_cost, naive_cost):
    idx_result, new_input_sets, idx_removed, idx_contract = _find_contraction(positions, input_sets, output_set)
    new_size = _size_by_dict(idx_result, idx_dict)
    if new_size > memory_limit:
        return None
    removed_size = -new_size
    for p in positions:
        removed_size += _size_by_dict(input_sets[p], idx_dict)
    cost = _flop_count(idx_contract, idx_removed, len(positions), idx_dict)
    if (path_cost + cost) > naive_cost:
        return None
    return [(-removed_size, cost), positions, new_input_sets]


def _update_other_results(results, best):
    bx, by = best[1]
    mod_results = []
    for cost, (x, y), con_sets in results:
        if x in best[1] or y in best[1]:
            continue
        del con_sets[by - int(by > x) - int(by > y)]
        del con_sets[bx - int(bx > x) - int(bx > y)]
        con_sets.insert(-1, best[2][-1])
        mod_results.append((cost, (x - int(x > bx) - int(x > by), y - int(y > bx) - int(y > by)), con_sets))
    return mod_results


def _greedy_path(input_sets, output_set, idx_dict, memory_limit):
    if len(input_sets) == 1:
        return [(0,)]
    if len(input_sets) == 2:
        return [(0, 1)]
    idx_result, new_input_sets, idx_removed, idx_contract = _find_contraction(_range(len(input_sets)), input_sets, output_set)
    naive_cost = _flop_count(idx_contract, idx_removed, len(input_sets), idx_dict)
    comb_iter = _pairs(len(input_sets))
    known = []
    path_cost = 0
    path = []
    for iteration in _range(len(input_sets) - 1):
        for positions in comb_iter:
            if input_sets[positions[0]].isdisjoint(input_sets[positions[1]]):
                continue
            result = _parse_possible_contraction(positions, input_sets, output_set, idx_dict, memory_limit, path_cost, naive_cost)
            if result is not None:
                known.append(result)
        if len(known) == 0:
            for positions in _pairs(len(input_sets)):
                result = _parse_possible_contraction(positions, input_sets, output_set, idx_dict, memory_limit, path_cost, naive_cost)
                if result is not None:
                    known.append(result)
            if len(known) == 0:
                path.append(tuple(_range(len(input_sets))))
                break
        best = _first_min(known)
        known = _update_other_results(known, best)
        input_sets = best[2]
        new_pos = len(input_sets) - 1
        comb_iter = [(i, new_pos) for i in _range(new_pos)]
        path.append(best[1])
        path_cost += best[0][1]
    return path


def _einsum_labels(sub):
    s = ""
    for c in sub:
        if c is Ellipsis:
            s += "..."
        else:
            s += _EINSUM_SYMBOLS[_op_index(c, "For this input type lists must contain either int or Ellipsis")]
    return s


def _implicit_output(subscripts):
    tmp = subscripts.replace(",", "")
    out = ""
    for s in sorted(set(tmp)):
        if s not in _EINSUM_SYMBOLS:
            raise ValueError("Character " + s + " is not a valid symbol.")
        if tmp.count(s) == 1:
            out += s
    return out


def _parse_einsum_input(operands):
    if len(operands) == 0:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        subscripts = operands[0].replace(" ", "")
        operands = [asarray(v) for v in operands[1:]]
        for s in subscripts:
            if s not in ".,->" and s not in _EINSUM_SYMBOLS:
                raise ValueError("Character " + s + " is not a valid symbol.")
    else:
        k = len(operands) // 2
        subscripts = ",".join(_einsum_labels(operands[2 * p + 1]) for p in _range(k))
        if len(operands) % 2 == 1:
            subscripts += "->" + _einsum_labels(operands[-1])
        operands = [asarray(operands[2 * p]) for p in _range(k)]
    if ("-" in subscripts) or (">" in subscripts):
        if subscripts.count("-") > 1 or subscripts.count(">") > 1 or subscripts.count("->") != 1:
            raise ValueError("Subscripts can only contain one '->'.")
    if "." in subscripts:
        used = subscripts.replace(".", "").replace(",", "").replace("->", "")
        # NumPy takes the unused letters in set order; gpy takes them in order.
        ellipse_inds = "".join(c for c in _EINSUM_SYMBOLS if c not in used)
        longest = 0
        out_sub = "->" in subscripts
        if out_sub:
            input_tmp, output_sub = subscripts.split("->")
            split_subscripts = input_tmp.split(",")
        else:
            split_subscripts = subscripts.split(",")
        for num, sub in enumerate(split_subscripts):
            if "." in sub:
                if (sub.count(".") != 3) or (sub.count("...") != 1):
                    raise ValueError("Invalid Ellipses.")
                if operands[num].shape == ():
                    ellipse_count = 0
                else:
                    ellipse_count = (operands[num].ndim if operands[num].ndim > 1 else 1) - (len(sub) - 3)
                if ellipse_count > longest:
                    longest = ellipse_count
                if ellipse_count < 0:
                    raise ValueError("Ellipses lengths do not match.")
                elif ellipse_count == 0:
                    split_subscripts[num] = sub.replace("...", "")
                else:
                    split_subscripts[num] = sub.replace("...", ellipse_inds[-ellipse_count:])
        subscripts = ",".join(split_subscripts)
        out_ellipse = "" if longest == 0 else ellipse_inds[-longest:]
        if out_sub:
            subscripts += "->" + output_sub.replace("...", out_ellipse)
        else:
            normal = "".join(sorted(set(_implicit_output(subscripts)) - set(out_ellipse)))
            subscripts += "->" + out_ellipse + normal
    if "->" in subscripts:
        input_subscripts, output_subscript = subscripts.split("->")
    else:
        input_subscripts = subscripts
        output_subscript = _implicit_output(subscripts)
    for char in output_subscript:
        if output_subscript.count(char) != 1:
            raise ValueError("Output character " + char + " appeared more than once in the output.")
        if char not in input_subscripts:
            raise ValueError("Output character " + char + " did not appear in the input")
    if len(input_subscripts.split(",")) != len(operands):
        raise ValueError("Number of einsum subscripts must be equal to the number of operands.")
    return input_subscripts, output_subscript, operands


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    path_type = optimize
    if path_type is True:
        path_type = "greedy"
    if path_type is None:
        path_type = False
    explicit = False
    memory_limit = None
    if (path_type is False) or isinstance(path_type, str):
        pass
    elif len(path_type) and isinstance(path_type[0], str) and path_type[0] == "einsum_path":
        explicit = True
    elif len(path_type) == 2 and isinstance(path_type[0], str) and isinstance(path_type[1], (int, float)):
        memory_limit = int(path_type[1])
        path_type = path_type[0]
    else:
        raise TypeError("Did not understand the path: " + str(path_type))
    input_subscripts, output_subscript, operands = _parse_einsum_input(operands)
    input_list = input_subscripts.split(",")
    num_inputs = len(input_list)
    input_sets = [set(x) for x in input_list]
    output_set = set(output_subscript)
    indices = set(input_subscripts.replace(",", ""))
    num_indices = len(indices)
    dims = {}
    for tnum, term in enumerate(input_list):
        sh = operands[tnum].shape
        if len(sh) != len(term):
            raise ValueError("Einstein sum subscript " + input_subscripts[tnum] + " does not contain the correct number of indices for operand " + str(tnum) + ".")
        for cnum, char in enumerate(term):
            dim = sh[cnum]
            if char in dims:
                if dims[char] == 1:
                    dims[char] = dim
                elif dim != 1 and dim != dims[char]:
                    raise ValueError("Size of label '" + char + "' for operand " + str(tnum) + " (" + str(dims[char]) +
                                     ") does not match previous terms (" + str(dim) + ").")
            else:
                dims[char] = dim
    max_size = 0
    for term in input_list + [output_subscript]:
        sz = _size_by_dict(term, dims)
        max_size = sz if sz > max_size else max_size
    memory_arg = max_size if memory_limit is None else memory_limit
    if explicit:
        path = list(path_type[1:])
    elif (path_type is False) or num_inputs == 1 or num_inputs == 2 or indices == output_set:
        path = [tuple(_range(num_inputs))]
    elif path_type == "greedy":
        path = _greedy_path(input_sets, output_set, dims, memory_arg)
    elif path_type == "optimal":
        path = _optimal_path(input_sets, output_set, dims, memory_arg)
    else:
        raise KeyError("Path name %s not found", path_type)
    cost_list, scale_list, size_list, contraction_list = [], [], [], []
    for cnum, contract_inds in enumerate(path):
        contract_inds = tuple(sorted(contract_inds, reverse=True))
        out_inds, input_sets, idx_removed, idx_contract = _find_contraction(contract_inds, input_sets, output_set)
        if not einsum_call:
            cost_list.append(_flop_count(idx_contract, idx_removed, len(contract_inds), dims))
            scale_list.append(len(idx_contract))
            size_list.append(_size_by_dict(out_inds, dims))
        tmp_inputs = [input_list.pop(x) for x in contract_inds]
        if cnum == len(path) - 1:
            idx_result = output_subscript
        else:
            idx_result = "".join(x[1] for x in sorted([(dims[ind], ind) for ind in out_inds]))
        input_list.append(idx_result)
        contraction_list.append((contract_inds, ",".join(tmp_inputs) + "->" + idx_result, input_list[:]))
    if len(input_list) != 1:
        raise RuntimeError("Invalid einsum_path is specified: " + str(len(input_list) - 1) + " more operands has to be contracted.")
    if einsum_call:
        return operands, contraction_list
    inner = -num_indices
    for x in input_subscripts.split(","):
        inner += len(set(x))
    naive_cost = _flop_count(indices, inner > 0, num_inputs, dims)
    opt_cost = 1
    for c in cost_list:
        opt_cost += c
    max_scale = 0
    for s in scale_list:
        max_scale = s if s > max_scale else max_scale
    max_i = 0
    for s in size_list:
        max_i = s if s > max_i else max_i
    speedup = naive_cost / opt_cost
    p = "  Complete contraction:  " + input_subscripts + "->" + output_subscript + "\n"
    p += "         Naive scaling:  " + str(num_indices) + "\n"
    p += "     Optimized scaling:  %d\n" % max_scale
    p += f"      Naive FLOP count:  {float(naive_cost):.3e}\n"
    p += f"  Optimized FLOP count:  {float(opt_cost):.3e}\n"
    p += f"   Theoretical speedup:  {speedup:3.3f}\n"
    p += f"  Largest intermediate:  {float(max_i):.3e} elements\n"
    p += "-" * 74 + "\n"
    p += "%6s %24s %40s\n" % ("scaling", "current", "remaining")
    p += "-" * 74
    for n, (_, einsum_str, remaining) in enumerate(contraction_list):
        p += "\n%4d    %24s %40s" % (scale_list[n], einsum_str, ",".join(remaining) + "->" + output_subscript)
    return ["einsum_path"] + path, p
