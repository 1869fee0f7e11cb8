import numpy as np

def cumtrapz(y, x):
    out = np.zeros_like(y)
    out[1:] = np.cumsum((y[1:] + y[:-1]) / 2 * np.diff(x))
    return out

t = np.linspace(0, 2, 21)
a = np.where(t < 1, 2.0, -1.0)  # acceleration profile
v = cumtrapz(a, t)
s = cumtrapz(v, t)
for k in range(0, 21, 4):
    print(f"t={t[k]:.1f} a={a[k]:5.1f} v={v[k]:7.4f} s={s[k]:7.4f}")
print("final velocity %.4f distance %.4f" % (v[-1], s[-1]))
x = np.linspace(0, np.pi, 9)
F = cumtrapz(np.cos(x), x)
print(np.round(F, 4))
print(np.round(np.sin(x), 4))
print("max err %.2e" % np.abs(F - np.sin(x)).max())
dx = x[1] - x[0]
print(np.round(np.cumsum(np.cos(x)) * dx, 4))
