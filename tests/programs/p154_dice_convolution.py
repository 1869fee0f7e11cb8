import numpy as np

die = np.ones(6) / 6
two = np.convolve(die, die)
print(np.round(two * 36).astype(int))
print("P(sum=7) = %.6f" % two[7 - 2])
three = np.convolve(two, die)
sums = np.arange(3, 19)
print(np.round(three * 216).astype(int))
print("mean %.4f var %.4f" % (np.sum(sums * three), np.sum(sums**2 * three) - np.sum(sums * three) ** 2))
print("mode", sums[np.argmax(three)], "P(>=15) %.6f" % three[sums >= 15].sum())
counts = np.zeros(19, dtype=int)
for a in range(1, 7):
    for b in range(1, 7):
        for c in range(1, 7):
            counts[a + b + c] += 1
print(np.array_equal(counts[3:], np.round(three * 216).astype(int)))
coin = np.array([0.5, 0.5])
dist = np.array([1.0])
for _ in range(10):
    dist = np.convolve(dist, coin)
print(np.round(dist * 1024).astype(int))
cdf = np.cumsum(dist)
print("P(heads<=3) %.6f" % cdf[3])
