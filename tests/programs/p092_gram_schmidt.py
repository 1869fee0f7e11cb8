import numpy as np

def gram_schmidt(V):
    Q = np.zeros_like(V, dtype=float)
    R = np.zeros((V.shape[1], V.shape[1]))
    for j in range(V.shape[1]):
        v = V[:, j].astype(float)
        for i in range(j):
            R[i, j] = Q[:, i] @ V[:, j]
            v = v - R[i, j] * Q[:, i]
        R[j, j] = np.linalg.norm(v)
        Q[:, j] = v / R[j, j]
    return Q, R

V = np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
Q, R = gram_schmidt(V)
print(np.round(Q, 6))
print(np.round(R, 6))
print(np.allclose(Q.T @ Q, np.eye(3)))
print(np.allclose(Q @ R, V))
Q2, R2 = np.linalg.qr(V)
signs = np.sign(np.diag(R2))
print(np.allclose(Q2 * signs, Q), np.allclose(R2 * signs[:, None], R))
P = Q @ Q.T
b = np.array([1.0, 2.0, 3.0, 4.0])
proj = P @ b
print(np.round(proj, 6), np.round(b - proj, 6))
print(np.round(np.linalg.norm(b - proj), 6))
