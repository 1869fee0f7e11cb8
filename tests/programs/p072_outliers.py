import numpy as np

readings = np.array([10.2, 9.8, 10.1, 10.0, 55.0, 9.9, 10.3, -20.0, 10.05, 9.95, 10.15, 10.0])
mean, std = readings.mean(), readings.std()
z = (readings - mean) / std
print(np.round(z, 3))
print("z-outliers:", np.nonzero(np.abs(z) > 2)[0])
q1, q3 = np.percentile(readings, [25, 75])
iqr = q3 - q1
lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
print(f"q1={q1:.4f} q3={q3:.4f} iqr={iqr:.4f} bounds=({lo:.4f}, {hi:.4f})")
mask = (readings >= lo) & (readings <= hi)
clean = readings[mask]
print("kept", mask.sum(), "of", readings.size)
print(clean)
print("clean mean %.5f std %.5f" % (clean.mean(), clean.std(ddof=1)))
med = np.median(readings)
mad = np.median(np.abs(readings - med))
robust = 0.6745 * (readings - med) / mad
print(np.round(robust, 2))
winsor = np.clip(readings, *np.percentile(readings, [10, 90]))
print(np.round(winsor, 3))
trimmed = np.sort(readings)[2:-2].mean()
print(round(float(trimmed), 6))
print(np.percentile(readings, [0, 100], method="nearest"), np.quantile(readings, 0.5, method="lower"))
