# np.array_equiv, np.ndindex and np.ndenumerate (NumPy's numeric.py and
# index_tricks.py). ndindex and ndenumerate return lists where NumPy returns
# iterators: iterating them gives the same items (index tuples of Python ints
# in C order; (index, NumPy scalar) pairs). And CuPy's fuse decorator.


def array_equiv(a1, a2):
    try:
        a1, a2 = asarray(a1), asarray(a2)
        broadcast_shapes(a1.shape, a2.shape)
    except Exception:
        return False
    return True if asarray(a1 == a2).all() else False


def ndindex(*shape):
    if len(shape) == 1 and isinstance(shape[0], tuple):
        shape = shape[0]
    out = [()]
    for n in shape:
        if not isinstance(n, (int, integer)):
            raise TypeError("'" + type(n).__name__ + "' object cannot be interpreted as an integer")
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
        out = [t + (i,) for t in out for i in range(int(n))]
    return out


def ndenumerate(arr):
    a = asarray(arr)
    return list(zip(ndindex(a.shape), a.ravel()))


def sort_complex(a):
    b = array(a, copy=True)
    b.sort()
    if not iscomplexobj(b):
        if b.dtype.char in "bhBH":
            return b.astype("F")
        return b.astype("D")
    return b


def _ufunc_reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    # NumPy's rule per index i: the reduce of array[indices[i]:indices[i+1]]
    # along axis, or array[indices[i]] alone when that slice is empty.
    a = asarray(array)
    idx = asarray(indices)
    if idx.ndim != 1:
        raise ValueError("index array must be 1-dimensional")
    if axis < -a.ndim or axis >= a.ndim:
        raise AxisError("axis " + str(axis) + " is out of bounds for array of dimension " + str(a.ndim))
    axis = axis % a.ndim
    n = a.shape[axis]
    bounds = [int(i) for i in idx]
    for i in bounds:
        if i < 0 or i >= n:
            raise IndexError("index " + str(i) + " out-of-bounds in " + uf.__name__ + ".reduceat [0, " + str(n) + ")")
    parts = []
    for k in range(len(bounds)):
        i = bounds[k]
        j = bounds[k + 1] if k + 1 < len(bounds) else n
        red = uf.reduce(take(a, arange(i, j if j > i else i + 1), axis=axis), axis=axis, dtype=dtype)
        if j <= i + 1:  # one element: itself (in the result dtype), not an operation on it
            red = take(a, i, axis=axis).astype(red.dtype)
        parts.append(red)
    r = stack(parts, axis=axis)
    if out is None:
        return r
    out[...] = r
    return out


def roots(p):
    p = atleast_1d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    non_zero = nonzero(ravel(p))[0]
    if len(non_zero) == 0:
        return array([])
    trailing_zeros = len(p) - int(non_zero[-1]) - 1
    p = p[int(non_zero[0]):int(non_zero[-1]) + 1]
    if not (issubdtype(p.dtype, floating) or issubdtype(p.dtype, complexfloating)):
        p = p.astype(float)
    N = len(p)
    if N > 1:
        A = diag(ones((N - 2,), p.dtype), -1)
        A[0, :] = -p[1:] / p[0]
        r = linalg.eigvals(A)
    else:
        r = array([])
    return hstack((r, zeros(trailing_zeros, r.dtype)))


def fuse(*args, **kwargs):
    # CuPy's decorator (cupy.fuse): gpy fuses every array expression anyway,
    # so @fuse, @fuse() and @fuse(kernel_name=...) return the function as it is.
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]

    def keep(f):
        return f
    return keep
