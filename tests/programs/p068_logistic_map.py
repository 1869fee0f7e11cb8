import numpy as np

rs = np.array([2.8, 3.2, 3.5, 3.83, 3.9])
x = np.full(rs.shape, 0.5)
for _ in range(500):
    x = rs * x * (1 - x)
orbit = np.empty((16, rs.size))
for k in range(16):
    x = rs * x * (1 - x)
    orbit[k] = x
for r, col in zip(rs, orbit.T):
    vals = np.unique(np.round(col, 4))
    label = f"period {len(vals)}" if len(vals) <= 8 else "chaotic"
    print(f"r={r:.2f}: {label:10s} {vals[:4]}")
# Lyapunov exponent estimate
r = np.linspace(2.5, 4.0, 7)
x = np.full(r.shape, 0.4)
lyap = np.zeros_like(r)
for n in range(1000):
    x = r * x * (1 - x)
    if n >= 100:
        lyap += np.log(np.abs(r * (1 - 2 * x)))
lyap /= 900
print(np.round(r, 2))
print(lyap > 0)
print(np.round(lyap[:3], 3))
