import numpy as np

def gauss_jordan_inverse(A):
    n = A.shape[0]
    M = np.hstack([A.astype(float), np.eye(n)])
    for col in range(n):
        pivot = col + np.argmax(np.abs(M[col:, col]))
        if abs(M[pivot, col]) < 1e-12:
            raise ValueError("singular matrix")
        if pivot != col:
            M[[col, pivot]] = M[[pivot, col]]
        M[col] /= M[col, col]
        for r in range(n):
            if r != col:
                M[r] -= M[r, col] * M[col]
    return M[:, n:]

A = np.array([[2, 1, 1], [1, 3, 2], [1, 0, 0]])
inv = gauss_jordan_inverse(A)
print(np.round(inv, 10))
print(np.allclose(inv, np.linalg.inv(A)))
print(np.round(A @ inv, 10))
H = 1.0 / (np.arange(1, 5)[:, None] + np.arange(4)[None, :])
print(np.round(H, 4))
Hinv = gauss_jordan_inverse(H)
print(np.round(Hinv))
print(np.allclose(Hinv, np.linalg.inv(H), rtol=1e-6))
try:
    gauss_jordan_inverse(np.array([[1, 2], [2, 4]]))
except ValueError as e:
    print("error:", e)
