import numpy as np

# columns: height_cm, weight_kg, age
header = ["height", "weight", "age"]
table = np.array([
    [172.0, 68.5, 34],
    [165.5, 59.0, 28],
    [181.2, 85.3, 45],
    [158.0, 52.1, 23],
    [176.4, 77.8, 39],
    [169.9, 64.0, 31],
    [190.1, 95.5, 52],
    [162.3, 58.7, 27],
])
print(table.shape)
for j, name in enumerate(header):
    col = table[:, j]
    print(f"{name:>7}: mean={col.mean():8.3f} std={col.std(ddof=1):7.3f} "
          f"min={col.min():6.1f} max={col.max():6.1f} median={np.median(col):6.2f}")
bmi = table[:, 1] / (table[:, 0] / 100) ** 2
print("BMI", np.round(bmi, 2))
print("overweight rows", np.nonzero(bmi > 25)[0])
order = np.argsort(table[:, 2])
print("sorted by age\n", table[order])
norm = (table - table.mean(axis=0)) / table.std(axis=0)
print(np.round(norm, 3))
print(np.round(np.corrcoef(table.T), 3))
groups = np.where(table[:, 2] < 35, 0, 1)
for g in (0, 1):
    sel = table[groups == g]
    print(g, len(sel), np.round(sel.mean(axis=0), 2))
summary = {name: round(float(table[:, j].sum()), 1) for j, name in enumerate(header)}
print(summary)
