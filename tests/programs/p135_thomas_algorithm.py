import numpy as np

def thomas(a, b, c, d):
    n = len(d)
    cp = np.zeros(n - 1)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        denom = b[i] - a[i - 1] * cp[i - 1]
        if i < n - 1:
            cp[i] = c[i] / denom
        dp[i] = (d[i] - a[i - 1] * dp[i - 1]) / denom
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x

n = 8
a = -np.ones(n - 1)
b = 2 * np.ones(n)
c = -np.ones(n - 1)
h = 1.0 / (n + 1)
xs = np.linspace(h, 1 - h, n)
d = h**2 * np.pi**2 * np.sin(np.pi * xs)
u = thomas(a, b, c, d)
print(np.round(u, 6))
print(np.round(np.sin(np.pi * xs), 6))
print("max error %.3e" % np.abs(u - np.sin(np.pi * xs)).max())
T = np.diag(b) + np.diag(a, -1) + np.diag(c, 1)
print(np.allclose(T @ u, d), np.allclose(u, np.linalg.solve(T, d)))
ev = np.linalg.eigvalsh(T)
analytic = 2 - 2 * np.cos(np.arange(1, n + 1) * np.pi / (n + 1))
print(np.round(ev, 8))
print(np.allclose(ev, np.sort(analytic)))
