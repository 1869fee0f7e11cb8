# What np.mgrid, np.ogrid, np.r_, np.c_, np.s_ and np.index_exp do with a
# key (the objects are native: numpy/index_tricks.cpp calls _index_trick).
# mgrid/ogrid follow NumPy's nd_grid, r_/c_ its AxisConcatenator (a complex
# step such as 5j is a number of points, stop included). The matrix forms
# (np.r_['r', ...], np.r_['1 2; 3 4']) need np.matrix, which gpy lacks.
import math


def _is_complex_step(step):
    return isinstance(step, complex) or isinstance(step, complexfloating)


def _grid_1d(key):
    start = 0 if key.start is None else key.start
    step = key.step
    if _is_complex_step(step):
        length = int(abs(step))
        d = (key.stop - start) / float(length - 1) if length != 1 else length
        return arange(0, length, 1, dtype=result_type(start, key.stop, abs(step))) * d + start
    return arange(start, key.stop, step)


def _grid(key, sparse):
    if isinstance(key, slice):
        return _grid_1d(key)
    if not isinstance(key, tuple) and not isinstance(key, list):
        raise AttributeError("'" + type(key).__name__ + "' object has no attribute 'step'")
    size = []
    nums = [0]
    for kk in key:
        if not isinstance(kk, slice):
            raise AttributeError("'" + type(kk).__name__ + "' object has no attribute 'step'")
        start = 0 if kk.start is None else kk.start
        step = 1 if kk.step is None else kk.step
        if _is_complex_step(step):
            step = abs(step)
            size.append(int(step))
        else:
            if kk.stop is None:  # NumPy's TypeError falls back to the 1-d path
                raise AttributeError("'" + type(key).__name__ + "' object has no attribute 'step'")
            size.append(math.ceil((kk.stop - start) / step))
        nums += [start, kk.stop, step]
    typ = result_type(*nums)
    nn = [arange(n, dtype=typ) for n in size] if sparse else indices(size, typ)
    for k, kk in enumerate(key):
        start = 0 if kk.start is None else kk.start
        step = 1 if kk.step is None else kk.step
        if _is_complex_step(step):
            step = int(abs(step))
            if step != 1:
                step = (kk.stop - start) / float(step - 1)
        nn[k] = nn[k] * step + start
    if not sparse:
        return nn
    for k in range(len(size)):
        nn[k] = nn[k].reshape(tuple(-1 if i == k else 1 for i in range(len(size))))
    return tuple(nn)


def _ndmin(a, n, dtype=None):
    a = asarray(a, dtype=dtype)
    if a.ndim < n:
        a = a.reshape((1,) * (n - a.ndim) + a.shape)
    return a


def _concat(key, axis, ndmin, trans1d):
    if isinstance(key, str):
        raise NotImplementedError("np.matrix is not supported by gpy (matrix-building string " + repr(key) + ")")
    if not isinstance(key, tuple):
        key = (key,)
    objs = []
    types = []
    matrix = False
    for k, item in enumerate(key):
        scalar = False
        if isinstance(item, slice):
            start = 0 if item.start is None else item.start
            step = 1 if item.step is None else item.step
            if _is_complex_step(step):
                new = linspace(start, item.stop, num=int(abs(step)))
            else:
                new = arange(start, item.stop, step)
            if ndmin > 1:
                new = _ndmin(new, ndmin)
                if trans1d != -1:
                    new = new.swapaxes(-1, trans1d)
        elif isinstance(item, str):
            if k != 0:
                raise ValueError("special directives must be the first entry.")
            if item == "r" or item == "c":
                matrix = True
                continue
            if "," in item:
                vec = item.split(",")
                try:
                    axis, ndmin = [int(x) for x in vec[:2]]
                    if len(vec) == 3:
                        trans1d = int(vec[2])
                    continue
                except Exception:
                    raise ValueError("unknown special directive " + repr(item)) from None
            try:
                axis = int(item)
                continue
            except (ValueError, TypeError):
                raise ValueError("unknown special directive") from None
        elif isinstance(item, (int, float, complex, generic)) and not isinstance(item, ndarray):
            scalar = True
            new = item
        else:
            item_ndim = ndim(item)
            new = _ndmin(item, ndmin)
            if trans1d != -1 and item_ndim < ndmin:
                k2 = ndmin - item_ndim
                k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                axes = list(range(ndmin))
                new = new.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
        objs.append(new)
        types.append(item if scalar else new.dtype)
    if matrix:
        raise NotImplementedError("np.matrix is not supported by gpy (the 'r' and 'c' directives)")
    if len(types) != 0:
        dt = result_type(*types)
        objs = [_ndmin(o, ndmin, dt) for o in objs]
    return concatenate(tuple(objs), axis=axis)


