import numpy as np

a = np.arange(24).reshape(2, 3, 4)
mask = (a % 7 == 0)
print(np.nonzero(mask))
print(np.argwhere(mask))
print(a[mask])
print(np.where(mask))
print(np.transpose(np.nonzero(a > 20)))
print(a.nonzero()[0][:5], np.count_nonzero(a, axis=(0, 2)))
z = np.zeros((3, 3))
z[1, 2] = 5
z[2, 0] = -1
r, c = np.nonzero(z)
for i, j in zip(r, c):
    print(f"z[{i},{j}] = {z[i, j]}")
print(np.flatnonzero(z), np.unravel_index(np.flatnonzero(z), z.shape))
print(np.nonzero(np.array([0.0, -0.0, 1e-300, np.nan])))
b = np.array([[True, False], [False, True]])
print(np.argwhere(b).tolist(), np.sum(b, axis=0))
print(a[np.nonzero(a[:, :, 0] > 5)])
