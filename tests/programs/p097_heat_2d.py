import numpy as np

n = 7
u = np.zeros((n, n))
u[0, :] = 100.0  # hot top edge
alpha = 0.2
for step in range(1, 201):
    lap = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    u[1:-1, 1:-1] += alpha * lap
    if step in (1, 10, 200):
        print(f"step {step}: centre={u[n // 2, n // 2]:.5f} mean={u[1:-1, 1:-1].mean():.5f}")
np.set_printoptions(precision=2, suppress=True, linewidth=120)
print(u)
print(np.allclose(u, u[:, ::-1]))
col = u[:, n // 2]
print(np.all(np.diff(col[:-1]) <= 0))
# steady state by Jacobi iteration
v = np.zeros((n, n))
v[0, :] = 100.0
for it in range(2000):
    new = v.copy()
    new[1:-1, 1:-1] = 0.25 * (v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:])
    if np.max(np.abs(new - v)) < 1e-8:
        break
    v = new
print("jacobi iterations", it)
print(v[1:-1, n // 2])
np.set_printoptions()
