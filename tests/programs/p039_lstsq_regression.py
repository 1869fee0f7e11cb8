import numpy as np

x = np.array([0.0, 1.0, 2.0, 3.0])
y = np.array([-1.0, 0.2, 0.9, 2.1])
A = np.vstack([x, np.ones(len(x))]).T
print(A)
sol, res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
m, c = sol
print(round(float(m), 10), round(float(c), 10))
print(np.round(res, 10), rank, np.round(sv, 8))

# Multiple regression: y = 1 + 2*x1 - 3*x2 exactly, plus known perturbations
X = np.array([[1.0, 0.5], [2.0, 1.0], [3.0, 0.2], [4.0, 2.0], [5.0, 1.5], [6.0, 0.1]])
noise = np.array([0.01, -0.02, 0.015, 0.0, -0.01, 0.005])
yy = 1 + 2 * X[:, 0] - 3 * X[:, 1] + noise
D = np.column_stack([np.ones(len(X)), X])
beta = np.linalg.lstsq(D, yy, rcond=None)[0]
print(np.round(beta, 6))
pred = D @ beta
ss_res = np.sum((yy - pred) ** 2)
ss_tot = np.sum((yy - yy.mean()) ** 2)
print("R^2 = %.8f" % (1 - ss_res / ss_tot))
beta2 = np.linalg.solve(D.T @ D, D.T @ yy)
print(np.allclose(beta, beta2))
beta3 = np.linalg.pinv(D) @ yy
print(np.allclose(beta, beta3))
sol, res, rank, sv = np.linalg.lstsq(np.array([[1.0, 1.0], [1.0, 1.0]]), np.array([2.0, 2.0]))
print(sol, res, rank)
