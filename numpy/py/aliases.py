# NumPy 2's alternative names (the array API standard's and older spellings)
# for functions gpy has under their first name.
acos = arccos
acosh = arccosh
asin = arcsin
asinh = arcsinh
atan = arctan
atan2 = arctan2
atanh = arctanh
bitwise_invert = invert
bitwise_not = invert
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift
concat = concatenate


def permute_dims(a, axes=None):
    return transpose(a, axes)


def matrix_transpose(x, /):
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional, but it is " + str(x.ndim))
    return swapaxes(x, -1, -2)


def astype(x, dtype, /, *, copy=True, device=None):
    if not isinstance(x, ndarray):
        raise TypeError("Input should be a NumPy array. It is a " + str(type(x)) + " instead.")
    return x.astype(dtype, copy=copy)


def asanyarray(a, dtype=None, order=None, *, like=None):
    return asarray(a, dtype=dtype, order=order)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    return vstack(tup, dtype=dtype, casting=casting)
