import numpy as np

x = np.linspace(-4, 4, 401)
pdf = np.exp(-0.5 * x**2) / np.sqrt(2 * np.pi)
cdf = np.concatenate([[0.0], np.cumsum((pdf[1:] + pdf[:-1]) / 2 * np.diff(x))])
cdf /= cdf[-1]
u = (np.arange(1000) + 0.5) / 1000
samples = np.interp(u, cdf, x)
print(np.round(samples[:5], 4), np.round(samples[-3:], 4))
print("mean %.5f std %.5f" % (samples.mean(), samples.std()))
print("median %.5f" % np.median(samples))
for p in (0.5, 0.841, 0.975):
    print(f"quantile {p}: {np.interp(p, cdf, x):.4f}")
h, e = np.histogram(samples, bins=8, range=(-4, 4))
print(h)
expo_u = (np.arange(10) + 0.5) / 10
expo = -np.log(1 - expo_u) / 2.0
print(np.round(expo, 5), round(float(expo.mean()), 5))
