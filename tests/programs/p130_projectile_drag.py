import numpy as np

g = 9.81
k = 0.02
v0 = 50.0
angles = np.radians(np.array([15.0, 30.0, 45.0, 60.0, 75.0]))
pos = np.zeros((angles.size, 2))
vel = v0 * np.stack([np.cos(angles), np.sin(angles)], axis=1)
landed = np.zeros(angles.size, dtype=bool)
t_land = np.zeros(angles.size)
rng_x = np.zeros(angles.size)
dt = 0.001
t = 0.0
while not landed.all():
    speed = np.linalg.norm(vel, axis=1, keepdims=True)
    acc = -k * speed * vel
    acc[:, 1] -= g
    vel = np.where(landed[:, None], vel, vel + acc * dt)
    pos = np.where(landed[:, None], pos, pos + vel * dt)
    t += dt
    just = (~landed) & (pos[:, 1] < 0)
    t_land[just] = t
    rng_x[just] = pos[just, 0]
    landed |= just
for a, tl, r in zip(np.degrees(angles), t_land, rng_x):
    print(f"angle {a:4.0f}: flight {tl:6.3f} s range {r:8.3f} m")
print("best angle", np.degrees(angles[np.argmax(rng_x)]))
vacuum = v0**2 * np.sin(2 * angles) / g
print(np.round(vacuum, 3))
print(np.all(rng_x < vacuum))
