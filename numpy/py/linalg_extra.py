# np.linalg beyond its native core (numpy/linalg_module.cpp): NumPy 2's
# named result tuples (EighResult, QRResult, SVDResult, SlogdetResult) and
# the functions built from the core (cond, matrix_power, multi_dot,
# svdvals, vector_norm, matrix_norm, tensorinv, tensorsolve) and from the
# array functions (cross, diagonal, matmul, outer, tensordot, trace,
# vecdot, matrix_transpose). Names here start with "_": they are attached
# to np.linalg at the end, not to np. (Python's max, min, abs, sum, ... are
# NumPy's here.)

_core_eigh = linalg.eigh
_core_eig = linalg.eig
_core_qr = linalg.qr
_core_svd = linalg.svd
_core_slogdet = linalg.slogdet


def _linalg_eigh(a, UPLO="L"):
    w, v = _core_eigh(a, UPLO)
    return _named_tuple("EighResult", ("eigenvalues", "eigenvectors"), (w, v))


def _linalg_eig(a):
    w, v = _core_eig(a)
    return _named_tuple("EigResult", ("eigenvalues", "eigenvectors"), (w, v))


def _linalg_qr(a, mode="reduced"):
    r = _core_qr(a, mode)
    if isinstance(r, tuple) and len(r) == 2:
        return _named_tuple("QRResult", ("Q", "R"), r)
    return r


def _linalg_svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    r = _core_svd(a, full_matrices, compute_uv, hermitian)
    if compute_uv:
        return _named_tuple("SVDResult", ("U", "S", "Vh"), r)
    return r


def _linalg_slogdet(a):
    sign, logdet = _core_slogdet(a)
    return _named_tuple("SlogdetResult", ("sign", "logabsdet"), (sign, logdet))


def _assert_stacked_square(a):
    if a.ndim < 2:
        raise linalg.LinAlgError(str(a.ndim) + "-dimensional array given. Array must be at least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise linalg.LinAlgError("Last 2 dimensions of the array must be square")


def _linalg_matrix_power(a, n):
    a = asarray(a)
    _assert_stacked_square(a)
    if not isinstance(n, int) and not (isinstance(n, integer)):
        raise TypeError("exponent must be an integer")
    n = int(n)
    if n == 0:
        r = empty_like(a)
        r[...] = eye(a.shape[-2], dtype=a.dtype)
        return r
    if n < 0:
        a = linalg.inv(a)
        n = -n
    if n == 1:
        return a.copy()
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    # Binary decomposition, squaring as NumPy does (the same products, in its order).
    z = None
    result = None
    while n > 0:
        z = a if z is None else matmul(z, z)
        bit = n % 2
        n = n // 2
        if bit:
            result = z if result is None else matmul(result, z)
    return result


def _linalg_svdvals(x, /):
    return _core_svd(x, compute_uv=False)


def _linalg_vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    x = asarray(x)
    shape = list(x.shape)
    if axis is None:
        x = x.ravel()
        norm_axis = 0
    elif isinstance(axis, tuple):
        norm_axes = tuple(a + x.ndim if a < 0 else a for a in axis)
        rest = tuple(i for i in range(x.ndim) if i not in norm_axes)
        x = transpose(x, rest + norm_axes)
        x = x.reshape(tuple(shape[i] for i in rest) + (-1,))
        norm_axis = len(rest)
    else:
        norm_axis = axis
    res = linalg.norm(x, axis=norm_axis, ord=ord)
    if keepdims:
        if axis is None:
            res = res.reshape((1,) * len(shape))
        else:
            axes = axis if isinstance(axis, tuple) else (axis,)
            for a in sorted(a + len(shape) if a < 0 else a for a in axes):
                res = expand_dims(res, a)
    return res


def _linalg_matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return linalg.norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)


def _linalg_cond(x, p=None):
    x = asarray(x)
    if x.size == 0:
        raise linalg.LinAlgError("cond is not defined on empty arrays")
    if p is None or p == 2 or p == -2:
        s = _core_svd(x, compute_uv=False)
        if p == -2:
            r = s[..., -1] / s[..., 0]
        else:
            r = s[..., 0] / s[..., -1]
    else:
        _assert_stacked_square(x)
        try:
            inv_x = linalg.inv(x)
        except linalg.LinAlgError:
            inv_x = full_like(x, nan)
        r = linalg.norm(x, p, axis=(-2, -1)) * linalg.norm(inv_x, p, axis=(-2, -1))
    # A singular matrix (NaN from 0/0 or the failed inverse) has infinite condition.
    nan_mask = isnan(r)
    if nan_mask.any():
        orig_nan = isnan(x).any(axis=(-2, -1))
        r = where(nan_mask & logical_not(orig_nan), inf, r)
    return r[()] if r.ndim == 0 else r


