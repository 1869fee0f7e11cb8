import numpy as np

x = np.array([2.1, 3.5, 3.9, 4.4, 5.0, 5.1, 5.5, 6.2, 6.8, 7.7, 8.0, 9.9, 12.5])
for rule in ["auto", "sturges", "fd", "scott", "rice", "sqrt", "doane"]:
    edges = np.histogram_bin_edges(x, bins=rule)
    counts, _ = np.histogram(x, bins=rule)
    print(f"{rule:8s} nbins={len(edges) - 1:2d} counts={counts.tolist()}")
counts, edges = np.histogram(x, bins=4, density=True)
print(np.round(counts, 6), np.round(edges, 4))
print(np.round(np.sum(counts * np.diff(edges)), 12))
c, e = np.histogram(x.astype(np.float32), bins=3)
print(c, e, e.dtype)
c, e = np.histogram(np.arange(10), bins=3)
print(c, e, e.dtype)
print(np.histogram(np.array([1, 1, 2, 2, 2, 3]), bins=np.array([1, 2, 3])))
print(np.histogram(np.array([]), bins=3))
