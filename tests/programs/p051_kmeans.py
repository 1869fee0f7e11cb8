import numpy as np

points = np.array([
    [1.0, 1.1], [1.2, 0.9], [0.8, 1.0], [1.1, 1.3],
    [5.0, 5.2], [5.3, 4.9], [4.8, 5.1], [5.1, 5.0],
    [9.0, 1.0], [9.2, 1.2], [8.8, 0.9],
])
k = 3
centers = points[[0, 4, 8]].copy()
centers += np.array([[0.5, 0.5], [-0.5, 0.5], [0.3, -0.2]])
for it in range(10):
    d = np.linalg.norm(points[:, None, :] - centers[None, :, :], axis=2)
    assign = d.argmin(axis=1)
    new = np.array([points[assign == j].mean(axis=0) for j in range(k)])
    shift = np.abs(new - centers).max()
    centers = new
    print(f"iter {it}: shift={shift:.6f} sizes={np.bincount(assign, minlength=k).tolist()}")
    if shift < 1e-9:
        break
print(np.round(centers, 4))
print(assign)
inertia = sum(((points[assign == j] - centers[j]) ** 2).sum() for j in range(k))
print("inertia %.5f" % inertia)