def _multi_dot_three(A, B, C):
    a0, a1b0 = A.shape
    b1c0, c1 = C.shape
    cost1 = a0 * b1c0 * (a1b0 + c1)
    cost2 = a1b0 * c1 * (a0 + b1c0)
    if cost1 < cost2:
        return dot(dot(A, B), C)
    return dot(A, dot(B, C))


def _chain_order(arrays):
    n = len(arrays)
    p = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    m = [[0] * n for i in range(n)]
    s = [[0] * n for i in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            m[i][j] = inf
            for k in range(i, j):
                q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < m[i][j]:
                    m[i][j] = q
                    s[i][j] = k
    return s


def _chain_product(arrays, order, i, j):
    if i == j:
        return arrays[i]
    return dot(_chain_product(arrays, order, i, order[i][j]), _chain_product(arrays, order, order[i][j] + 1, j))


def _linalg_multi_dot(arrays, *, out=None):
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return dot(arrays[0], arrays[1], out=out) if out is not None else dot(arrays[0], arrays[1])
    arrays = [asarray(a) for a in arrays]
    ndim_first = arrays[0].ndim
    ndim_last = arrays[-1].ndim
    if ndim_first == 1:
        arrays[0] = arrays[0][newaxis, :]
    if ndim_last == 1:
        arrays[-1] = arrays[-1][:, newaxis]
    for a in arrays:
        if a.ndim != 2:
            raise linalg.LinAlgError(str(a.ndim) + "-dimensional array given. Array must be two-dimensional")
    if n == 3:
        result = _multi_dot_three(arrays[0], arrays[1], arrays[2])
    else:
        result = _chain_product(arrays, _chain_order(arrays), 0, n - 1)
    if ndim_first == 1 and ndim_last == 1:
        return result[0, 0]
    if ndim_first == 1 or ndim_last == 1:
        return result.ravel()
    return result


def _linalg_tensorinv(a, ind=2):
    a = asarray(a)
    oldshape = a.shape
    prod = 1
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = oldshape[ind:] + oldshape[:ind]
    for k in oldshape[ind:]:
        prod *= k
    a = a.reshape((prod, -1))
    ia = linalg.inv(a)
    return ia.reshape(invshape)


def _linalg_tensorsolve(a, b, axes=None):
    a = asarray(a)
    b = asarray(b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = a.transpose(allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    prod = 1
    for k in oldshape:
        prod *= k
    if a.size != prod * prod:
        raise linalg.LinAlgError("Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    a = a.reshape((prod, prod))
    b = b.ravel()
    res = linalg.solve(a, b)
    return res.reshape(oldshape)


def _linalg_cross(x1, x2, /, *, axis=-1):
    x1 = asarray(x1)
    x2 = asarray(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are " +
                         str(x1.shape[axis]) + " and " + str(x2.shape[axis]) + " dimensional instead.")
    return cross(x1, x2, axis=axis)


def _linalg_diagonal(x, /, *, offset=0):
    return diagonal(x, offset=offset, axis1=-2, axis2=-1)


def _linalg_matmul(x1, x2, /):
    return matmul(x1, x2)


def _linalg_outer(x1, x2, /):
    x1 = asarray(x1)
    x2 = asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are x1.ndim=" + str(x1.ndim) + " and x2.ndim=" +
                         str(x2.ndim) + ".")
    return outer(x1, x2)


def _linalg_tensordot(x1, x2, /, *, axes=2):
    return tensordot(x1, x2, axes=axes)


def _linalg_trace(x, /, *, offset=0, dtype=None):
    return trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def vecdot(x1, x2, /, *, axis=-1):
    x1 = asarray(x1)
    x2 = asarray(x2)
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError("vecdot: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n),(n)->() (size " +
                         str(x2.shape[axis]) + " is different from " + str(x1.shape[axis]) + ")")
    a = moveaxis(x1, axis, -1)
    b = moveaxis(x2, axis, -1)
    if a.dtype.kind == "c":
        a = conj(a)
    return (a * b).sum(axis=-1, dtype=result_type(a, b))


def _linalg_vecdot(x1, x2, /, *, axis=-1):
    return vecdot(x1, x2, axis=axis)


linalg.eigh = _linalg_eigh
linalg.eig = _linalg_eig
linalg.qr = _linalg_qr
linalg.svd = _linalg_svd
linalg.slogdet = _linalg_slogdet
linalg.matrix_power = _linalg_matrix_power
linalg.svdvals = _linalg_svdvals
linalg.vector_norm = _linalg_vector_norm
linalg.matrix_norm = _linalg_matrix_norm
linalg.cond = _linalg_cond
linalg.multi_dot = _linalg_multi_dot
linalg.tensorinv = _linalg_tensorinv
linalg.tensorsolve = _linalg_tensorsolve
linalg.cross = _linalg_cross
linalg.diagonal = _linalg_diagonal
linalg.matmul = _linalg_matmul
linalg.outer = _linalg_outer
linalg.tensordot = _linalg_tensordot
linalg.trace = _linalg_trace
linalg.vecdot = _linalg_vecdot
linalg.matrix_transpose = matrix_transpose
