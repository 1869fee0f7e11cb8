import numpy as np

# Explicit finite differences for u_t = alpha * u_xx on [0, 1].
nx = 11
alpha = 1.0
dx = 1.0 / (nx - 1)
dt = 0.4 * dx * dx / alpha
x = np.linspace(0.0, 1.0, nx)
u = np.sin(np.pi * x)
u[0] = u[-1] = 0.0

def step(u):
    un = u.copy()
    un[1:-1] = u[1:-1] + alpha * dt / dx**2 * (u[2:] - 2 * u[1:-1] + u[:-2])
    return un

np.set_printoptions(precision=5, suppress=True)
print("t=0   ", u)
t = 0.0
for n in range(1, 51):
    u = step(u)
    t += dt
    if n % 10 == 0:
        print(f"t={t:.3f}", u)
exact = np.exp(-np.pi**2 * alpha * t) * np.sin(np.pi * x)
err = np.max(np.abs(u - exact))
print("max error %.3e" % err)
print("energy", np.sum(u**2) * dx)
np.set_printoptions()
print(u[:3])
