import numpy as np

print(np.convolve([1, 2, 3], [0, 1, 0.5]))
print(np.convolve([1, 2, 3], [0, 1, 0.5], "same"))
print(np.convolve([1, 2, 3], [0, 1, 0.5], "valid"))
print(np.convolve([1, 2, 3], [1, 1]))
print(np.correlate([1, 2, 3], [0, 1, 0.5]))
print(np.correlate([1, 2, 3], [0, 1, 0.5], "full"))
print(np.correlate([1, 2, 3], [0, 1, 0.5], "same"))

signal = np.array([0.0, 1.0, 0.0, 0.0, 5.0, 0.0, 0.0, 1.0, 2.0, 3.0])
kernel = np.ones(3) / 3
smooth = np.convolve(signal, kernel, mode="same")
print(np.round(smooth, 4))
gauss = np.exp(-0.5 * np.linspace(-2, 2, 5) ** 2)
gauss /= gauss.sum()
print(np.round(gauss, 5))
print(np.round(np.convolve(signal, gauss, mode="valid"), 5))
# polynomial multiplication via convolution
print(np.convolve([1, 1], [1, 1]), np.convolve([1, 2, 1], [1, 1]))
edges = np.convolve(signal, [1, -1], mode="valid")
print(edges)
ints = np.convolve(np.array([1, 2, 3], dtype=np.int32), np.array([4, 5], dtype=np.int32))
print(ints, ints.dtype)
