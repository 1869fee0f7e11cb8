import numpy as np

A = np.array([[4.0, 1.0, 2.0], [1.0, 3.0, 0.0], [2.0, 0.0, 5.0]])
w, v = np.linalg.eigh(A)
print(np.round(w, 8))
print(np.allclose(A @ v, v * w))
print(np.round(np.abs(v), 6))
print(np.round(np.linalg.eigvalsh(A), 8))

M = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
U, s, Vt = np.linalg.svd(M, full_matrices=False)
print(U.shape, s.shape, Vt.shape)
print(np.round(s, 8))
print(np.allclose(U @ np.diag(s) @ Vt, M))
print(np.round(np.linalg.svd(M, compute_uv=False), 8))

Q, R = np.linalg.qr(M)
print(Q.shape, R.shape)
print(np.allclose(Q @ R, M), np.allclose(Q.T @ Q, np.eye(2)))
print(np.round(np.abs(R), 6))

L = np.linalg.cholesky(A)
print(np.round(L, 6))
print(np.allclose(L @ L.T, A))

print(np.round(np.linalg.norm(A), 8))
print(np.linalg.norm([3.0, 4.0]), np.linalg.norm([3.0, 4.0], 1), np.linalg.norm([3.0, -4.0], np.inf))
print(np.round(np.linalg.norm(A, 2), 8), np.linalg.norm(A, "fro") ** 2)
print(np.linalg.norm(M, axis=1))
print(np.round(np.linalg.cond(A), 8))
ev = np.linalg.eigvals(np.array([[2.0, 0.0], [0.0, 3.0]]))
print(ev)
