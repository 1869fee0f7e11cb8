import numpy as np

digits = "31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679"
d = np.array([int(c) for c in digits])
steps = np.where(d % 2 == 0, 1, -1)
walk = np.cumsum(steps)
print(len(walk), walk[:20])
print("final", walk[-1], "max", walk.max(), "min", walk.min())
print("first time at +3:", np.argmax(walk >= 3) if (walk >= 3).any() else None)
print("first time at -5:", np.argmax(walk <= -5) if (walk <= -5).any() else None)
returns = np.flatnonzero(walk == 0)
print("returns to origin", returns.size, returns[:6])
print(np.bincount(d))
print("digit mean %.4f var %.4f" % (d.mean(), d.var()))
pairs = d[:-1] * 10 + d[1:]
vals, counts = np.unique(pairs, return_counts=True)
print("most common pair", vals[np.argmax(counts)], counts.max())
steps2 = np.stack([np.cos(d * np.pi / 5), np.sin(d * np.pi / 5)], axis=1)
pos = np.cumsum(steps2, axis=0)
print(np.round(pos[-1], 6), np.round(np.linalg.norm(pos, axis=1).max(), 6))
