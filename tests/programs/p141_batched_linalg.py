import numpy as np

A = np.array([[[2.0, 1.0], [1.0, 3.0]],
              [[4.0, -2.0], [1.0, 1.0]],
              [[1.0, 0.0], [0.0, 5.0]]])
b = np.array([[1.0, 2.0], [0.0, 3.0], [5.0, 5.0]])
x = np.linalg.solve(A, b[..., None])[..., 0]
print(x)
print(np.allclose(np.einsum("bij,bj->bi", A, x), b))
print(np.linalg.det(A))
print(np.round(np.linalg.inv(A), 6))
w, v = np.linalg.eigh(A + np.transpose(A, (0, 2, 1)))
print(np.round(w, 6))
print(np.round(np.linalg.norm(A, axis=(1, 2)), 6))
print((A @ A).shape, np.round((A @ x[..., None])[..., 0], 6))
sign, logdet = np.linalg.slogdet(A)
print(sign, np.round(logdet, 8))
print(np.round(np.linalg.svd(A, compute_uv=False), 6))
print(np.linalg.matrix_rank(A))
print(np.round(np.linalg.cholesky(A[[0, 2]]), 6))
print(np.trace(A, axis1=1, axis2=2), A.diagonal(axis1=1, axis2=2))
