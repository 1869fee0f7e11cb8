import numpy as np

def welford(xs):
    n, mean, m2 = 0, 0.0, 0.0
    for x in xs:
        n += 1
        delta = x - mean
        mean += delta / n
        m2 += delta * (x - mean)
    return mean, m2 / n, m2 / (n - 1)

data = np.array([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16])
mean, var_p, var_s = welford(data)
print(mean, var_p, var_s)
print(data.mean(), data.var(), data.var(ddof=1))
naive = np.mean(data**2) - np.mean(data) ** 2
print("naive", naive)
x = np.linspace(0, 1, 11) ** 2
m, vp, vs = welford(x)
print(round(float(m), 12), round(float(vp), 12), round(float(vs), 12))
print(np.isclose(m, x.mean()), np.isclose(vp, x.var()), np.isclose(vs, x.var(ddof=1)))
chunks = np.array_split(x, 3)
ns = np.array([len(c) for c in chunks])
means = np.array([c.mean() for c in chunks])
m2s = np.array([c.var() * len(c) for c in chunks])
grand = np.sum(ns * means) / ns.sum()
M2 = m2s.sum() + np.sum(ns * (means - grand) ** 2)
print(np.isclose(grand, x.mean()), np.isclose(M2 / ns.sum(), x.var()))
print(ns, np.round(means, 6))
