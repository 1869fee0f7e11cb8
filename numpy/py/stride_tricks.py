# numpy.lib.stride_tricks: as_strided over the native _as_strided (a view of
# an array's memory with any shape and byte strides; gpy refuses one reaching
# outside the memory), sliding_window_view as NumPy writes it, and
# broadcast_to / broadcast_arrays under their stride_tricks names.
_stride_tricks = lib.stride_tricks


def _st_axis(ax, ndim):
    if ax < -ndim or ax >= ndim:
        raise exceptions.AxisError("axis " + str(ax) + " is out of bounds for array of dimension " + str(ndim))
    return ax % ndim if ndim else ax


def _st_as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    x = asarray(x)
    shape = x.shape if shape is None else tuple(shape)
    strides = x.strides if strides is None else tuple(strides)
    return _stride_tricks._as_strided(x, shape, strides)


def _st_sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    window_shape = tuple(window_shape) if iterable(window_shape) else (window_shape,)
    x = asarray(x)
    for w in window_shape:  # (any() here is np.any)
        if w < 0:
            raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError("Since axis is `None`, must provide window_shape for all dimensions of `x`; got " +
                             str(len(window_shape)) + " window_shape elements and `x.ndim` is " + str(x.ndim) + ".")
    else:
        axis = tuple(axis) if iterable(axis) else (axis,)
        axis = tuple(_st_axis(ax, x.ndim) for ax in axis)
        if len(window_shape) != len(axis):
            raise ValueError("Must provide matching length window_shape and axis; got " + str(len(window_shape)) +
                             " window_shape elements and " + str(len(axis)) + " axes elements.")
    out_strides = x.strides + tuple(x.strides[ax] for ax in axis)
    # The same axis can be windowed more than once.
    trimmed = list(x.shape)
    for ax, dim in zip(axis, window_shape):
        if trimmed[ax] < dim:
            raise ValueError("window shape cannot be larger than input array shape")
        trimmed[ax] -= dim - 1
    return _stride_tricks._as_strided(x, tuple(trimmed) + window_shape, out_strides)


_stride_tricks.as_strided = _st_as_strided
_stride_tricks.sliding_window_view = _st_sliding_window_view
_stride_tricks.broadcast_to = broadcast_to
_stride_tricks.broadcast_arrays = broadcast_arrays
del _st_as_strided, _st_sliding_window_view
