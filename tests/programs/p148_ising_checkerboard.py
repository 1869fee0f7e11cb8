import numpy as np

n = 8
spins = np.ones((n, n), dtype=int)
spins[2:6, 2:6] = -1
spins[0, ::3] = -1
i, j = np.indices((n, n))
black = (i + j) % 2 == 0

def neighbours(s):
    return np.roll(s, 1, 0) + np.roll(s, -1, 0) + np.roll(s, 1, 1) + np.roll(s, -1, 1)

def energy(s):
    return -np.sum(s * (np.roll(s, 1, 0) + np.roll(s, 1, 1)))

print("initial energy", energy(spins), "magnetisation", spins.sum())
for sweep in range(6):
    for colour in (black, ~black):
        field = neighbours(spins)
        flip = colour & (field * spins < 0)
        tie = colour & (field == 0) & ((i * 3 + j + sweep) % 5 == 0)
        spins[flip | tie] *= -1
    print(f"sweep {sweep}: E={energy(spins)} M={spins.sum()}")
for row in spins:
    print("".join("+" if s > 0 else "-" for s in row))
