import numpy as np

xg = np.array([0.0, 1.0, 2.0, 3.0])
yg = np.array([0.0, 2.0, 4.0])
Z = np.add.outer(yg, xg**2)  # z = y + x^2 sampled on the grid
print(Z)

def bilinear(xq, yq):
    i = np.clip(np.searchsorted(xg, xq) - 1, 0, len(xg) - 2)
    j = np.clip(np.searchsorted(yg, yq) - 1, 0, len(yg) - 2)
    tx = (xq - xg[i]) / (xg[i + 1] - xg[i])
    ty = (yq - yg[j]) / (yg[j + 1] - yg[j])
    z00 = Z[j, i]
    z01 = Z[j, i + 1]
    z10 = Z[j + 1, i]
    z11 = Z[j + 1, i + 1]
    return (1 - tx) * (1 - ty) * z00 + tx * (1 - ty) * z01 + (1 - tx) * ty * z10 + tx * ty * z11

xq = np.array([0.5, 1.5, 2.25, 3.0, 0.0])
yq = np.array([1.0, 3.0, 0.5, 4.0, 0.0])
zi = bilinear(xq, yq)
print(zi)
print(yq + xq**2)
print(np.round(zi - (yq + xq**2), 6))
row = np.array([np.interp(xq[k], xg, Z[1]) for k in range(len(xq))])
print(row)
big = np.array([[bilinear(a, b) for a in np.linspace(0, 3, 4)] for b in np.linspace(0, 4, 3)])
print(np.allclose(big, Z))
