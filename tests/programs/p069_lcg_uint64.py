import numpy as np

# A 64-bit linear congruential generator relying on uint64 wrap-around.
A = np.uint64(6364136223846793005)
C = np.uint64(1442695040888963407)

def lcg(seed, n):
    out = np.empty(n, dtype=np.uint64)
    s = np.uint64(seed)
    for i in range(n):
        s = s * A + C
        out[i] = s
    return out

vals = lcg(42, 8)
print(vals)
print(vals.dtype, vals[:3] >> np.uint64(33))
u = (vals >> np.uint64(11)).astype(np.float64) / 2.0**53
print(np.round(u, 10))
states = np.array([1, 2, 3], dtype=np.uint64)
for _ in range(3):
    states = states * A + C
print(states)
print((states % np.uint64(100)).astype(np.int64))
x = np.array([2**32 - 1], dtype=np.uint32)
print(x * x, x + x, (x.astype(np.uint64) * x.astype(np.uint64)))
h = np.uint32(2166136261)
for byte in [ord(ch) for ch in "numpy"]:
    h = (h ^ np.uint32(byte)) * np.uint32(16777619)
print("fnv1a", h, hex(int(h)))
print(np.uint64(9223372036854775807) + np.uint64(1))
