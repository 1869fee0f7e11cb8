import numpy as np

a = np.arange(5)
a += 3
a *= 2
print(a, a.dtype)
try:
    a += 1.5
except Exception as e:
    print(type(e).__name__, e)
b = np.arange(5, dtype=float)
b /= 2
b **= 2
print(b)
c = np.zeros(3)
np.add(np.array([1.0, 2.0, 3.0]), 1, out=c)
print(c)
np.sqrt(c, out=c)
print(np.round(c, 6))
d = np.array([1, 2, 3])
np.multiply(d, 2, out=d)
print(d)
e = np.empty(3, dtype=np.int8)
np.add(np.array([100, 100, 1], dtype=np.int8), np.int8(50), out=e)
print(e)
f = np.ones((2, 3))
f[:, 1] += np.array([5, 6])
f[0] -= 0.5
print(f)
g = np.arange(6).reshape(2, 3)
g[g > 2] = 0
g[0, :] *= -1
print(g)
x = np.arange(4.0)
np.exp(x, out=x)
print(np.round(x, 6))
y = np.array([1, 2, 3], dtype=np.uint8)
y -= 2
print(y)
m = np.ones((2, 2), dtype=np.float32)
m += np.float64(0.1)
print(m, m.dtype)
