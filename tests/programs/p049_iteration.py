import numpy as np

a = np.array([[1, 2], [3, 4]])
for row in a:
    print(row, row.sum())
for idx, val in np.ndenumerate(a):
    print(idx, val)
for idx in np.ndindex(2, 2, 1):
    print(idx, end=" ")
print()
for x in np.nditer(a):
    print(int(x), end=" ")
print()
for x in a.flat:
    print(x, end=",")
print()
print(a.flat[3], list(a.flat))
total = 0
for i in range(a.shape[0]):
    for j in range(a.shape[1]):
        total += a[i, j] * (i + 1)
print(total, type(total))
b = np.arange(6).reshape(2, 3)
for x in np.nditer(b, order="F"):
    print(int(x), end=" ")
print()
print([int(v) for v in b.ravel() if v % 2])
print(list(zip(*np.nonzero(b > 2))))
it = iter(np.arange(3))
print(next(it), next(it))
for i, (p, q) in enumerate(zip(np.arange(3), np.arange(3) ** 2)):
    print(i, p, q)
print(list(map(float, np.linspace(0, 1, 3))))
print(len(np.zeros((5, 2))), a.tolist(), b[0].tolist())
