# np.array_equiv, np.ndindex and np.ndenumerate (NumPy's numeric.py and
# index_tricks.py). ndindex and ndenumerate return lists where NumPy returns
# iterators: iterating them gives the same items (index tuples of Python ints
# in C order; (index, NumPy scalar) pairs).


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
