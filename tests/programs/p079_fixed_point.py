import numpy as np

x = np.float64(1.0)
for i in range(100):
    nx = np.cos(x)
    if np.isclose(nx, x, rtol=0, atol=1e-12):
        break
    x = nx
print("dottie number", x, "after", i, "iterations")
print(type(x))

starts = np.array([0.0, 0.5, 2.0, -1.0])
xs = starts.copy()
it = 0
while True:
    nxt = np.cos(xs)
    it += 1
    if np.allclose(nxt, xs, rtol=0, atol=1e-12):
        break
    xs = nxt
print(it, np.round(xs, 10))
# bisection on a vector of brackets
f = lambda t: t**3 - t - 2
lo = np.array([1.0, 1.5])
hi = np.array([2.0, 2.0])
for _ in range(40):
    mid = (lo + hi) / 2
    left = np.sign(f(mid)) == np.sign(f(lo))
    lo = np.where(left, mid, lo)
    hi = np.where(left, hi, mid)
print(np.round((lo + hi) / 2, 9))
print(np.round(f((lo + hi) / 2), 9))
