import numpy as np

x = np.array([1.0, 2.0, 1.0, -1.0, 1.5, 0.0, 0.0, 0.0])
X = np.fft.fft(x)
print(np.round(X, 6))
print(np.round(np.fft.ifft(X).real, 12))
print(np.fft.fftfreq(8, d=0.1))
print(np.fft.rfftfreq(8, d=0.1))
print(np.round(np.fft.rfft(x), 6))
print(np.round(np.fft.irfft(np.fft.rfft(x)), 12))
print(np.fft.fftshift(np.fft.fftfreq(6)))
t = np.arange(16) / 16
sig = np.sin(2 * np.pi * 3 * t) + 0.5 * np.cos(2 * np.pi * 5 * t)
spec = np.abs(np.fft.rfft(sig)) / 8
print(np.round(spec, 6))
print("peaks at", np.nonzero(spec > 0.1)[0])
a = np.array([1.0, 2.0, 3.0])
b = np.array([0.0, 1.0, 0.5])
n = len(a) + len(b) - 1
conv = np.fft.irfft(np.fft.rfft(a, n) * np.fft.rfft(b, n), n)
print(np.round(conv, 10), np.convolve(a, b))
img = np.arange(16.0).reshape(4, 4)
print(np.round(np.abs(np.fft.fft2(img)), 6))
