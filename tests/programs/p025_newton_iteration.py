import numpy as np

def newton_sqrt(a, iters=6):
    x = np.where(a > 1, a / 2, np.ones_like(a))
    history = []
    for k in range(iters):
        x = 0.5 * (x + a / x)
        history.append(np.max(np.abs(x * x - a)))
    return x, history

a = np.array([2.0, 9.0, 10.0, 0.25, 1e4])
root, hist = newton_sqrt(a)
print(root)
print(np.sqrt(a))
for k, h in enumerate(hist):
    print(f"iter {k}: residual {h:.3e}")

# Newton for f(x) = x^3 - 2x - 5 on a vector of starting points
f = lambda x: x**3 - 2 * x - 5
fp = lambda x: 3 * x**2 - 2
x = np.array([1.0, 2.0, 3.0, 10.0])
for _ in range(8):
    x = x - f(x) / fp(x)
print(x)
print(np.abs(f(x)) < 1e-12)
print(repr(x[0]))
