import numpy as np

theta = np.linspace(0, 2 * np.pi, 12, endpoint=False)
cx, cy, r = 2.0, -1.0, 3.0
wobble = 0.05 * np.cos(3 * theta)
x = cx + (r + wobble) * np.cos(theta)
y = cy + (r + wobble) * np.sin(theta)
A = np.column_stack([x, y, np.ones_like(x)])
b = x**2 + y**2
(a1, a2, a3), *_ = np.linalg.lstsq(A, b, rcond=None)
xc, yc = a1 / 2, a2 / 2
radius = np.sqrt(a3 + xc**2 + yc**2)
print(f"centre=({xc:.6f}, {yc:.6f}) radius={radius:.6f}")
resid = np.hypot(x - xc, y - yc) - radius
print(np.round(resid, 5))
print("rms residual %.6f" % np.sqrt(np.mean(resid**2)))
# geometric refinement with Gauss-Newton
p = np.array([xc, yc, radius])
for it in range(5):
    dx, dy = x - p[0], y - p[1]
    d = np.hypot(dx, dy)
    res = d - p[2]
    J = np.column_stack([-dx / d, -dy / d, -np.ones_like(d)])
    step = np.linalg.lstsq(J, -res, rcond=None)[0]
    p = p + step
    sn = np.linalg.norm(step)
    print(it, np.round(p, 8), "%.3e" % sn if sn > 1e-12 else "converged")
