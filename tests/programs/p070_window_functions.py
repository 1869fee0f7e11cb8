import numpy as np

print(np.hanning(5))
print(np.hamming(5))
print(np.blackman(5).round(8))
print(np.bartlett(5))
print(np.kaiser(5, 14).round(8))
print(np.hanning(1), np.hamming(0))
n = 16
t = np.arange(n)
sig = np.sin(2 * np.pi * 2.5 * t / n)
w = np.hanning(n)
print(np.round(sig * w, 5))
print("coherent gain %.6f" % (w.sum() / n))
print("enbw %.6f" % (n * np.sum(w**2) / np.sum(w) ** 2))
print(np.i0(np.array([0.0, 1.0, 2.5])))
print(np.sinc(np.linspace(-2, 2, 9)).round(6))
