import numpy as np

class Particles:
    """A tiny particle system integrated with semi-implicit Euler."""

    def __init__(self, pos, vel, mass):
        self.pos = np.asarray(pos, dtype=float)
        self.vel = np.asarray(vel, dtype=float)
        self.mass = np.asarray(mass, dtype=float)

    def kinetic_energy(self):
        return 0.5 * np.sum(self.mass[:, None] * self.vel**2)

    def step(self, dt, g=np.array([0.0, -9.81])):
        self.vel += g * dt
        self.pos += self.vel * dt
        hit = self.pos[:, 1] < 0
        self.pos[hit, 1] = -self.pos[hit, 1]
        self.vel[hit, 1] *= -0.8
        return hit.sum()

    def __repr__(self):
        return f"Particles(n={len(self.mass)}, KE={self.kinetic_energy():.3f})"

p = Particles([[0.0, 1.0], [1.0, 2.0], [2.0, 0.5]],
              [[1.0, 0.0], [0.0, 0.0], [-1.0, 2.0]],
              [1.0, 2.0, 0.5])
print(p)
bounces = 0
for i in range(60):
    bounces += p.step(0.02)
    if i % 15 == 14:
        print(i + 1, np.round(p.pos, 4).tolist())
print("bounces:", bounces)
print(p)
print(np.round(p.vel, 4))
