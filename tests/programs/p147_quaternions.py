import numpy as np

def qmul(q, r):
    w1, x1, y1, z1 = q
    w2, x2, y2, z2 = r
    return np.array([
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ])

def axis_angle(axis, angle):
    axis = np.asarray(axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])

def rotate(v, q):
    qv = np.concatenate([[0.0], v])
    qc = q * np.array([1, -1, -1, -1])
    return qmul(qmul(q, qv), qc)[1:]

q = axis_angle([0, 0, 1], np.pi / 2)
print(np.round(q, 6))
print(np.round(rotate(np.array([1.0, 0.0, 0.0]), q), 10))
q2 = axis_angle([1, 0, 0], np.pi / 2)
qc = qmul(q2, q)
print(np.round(qc, 6), np.round(np.linalg.norm(qc), 12))
print(np.round(rotate(np.array([1.0, 0.0, 0.0]), qc), 10))
w, x, y, z = qc
R = np.array([
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
])
print(np.round(R, 10))
print(np.allclose(R @ R.T, np.eye(3)), np.round(np.linalg.det(R), 10))
angle = 2 * np.arccos(np.clip(qc[0], -1, 1))
print(round(float(np.degrees(angle)), 6))
