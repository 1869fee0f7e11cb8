import numpy as np

def rot(theta):
    c, s = np.cos(theta), np.sin(theta)
    return np.array([[c, -s], [s, c]])

square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
R = rot(np.pi / 6)
print(np.round(R, 6))
rotated = square @ R.T
print(np.round(rotated, 6))
print(np.round(np.linalg.det(R), 12))
print(np.allclose(R @ R.T, np.eye(2)))

def polygon_area(p):
    x, y = p[:, 0], p[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))

print(polygon_area(square), round(polygon_area(rotated), 12))
tri = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 3.0]])
print(polygon_area(tri), tri.mean(axis=0))
sides = np.linalg.norm(np.roll(tri, -1, axis=0) - tri, axis=1)
print(sides, sides.sum())
u = np.array([1.0, 0.0, 0.0])
v = np.array([1.0, 1.0, 0.0])
cosang = u @ v / (np.linalg.norm(u) * np.linalg.norm(v))
print(round(float(np.degrees(np.arccos(cosang))), 10))
n = np.cross(u, v)
print(n, n / np.linalg.norm(n))
pts = np.array([[1.0, 2.0], [3.0, 1.0], [-1.0, -1.0], [0.5, 4.0]])
center = np.array([0.0, 0.0])
d = np.hypot(*(pts - center).T)
print(np.round(d, 6), pts[np.argmin(d)])
ang = np.arctan2(pts[:, 1], pts[:, 0])
print(np.round(np.degrees(ang), 4))
print(pts[np.argsort(ang)])
