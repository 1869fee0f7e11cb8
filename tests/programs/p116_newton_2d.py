import numpy as np

def F(v):
    x, y = v
    return np.array([x**2 + y**2 - 4.0, np.exp(x) + y - 1.0])

def J(v):
    x, y = v
    return np.array([[2 * x, 2 * y], [np.exp(x), 1.0]])

for start in ([1.0, -1.0], [-2.0, 1.0]):
    v = np.array(start)
    for it in range(20):
        dv = np.linalg.solve(J(v), -F(v))
        v = v + dv
        if np.linalg.norm(dv) < 1e-13:
            break
    print(f"start={start} -> {np.round(v, 10)} after {it + 1} iterations, |F|<1e-12: {np.linalg.norm(F(v)) < 1e-12}")

def num_jac(f, v, h=1e-6):
    n = len(v)
    out = np.zeros((n, n))
    for j in range(n):
        e = np.zeros(n)
        e[j] = h
        out[:, j] = (f(v + e) - f(v - e)) / (2 * h)
    return out

p = np.array([0.5, 0.25])
print(np.round(J(p), 6))
print(np.round(num_jac(F, p), 6))
print(np.allclose(J(p), num_jac(F, p), atol=1e-8))
