import numpy as np

def bsearch(a, target):
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo

a = np.array([1, 3, 3, 5, 8, 13, 21, 34])
targets = [0, 1, 3, 4, 34, 40]
mine = [bsearch(a, t) for t in targets]
print(mine)
print(np.searchsorted(a, targets).tolist())
print(np.searchsorted(a, targets, side="right"))
sorter = np.argsort(np.array([30, 10, 20]))
print(np.searchsorted(np.array([30, 10, 20]), [15, 25], sorter=sorter))
f = np.array([0.0, 0.1, 0.35, 0.7, 1.0])
events = np.array([0.05, 0.35, 0.36, 0.99, 0.0])
print(np.searchsorted(f, events, side="right") - 1)
x = np.linspace(0, 1, 11)
lo = np.searchsorted(x, 0.33) - 1
print(lo, x[lo], x[lo + 1])
print(type(mine[0]), type(np.searchsorted(a, 5)))
