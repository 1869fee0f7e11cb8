import numpy as np

data = np.array([12.0, 15.5, 9.8, 11.2, 14.1, 13.3, 10.9, 16.0, 12.7, 11.8])
n = len(data)
B = 200
# deterministic "resampling" indices from a linear congruential scheme
seq = (np.arange(B * n, dtype=np.int64) * 2654435761 + 12345) % 2**32
idx = (seq % n).reshape(B, n)
samples = data[idx]
means = samples.mean(axis=1)
print(idx[:2])
print("bootstrap mean %.5f" % means.mean())
print("bootstrap se %.5f" % means.std(ddof=1))
lo, hi = np.percentile(means, [2.5, 97.5])
print("95%% CI [%.4f, %.4f]" % (lo, hi))
print("analytic se %.5f" % (data.std(ddof=1) / np.sqrt(n)))
medians = np.median(samples, axis=1)
print("median se %.5f" % medians.std(ddof=1))
jack = np.array([np.delete(data, i).mean() for i in range(n)])
print("jackknife se %.5f" % np.sqrt((n - 1) / n * np.sum((jack - jack.mean()) ** 2)))
print(np.bincount(idx.ravel(), minlength=n))
