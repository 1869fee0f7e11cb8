# np.fft: NumPy's functions over the native numpy.fft._raw (numpy/fft.cpp),
# which transforms every line along one axis. The layering (_raw_fft,
# _cook_nd_args, _raw_fftnd, the norm rules and the n-d loop orders) is
# NumPy's, so results, dtypes and errors are too. The functions are defined
# here under their NumPy names, attached to the module, then removed from
# np's namespace (so inside them the module is reached as _fft_module).
_fft_module = fft
_FFT_SWAP = {"backward": "forward", None: "forward", "ortho": "ortho", "forward": "backward"}


def _fft_swap_direction(norm):
    if norm not in _FFT_SWAP:
        raise ValueError('Invalid norm value ' + str(norm) + '; should be "backward", "ortho" or "forward".')
    return _FFT_SWAP[norm]


def _raw_fft(a, n, axis, is_real, is_forward, norm, out=None):
    if n < 1:
        raise ValueError("Invalid number of FFT data points (" + str(n) + ") specified.")
    if not is_forward:
        norm = _fft_swap_direction(norm)
    real_dtype = result_type(a.real.dtype, 1.0)
    if norm is None or norm == "backward":
        fct = 1.0
    elif norm == "ortho":
        fct = float(reciprocal(sqrt(n, dtype=real_dtype)))
    elif norm == "forward":
        fct = float(reciprocal(real_dtype.type(n)))
    else:
        raise ValueError('Invalid norm value ' + str(norm) + '; should be "backward","ortho" or "forward".')
    if is_real and is_forward:
        if iscomplexobj(a):
            raise TypeError("ufunc 'rfft_n_even' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''")
        kind = 2
    elif is_real:
        kind = 3
    else:
        kind = 0 if is_forward else 1
    out_dtype = real_dtype if is_real and not is_forward else result_type(a.dtype, 1j)
    r = _fft_module._raw(a, n, axis, kind, fct, out_dtype)
    if out is None:
        return r
    if out.ndim != a.ndim or out.shape[axis] != r.shape[axis]:
        raise ValueError("output array has wrong shape.")
    out[...] = r
    return out


def fft(a, n=None, axis=-1, norm=None, out=None):
    a = asarray(a)
    if n is None:
        n = a.shape[axis]
    return _raw_fft(a, n, axis, False, True, norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    a = asarray(a)
    if n is None:
        n = a.shape[axis]
    return _raw_fft(a, n, axis, False, False, norm, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    a = asarray(a)
    if n is None:
        n = a.shape[axis]
    return _raw_fft(a, n, axis, True, True, norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    a = asarray(a)
    if n is None:
        n = (a.shape[axis] - 1) * 2
    return _raw_fft(a, n, axis, True, False, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    a = asarray(a)
    if n is None:
        n = (a.shape[axis] - 1) * 2
    new_norm = _fft_swap_direction(norm)
    return _fft_module.irfft(conjugate(a), n, axis, norm=new_norm, out=out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    a = asarray(a)
    if n is None:
        n = a.shape[axis]
    new_norm = _fft_swap_direction(norm)
    r = conjugate(_fft_module.rfft(a, n, axis, norm=new_norm))
    if out is None:
        return r
    out[...] = r
    return out


def _cook_nd_args(a, s=None, axes=None, invreal=0):
    if s is None:
        shapeless = True
        if axes is None:
            s = list(a.shape)
        else:
            s = [a.shape[ax] for ax in axes]
    else:
        shapeless = False
    s = list(s)
    if axes is None:
        axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    s = [a.shape[ax] if sz == -1 else sz for sz, ax in zip(s, axes)]
    return s, list(axes)


def _raw_fftnd(a, s, axes, function, norm, out=None):
    a = asarray(a)
    s, axes = _cook_nd_args(a, s, axes)
    for ii in range(len(axes) - 1, -1, -1):
        a = function(a, n=s[ii], axis=axes[ii], norm=norm, out=out)
    return a


def fftn(a, s=None, axes=None, norm=None, out=None):
    return _raw_fftnd(a, s, axes, _fft_module.fft, norm, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    return _raw_fftnd(a, s, axes, _fft_module.ifft, norm, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _raw_fftnd(a, s, axes, _fft_module.fft, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _raw_fftnd(a, s, axes, _fft_module.ifft, norm, None)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    a = asarray(a)
    s, axes = _cook_nd_args(a, s, axes)
    a = _fft_module.rfft(a, s[-1], axes[-1], norm, out=out)
    for ii in range(len(axes) - 2, -1, -1):
        a = _fft_module.fft(a, s[ii], axes[ii], norm, out=out)
    return a


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _fft_module.rfftn(a, s, axes, norm, out=out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    a = asarray(a)
    s, axes = _cook_nd_args(a, s, axes, invreal=1)
    for ii in range(len(axes) - 1):
        a = _fft_module.ifft(a, s[ii], axes[ii], norm)
    return _fft_module.irfft(a, s[-1], axes[-1], norm, out=out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return _fft_module.irfftn(a, s, axes, norm, out=out)


def fftshift(x, axes=None):
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [dim // 2 for dim in x.shape]
    elif isinstance(axes, (int, integer)):
        shift = x.shape[axes] // 2
    else:
        shift = [x.shape[ax] // 2 for ax in axes]
    return roll(x, shift, axes)


def ifftshift(x, axes=None):
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [-(dim // 2) for dim in x.shape]
    elif isinstance(axes, (int, integer)):
        shift = -(x.shape[axes] // 2)
    else:
        shift = [-(x.shape[ax] // 2) for ax in axes]
    return roll(x, shift, axes)


def fftfreq(n, d=1.0, device=None):
    if not isinstance(n, (int, integer)):
        raise ValueError("n should be an integer")
    val = 1.0 / (n * d)
    results = empty(n, int)
    N = (n - 1) // 2 + 1
    results[:N] = arange(0, N, dtype=int)
    results[N:] = arange(-(n // 2), 0, dtype=int)
    return results * val


def rfftfreq(n, d=1.0, device=None):
    if not isinstance(n, (int, integer)):
        raise ValueError("n should be an integer")
    val = 1.0 / (n * d)
    N = n // 2 + 1
    return arange(0, N, dtype=int) * val


_fft_module.fft = fft
_fft_module.ifft = ifft
_fft_module.rfft = rfft
_fft_module.irfft = irfft
_fft_module.hfft = hfft
_fft_module.ihfft = ihfft
_fft_module.fftn = fftn
_fft_module.ifftn = ifftn
_fft_module.fft2 = fft2
_fft_module.ifft2 = ifft2
_fft_module.rfftn = rfftn
_fft_module.rfft2 = rfft2
_fft_module.irfftn = irfftn
_fft_module.irfft2 = irfft2
_fft_module.fftshift = fftshift
_fft_module.ifftshift = ifftshift
_fft_module.fftfreq = fftfreq
_fft_module.rfftfreq = rfftfreq
fft = _fft_module
del ifft, rfft, irfft, hfft, ihfft, fftn, ifftn, fft2, ifft2, rfftn, rfft2, irfftn, irfft2
del fftshift, ifftshift, fftfreq, rfftfreq
