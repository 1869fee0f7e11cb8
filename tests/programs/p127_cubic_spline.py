import numpy as np

x = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
y = np.array([0.0, 1.0, 0.0, 1.0, 0.0])
n = len(x) - 1
h = np.diff(x)
A = np.zeros((n + 1, n + 1))
rhs = np.zeros(n + 1)
A[0, 0] = A[n, n] = 1.0
for i in range(1, n):
    A[i, i - 1] = h[i - 1]
    A[i, i] = 2 * (h[i - 1] + h[i])
    A[i, i + 1] = h[i]
    rhs[i] = 3 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
c = np.linalg.solve(A, rhs)
b = (y[1:] - y[:-1]) / h - h * (2 * c[:-1] + c[1:]) / 3
d = (c[1:] - c[:-1]) / (3 * h)
print(A)
print(np.round(c, 6))
print(np.round(b, 6), np.round(d, 6))

def spline(t):
    i = np.clip(np.searchsorted(x, t, side="right") - 1, 0, n - 1)
    dt = t - x[i]
    return y[i] + b[i] * dt + c[i] * dt**2 + d[i] * dt**3

t = np.linspace(0, 4, 9)
print(np.round(spline(t), 6))
print(np.allclose(spline(x), y))
print(np.round(np.interp(t, x, y), 6))
