import numpy as np

x = np.linspace(0.1, 2.0, 6, dtype=np.float32)
print(x, x.dtype)
print(np.exp(x))
print(np.log(x))
print(np.sqrt(x))
print(np.sin(x), np.cos(x))
print(np.tanh(x))
print(np.power(x, np.float32(1.5)))
print(np.arctan(x), np.log10(x))
y = x * np.float32(3) + 1
print(y, y.dtype)
print(x.sum(), x.mean(), x.std())
print((x / 3).dtype, (x + 1.5).dtype, (x * np.float64(2)).dtype, (x + np.int32(1)).dtype)
print(repr(np.float32(1) / np.float32(3)), repr(np.float32(2) ** 0.5))
print(np.float32(1e-3) * np.float32(1e-3), np.float32(7.0) / np.float32(9.0))
print(np.exp(np.float32(10.0)), np.log(np.float32(10.0)), np.sqrt(np.float32(2.0)))
print(np.cbrt(x), np.expm1(x[:2]), np.log1p(x[:2]))
