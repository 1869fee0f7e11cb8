import numpy as np

print(np.trapezoid([1, 2, 3]))
print(np.trapezoid([1, 2, 3], x=[4, 6, 8]))
print(np.trapezoid([1, 2, 3], dx=2))
x = np.linspace(0, 1, 101)
print(round(float(np.trapezoid(x**2, x)), 10))
a = np.arange(6).reshape(2, 3)
print(np.trapezoid(a, axis=0))
print(np.trapezoid(a, axis=1))
theta = np.linspace(0, 2 * np.pi, 201)
circ = np.trapezoid(np.ones_like(theta), theta)
print(round(float(circ), 8), round(2 * np.pi, 8))
xs = np.linspace(0, np.pi, 9)
print(np.trapezoid(np.sin(xs), xs))

# Compare with Simpson's rule written by hand
def simpson(y, x):
    h = (x[-1] - x[0]) / (len(x) - 1)
    return h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())

for n in [5, 9, 17, 33]:
    xs = np.linspace(0, np.pi, n)
    t = np.trapezoid(np.sin(xs), xs)
    s = simpson(np.sin(xs), xs)
    print(f"n={n:3d} trap={t:.8f} simpson={s:.8f} err={abs(2 - s):.2e}")
