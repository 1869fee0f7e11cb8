import numpy as np

def nullspace(A, tol=1e-12):
    u, s, vh = np.linalg.svd(A)
    rank = (s > tol * s[0]).sum()
    return vh[rank:].T, rank

A = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
N, r = nullspace(A)
print("rank", r, np.linalg.matrix_rank(A))
print(N.shape)
n = N[:, 0] / N[np.argmax(np.abs(N[:, 0])), 0]
print(np.round(n, 8))
print(np.allclose(A @ N, 0))
B = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]])
NB, rb = nullspace(B)
print("rank", rb, "nullity", NB.shape[1])
print(np.allclose(B @ NB, 0), np.allclose(NB.T @ NB, np.eye(2)))
s = np.linalg.svd(np.array([[1.0, 2.0], [2.0, 4.0000001]]), compute_uv=False)
print(np.round(s, 6), "condition %.3e" % (s[0] / s[-1]))
print(np.linalg.matrix_rank(np.array([[1.0, 2.0], [2.0, 4.0000001]])), np.linalg.matrix_rank(np.array([[1.0, 2.0], [2.0, 4.0000001]]), tol=1e-3))
print(np.linalg.matrix_rank(np.zeros((3, 3))), np.linalg.matrix_rank(np.eye(4)))
