import numpy as np

A = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
v = np.array([1.0, 1.0, 1.0])
lam_old = 0.0
for it in range(1, 200):
    w = A @ v
    v = w / np.linalg.norm(w)
    lam = v @ A @ v
    if abs(lam - lam_old) < 1e-13:
        break
    lam_old = lam
print("iterations", it)
print("dominant eigenvalue %.10f" % lam)
print(np.round(v, 8))
w, V = np.linalg.eigh(A)
print(np.round(w, 10))
print(np.isclose(lam, w[-1]))
# inverse iteration with shift for the smallest eigenvalue
mu = 1.0
v = np.ones(3)
M = A - mu * np.eye(3)
for _ in range(50):
    v = np.linalg.solve(M, v)
    v /= np.linalg.norm(v)
print("smallest %.10f" % (v @ A @ v))
print("rayleigh quotients", np.round([x @ A @ x for x in V.T], 10))
