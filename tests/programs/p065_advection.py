import numpy as np

# 1-D linear advection with upwind and Lax-Wendroff on a periodic grid.
n = 20
c = 1.0
dx = 1.0 / n
dt = 0.5 * dx / c
nu = c * dt / dx
x = np.arange(n) * dx
u0 = np.where((x >= 0.2) & (x < 0.4), 1.0, 0.0)

def upwind(u):
    return u - nu * (u - np.roll(u, 1))

def lax_wendroff(u):
    up = np.roll(u, -1)
    um = np.roll(u, 1)
    return u - 0.5 * nu * (up - um) + 0.5 * nu**2 * (up - 2 * u + um)

u1 = u0.copy()
u2 = u0.copy()
steps = 10
for _ in range(steps):
    u1 = upwind(u1)
    u2 = lax_wendroff(u2)
np.set_printoptions(precision=3, suppress=True, linewidth=100)
print(u0)
print(u1)
print(u2)
print("mass", u0.sum() * dx, round(u1.sum() * dx, 12), round(u2.sum() * dx, 12))
print("max", u1.max(), u2.max().round(4), "min", u1.min(), u2.min().round(4))
print("centre of mass", np.sum(x * u0) / u0.sum(), round(np.sum(x * u1) / u1.sum(), 6))
np.set_printoptions()
