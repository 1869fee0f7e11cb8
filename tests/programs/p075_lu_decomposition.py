import numpy as np

def lu(A):
    n = len(A)
    L = np.eye(n)
    U = A.astype(float).copy()
    for k in range(n - 1):
        factors = U[k + 1:, k] / U[k, k]
        L[k + 1:, k] = factors
        U[k + 1:] -= np.outer(factors, U[k])
    return L, U

def forward(L, b):
    y = np.zeros_like(b, dtype=float)
    for i in range(len(b)):
        y[i] = b[i] - L[i, :i] @ y[:i]
    return y

def backward(U, y):
    x = np.zeros_like(y)
    for i in range(len(y) - 1, -1, -1):
        x[i] = (y[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x

A = np.array([[4, 3, 2], [2, 1, 3], [3, 2, 1]])
L, U = lu(A)
print(L)
print(U)
print(np.allclose(L @ U, A))
b = np.array([1.0, 2.0, 3.0])
x = backward(U, forward(L, b))
print(x)
print(np.allclose(x, np.linalg.solve(A, b)))
print("det via LU", np.prod(np.diag(U)), round(np.linalg.det(A), 10))
print(np.triu(U) - U)
