import numpy as np

def deriv(t, y, omega=2.0, zeta=0.1):
    x, v = y
    return np.array([v, -2 * zeta * omega * v - omega**2 * x])

def rk4(f, y0, t):
    y = np.zeros((len(t), len(y0)))
    y[0] = y0
    for i in range(len(t) - 1):
        h = t[i + 1] - t[i]
        k1 = f(t[i], y[i])
        k2 = f(t[i] + h / 2, y[i] + h / 2 * k1)
        k3 = f(t[i] + h / 2, y[i] + h / 2 * k2)
        k4 = f(t[i] + h, y[i] + h * k3)
        y[i + 1] = y[i] + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return y

t = np.linspace(0, 5, 51)
sol = rk4(deriv, np.array([1.0, 0.0]), t)
for i in range(0, 51, 10):
    print(f"t={t[i]:.1f} x={sol[i, 0]: .6f} v={sol[i, 1]: .6f}")
omega, zeta = 2.0, 0.1
wd = omega * np.sqrt(1 - zeta**2)
exact = np.exp(-zeta * omega * t) * (np.cos(wd * t) + zeta * omega / wd * np.sin(wd * t))
err = np.abs(sol[:, 0] - exact).max()
print("max error < 1e-4:", err < 1e-4)
energy = 0.5 * sol[:, 1] ** 2 + 0.5 * omega**2 * sol[:, 0] ** 2
print("energy decreasing:", bool(np.all(np.diff(energy) <= 1e-12)))
print(np.round(energy[::10], 6))
zero_cross = np.nonzero(np.diff(np.sign(sol[:, 0])))[0]
print("zero crossings at steps", zero_cross)
