import numpy as np

X = np.array([[2.5, 2.4], [0.5, 0.7], [2.2, 2.9], [1.9, 2.2], [3.1, 3.0],
              [2.3, 2.7], [2.0, 1.6], [1.0, 1.1], [1.5, 1.6], [1.1, 0.9]])
mu = X.mean(axis=0)
Xc = X - mu
print("mean", mu)
C = np.cov(Xc, rowvar=False)
print(np.round(C, 8))
w, V = np.linalg.eigh(C)
order = np.argsort(w)[::-1]
w, V = w[order], V[:, order]
V = V * np.sign(V[0])
print("eigenvalues", np.round(w, 8))
print("explained", np.round(w / w.sum(), 6))
print(np.round(V, 6))
scores = Xc @ V
print(np.round(scores[:4], 6))
U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
print("singular^2/(n-1)", np.round(s**2 / (len(X) - 1), 8))
Vt = Vt * np.sign(Vt[:, :1])
print(np.allclose(np.abs(Vt.T), np.abs(V)))
recon = scores[:, :1] @ V[:, :1].T + mu
print(np.round(recon[:3], 6))
print("reconstruction error %.8f" % np.sum((X - recon) ** 2))
