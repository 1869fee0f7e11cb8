# np.fft against NumPy: printed results, dtypes, n-d layering, shifts and frequencies, errors.
import numpy as np
x = np.array([1.0, 2.0, 1.0, -1.0, 1.5])
print(np.fft.fft(x))
print(np.fft.ifft(np.fft.fft(x)))
print(np.fft.rfft(x), np.fft.irfft(np.fft.rfft(x), 5))
print(np.fft.fft(x.astype(np.float32)).dtype, np.fft.fft(x, n=8, norm="ortho"))
print(np.fft.hfft([1, 2j, 3]), np.fft.ihfft(x))
a = np.arange(12.0).reshape(3, 4)
print(np.fft.fft2(a))
print(np.fft.rfft2(a))
print(np.fft.irfft2(np.fft.rfft2(a), s=a.shape))
print(np.fft.fftn(a, axes=(0,)))
print(np.fft.fftfreq(8, 0.1), np.fft.rfftfreq(7))
print(np.fft.fftshift(np.fft.fftfreq(6)), np.fft.ifftshift(np.arange(5)))
print(np.fft.fftshift(a, axes=1))
import numpy.fft
from numpy.fft import rfft
print(rfft([1, 2, 3, 4]))
t = np.arange(256)
sp = np.fft.fft(np.sin(t))
print(np.round(np.abs(sp[:6]), 6))
for f in [lambda: np.fft.fft([1, 2], n=0), lambda: np.fft.fft([1, 2], norm="bogus"), lambda: np.fft.rfft([1j, 2])]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
print(hasattr(np, "ifft"), hasattr(np.fft, "fftfreq"))
