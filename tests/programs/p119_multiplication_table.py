import numpy as np

n = np.arange(1, 10)
table = n[:, None] * n[None, :]
print(table)
for row in table[:3]:
    print(" ".join(f"{v:3d}" for v in row))
print(table.diagonal(), np.trace(table))
print((table % 2 == 0).sum(), np.unique(table).size)
powers = np.arange(1, 6)[:, None] ** np.arange(0, 5)
print(powers)
print(np.array2string(powers, separator=", "))
squares = {int(k): int(k * k) for k in n[:5]}
print(squares)
pascal = np.zeros((7, 7), dtype=int)
pascal[:, 0] = 1
for i in range(1, 7):
    pascal[i, 1:] = pascal[i - 1, 1:] + pascal[i - 1, :-1]
print(pascal)
print(pascal.sum(axis=1))
