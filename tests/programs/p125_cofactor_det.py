import numpy as np

def det(M):
    n = M.shape[0]
    if n == 1:
        return M[0, 0]
    if n == 2:
        return M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0]
    total = 0
    for j in range(n):
        minor = np.delete(np.delete(M, 0, axis=0), j, axis=1)
        total += (-1) ** j * M[0, j] * det(minor)
    return total

mats = [
    np.array([[2]]),
    np.array([[1, 2], [3, 4]]),
    np.array([[6, 1, 1], [4, -2, 5], [2, 8, 7]]),
    np.array([[1, 0, 2, -1], [3, 0, 0, 5], [2, 1, 4, -3], [1, 0, 5, 0]]),
    np.arange(16).reshape(4, 4),
]
for M in mats:
    d1 = det(M)
    d2 = np.linalg.det(M)
    print(M.shape, d1, type(d1).__name__, round(float(d2), 8), np.isclose(d1, d2))

def adjugate(M):
    n = M.shape[0]
    C = np.zeros_like(M, dtype=float)
    for i in range(n):
        for j in range(n):
            minor = np.delete(np.delete(M, i, axis=0), j, axis=1)
            C[i, j] = (-1) ** (i + j) * det(minor)
    return C.T

M = mats[2]
inv = adjugate(M) / det(M)
print(np.round(inv, 6))
print(np.allclose(inv, np.linalg.inv(M)))
