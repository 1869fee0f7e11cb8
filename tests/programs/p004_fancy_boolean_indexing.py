import numpy as np

x = np.arange(10, 1, -1)
print(x)
print(x[np.array([3, 3, 1, 8])])
print(x[np.array([3, 3, -3, 8])])
print(x[np.array([[1, 1], [2, 3]])])

y = np.arange(35).reshape(5, 7)
print(y[np.array([0, 2, 4]), np.array([0, 1, 2])])
print(y[np.array([0, 2, 4]), 1])
print(y[np.array([0, 2, 4])])

b = y > 20
print(y[b])
print(b[:, 5])
print(y[b[:, 5]])

x = np.array([[1.0, 2.0], [np.nan, 3.0], [np.nan, np.nan]])
print(x[~np.isnan(x)])

x = np.array([1.0, -1.0, -2.0, 3.0])
x[x < 0] += 20
print(x)

a = np.arange(12).reshape(3, 4)
rows = np.array([[0, 0], [2, 2]])
cols = np.array([[0, 3], [0, 3]])
print(a[rows, cols])
print(a[np.ix_([0, 2], [0, 3])])
print(a[1:, [1, 2]])

mask = np.array([True, False, True])
print(a[mask, 1:3])
idx = np.nonzero(a % 5 == 0)
print(idx)
print(a[idx])
