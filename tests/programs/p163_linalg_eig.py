# np.linalg.eig / eigvals: real and complex spectra, stacks, float32, named result, errors.
import numpy as np
a = np.array([[2.0, 1.0], [1.0, 3.0]])
w, v = np.linalg.eig(a)
print(w, v)
b = np.array([[0.0, -1.0], [1.0, 0.0]])
print(np.linalg.eig(b))
print(np.linalg.eigvals(np.array([[1.0, 2, 3], [4, 5, 6], [7, 8, 10]])))
r = np.linalg.eig(np.diag([1.0, 2.0, 3.0]))
print(r.eigenvalues, r.eigenvectors.shape, type(r).__name__)
print(np.linalg.eigvals(np.array([[[1.0, 2], [3, 4]], [[0, 1], [-1, 0]]])))
print(np.linalg.eig(np.array([[1, 2], [3, 4]], dtype=np.float32))[0].dtype)
try:
    np.linalg.eig(np.array([[1.0, np.nan], [0, 1]]))
except Exception as e:
    print(type(e).__name__, e)
try:
    np.linalg.eig(np.ones((2, 3)))
except Exception as e:
    print(type(e).__name__, e)
m = np.array([[4.0, -2.0, 1.0], [3.0, 6.0, -4.0], [2.0, 1.0, 8.0]])
w, v = np.linalg.eig(m)
print(np.allclose(m @ v, v * w))
