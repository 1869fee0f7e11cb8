import numpy as np

A = np.array([[10.0, -1.0, 2.0, 0.0],
              [-1.0, 11.0, -1.0, 3.0],
              [2.0, -1.0, 10.0, -1.0],
              [0.0, 3.0, -1.0, 8.0]])
b = np.array([6.0, 25.0, -11.0, 15.0])
D = np.diag(A)
R = A - np.diagflat(D)
x = np.zeros_like(b)
for k in range(50):
    x_new = (b - R @ x) / D
    if np.linalg.norm(x_new - x, np.inf) < 1e-10:
        x = x_new
        break
    x = x_new
    if k < 5:
        print(k, np.round(x, 6))
print("iterations:", k + 1)
print(np.round(x, 8))
print(np.round(np.linalg.solve(A, b), 8))

# Gauss-Seidel
x = np.zeros_like(b)
for k in range(100):
    x_old = x.copy()
    for i in range(len(b)):
        s = A[i, :i] @ x[:i] + A[i, i + 1:] @ x_old[i + 1:]
        x[i] = (b[i] - s) / A[i, i]
    if np.allclose(x, x_old, atol=1e-12, rtol=0):
        break
print("gauss-seidel iterations:", k + 1, np.round(x, 8))
print("residual", np.linalg.norm(A @ x - b) < 1e-9)
spectral = np.max(np.abs(np.linalg.eigvalsh((R / D[:, None] + (R / D[:, None]).T) / 2)))
print(round(float(spectral), 6))
