import numpy as np

systems = {
    "stable node": np.array([[-2.0, 0.0], [0.0, -1.0]]),
    "saddle": np.array([[1.0, 0.0], [0.0, -1.0]]),
    "stable spiral": np.array([[-0.5, 2.0], [-2.0, -0.5]]),
    "centre": np.array([[0.0, 1.0], [-1.0, 0.0]]),
}
for name, A in systems.items():
    ev = np.linalg.eigvals(A)
    re = ev.real
    kind = "stable" if np.all(re < 0) else ("unstable" if np.any(re > 0) else "marginal")
    print(f"{name:14s} eig={np.round(np.sort_complex(ev), 6)} -> {kind}")
A = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [-6.0, -11.0, -6.0]])
w, v = np.linalg.eig(A)
order = np.argsort(w.real)
print(np.round(w[order].real, 8))
print(np.allclose(A @ v, v * w))
print(np.round(np.poly(A), 6))
L = np.array([[0.0, 1.5, 1.2], [0.8, 0.0, 0.0], [0.0, 0.6, 0.0]])
vals, vecs = np.linalg.eig(L)
k = np.argmax(np.abs(vals))
lam = vals[k].real
stable = np.abs(vecs[:, k].real)
print("growth rate %.6f" % lam)
print("stable age distribution", np.round(stable / stable.sum(), 6))
pop = np.array([100.0, 0.0, 0.0])
for _ in range(30):
    pop = L @ pop
print(np.round(pop / pop.sum(), 6))
