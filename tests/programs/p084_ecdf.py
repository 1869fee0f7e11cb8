import numpy as np

samples = np.array([3.2, 1.5, 4.8, 2.2, 3.9, 2.2, 5.1, 0.7, 3.3, 4.0])
xs = np.sort(samples)
ys = np.arange(1, len(xs) + 1) / len(xs)
for x, y in zip(xs, ys):
    print(f"{x:4.1f} {y:.2f}")
def ecdf(v, data=xs):
    return np.searchsorted(data, v, side="right") / len(data)
print(ecdf(np.array([0.0, 2.2, 3.0, 10.0])))
counts, edges = np.histogram(samples, bins=4, range=(0, 6))
cum = np.cumsum(counts) / counts.sum()
print(counts, edges, cum)
mid = (edges[:-1] + edges[1:]) / 2
print(mid, np.round(np.sum(mid * counts) / counts.sum(), 4))
# two-sample KS statistic
other = np.array([2.0, 2.5, 3.0, 3.5, 6.0, 6.5])
grid = np.union1d(samples, other)
F1 = np.searchsorted(np.sort(samples), grid, side="right") / samples.size
F2 = np.searchsorted(np.sort(other), grid, side="right") / other.size
D = np.abs(F1 - F2)
print("KS D = %.4f at x = %.1f" % (D.max(), grid[D.argmax()]))
