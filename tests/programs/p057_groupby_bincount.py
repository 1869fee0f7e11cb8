import numpy as np

store = np.array([2, 0, 1, 2, 2, 0, 1, 1, 0, 2])
sales = np.array([120.5, 80.0, 95.25, 130.0, 60.0, 45.5, 100.0, 70.0, 99.9, 10.0])
counts = np.bincount(store)
totals = np.bincount(store, weights=sales)
print(counts, totals)
print("means", totals / counts)
keys, inv = np.unique(store, return_inverse=True)
print(keys, inv)
maxes = np.full(len(keys), -np.inf)
np.maximum.at(maxes, inv, sales)
print("max per store", maxes)
order = np.lexsort((-sales, store))
print(order)
print(np.column_stack([store[order], sales[order]]))
first = np.unique(store[order], return_index=True)[1]
print("best sale per store", sales[order][first])
share = sales / totals[store]
print(np.round(share, 4))
cum = np.zeros_like(sales)
for k in keys:
    m = store == k
    cum[m] = np.cumsum(sales[m])
print(cum)
names = {0: "north", 1: "south", 2: "west"}
report = sorted(((names[int(k)], float(t)) for k, t in zip(keys, totals)), key=lambda kv: -kv[1])
for name, t in report:
    print(f"{name:6s} {t:8.2f}")