def _index_trick(kind, key):
    if kind == "s_":
        return key
    if kind == "index_exp":
        return key if isinstance(key, tuple) else (key,)
    if kind == "mgrid" or kind == "ogrid":
        return _grid(key, kind == "ogrid")
    if kind == "r_":
        return _concat(key, 0, 1, -1)
    return _concat(key, -1, 2, 0)


def nditer(op, flags=None, op_flags=None, op_dtypes=None, order="K", casting="safe", op_axes=None,
           itershape=None, buffersize=0):
    # Read-only iteration over the elements (0-d arrays; a tuple of them for
    # several operands, broadcast together) in `order`: NumPy's common use.
    # The iterator object (multi_index, iternext, writing through op_flags,
    # external_loop, with-blocks) is not there: docs/differences.md.
    for flag in (flags or []):
        if flag not in ("refs_ok", "zerosize_ok", "buffered", "grow_inner", "reduce_ok"):
            raise NotImplementedError("np.nditer(flags=['" + str(flag) + "']): gpy's nditer only reads the elements in order")
    for opf in (op_flags or []):
        names = opf if isinstance(opf, (list, tuple)) else [opf]
        for name in names:
            if name not in ("readonly", "contig", "aligned", "nbo", "copy", "no_broadcast"):
                raise NotImplementedError("np.nditer(op_flags=['" + str(name) + "']): gpy's nditer only reads")
    if op_axes is not None or itershape is not None:
        raise NotImplementedError("np.nditer(op_axes=, itershape=) is not supported")
    if order not in ("C", "F", "A", "K"):
        raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got '" + str(order) + "')")
    several = isinstance(op, (list, tuple))
    ops = [asarray(o) for o in op] if several else [asarray(op)]
    if op_dtypes is not None:
        dts = op_dtypes if isinstance(op_dtypes, (list, tuple)) else [op_dtypes]
        ops = [o if d is None else o.astype(d, casting=casting) for o, d in zip(ops, dts)]
    ops = broadcast_arrays(*ops) if len(ops) > 1 else ops
    if len(ops) > 1 and order in ("A", "K"):
        # Broadcast operands: Fortran order when every one is F-ordered.
        f_all = True
        for o in ops:
            if not o.flags["F_CONTIGUOUS"] or o.flags["C_CONTIGUOUS"]:
                f_all = False
        order = "F" if f_all else "C"
    if len(ops) == 1 and order == "K":
        # NumPy's K order: memory order, with reversed axes read forwards.
        o = ops[0]
        for ax in range(o.ndim):
            if o.strides[ax] < 0:
                o = flip(o, ax)
        ops = [o]
    flats = [o.ravel(order) for o in ops]
    n = flats[0].size
    if n == 0 and "zerosize_ok" not in (flags or []):
        raise ValueError("Iteration of zero-sized operands is not enabled")
    if several:
        items = [tuple(asarray(f[i]) for f in flats) for i in range(n)]
    else:
        items = [asarray(flats[0][i]) for i in range(n)]
    return iter(items)
