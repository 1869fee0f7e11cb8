import numpy as np

# two triangles joined by a weak edge
edges = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)]
weights = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1]
n = 6
W = np.zeros((n, n))
for (i, j), w in zip(edges, weights):
    W[i, j] = W[j, i] = w
D = np.diag(W.sum(axis=1))
L = D - W
print(L)
vals, vecs = np.linalg.eigh(L)
print(np.round(vals, 6) + 0.0)  # the sign of a 1e-16 is the BLAS kernel's
fiedler = vecs[:, 1] * np.sign(vecs[0, 1])
print(np.round(fiedler, 6))
clusters = (fiedler > 0).astype(int)
print("clusters", clusters)
print("connected components", int(np.sum(vals < 1e-10)))
Dm = np.diag(1 / np.sqrt(W.sum(axis=1)))
Ln = np.eye(n) - Dm @ W @ Dm
print(np.round(np.linalg.eigvalsh(Ln), 6) + 0.0)
cut = W[clusters == 0][:, clusters == 1].sum()
print("cut weight", cut)
