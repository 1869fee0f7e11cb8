import numpy as np

INF = np.inf
W = np.array([[0, 3, INF, 7],
              [8, 0, 2, INF],
              [5, INF, 0, 1],
              [2, INF, INF, 0]])
D = W.copy()
n = len(D)
nxt = np.where(np.isfinite(W), np.arange(n)[None, :], -1)
for k in range(n):
    via = D[:, k:k + 1] + D[k:k + 1, :]
    better = via < D
    D = np.where(better, via, D)
    nxt = np.where(better, nxt[:, k:k + 1], nxt)
print(D)
print(nxt)

def path(i, j):
    if nxt[i, j] < 0:
        return []
    p = [i]
    while i != j:
        i = int(nxt[i, j])
        p.append(i)
    return p

for i, j in [(0, 2), (1, 3), (3, 2), (2, 1)]:
    print(i, "->", j, path(i, j), D[i, j])
A = np.isfinite(W).astype(int) - np.eye(n, dtype=int)
print(A)
print("out-degree", A.sum(axis=1), "in-degree", A.sum(axis=0))
print(np.linalg.matrix_power(A, 3))
reach = np.linalg.matrix_power(A + np.eye(n, dtype=int), n) > 0
print(reach.all())
