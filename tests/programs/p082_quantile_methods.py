import numpy as np

a = np.array([[10, 7, 4], [3, 2, 1]])
print(np.percentile(a, 50))
print(np.percentile(a, 50, axis=0))
print(np.percentile(a, 50, axis=1, keepdims=True))
print(np.percentile(a, [10, 90], axis=1))
x = np.array([1.0, 2.0, 3.0, 4.0, 10.0])
for m in ["linear", "lower", "higher", "nearest", "midpoint"]:
    print(m, np.percentile(x, [20, 40, 65], method=m))
for m in ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased", "normal_unbiased"]:
    print(m, np.round(np.quantile(x, [0.2, 0.4, 0.65], method=m), 6))
print(np.quantile(np.arange(10), [0.0, 0.33, 1.0]))
print(np.median(np.array([[1, 3], [2, 4]]), axis=None))
print(type(np.median([1, 2, 3])), np.median([1, 2, 3, 4]))
print(np.quantile(np.array([1, 2], dtype=np.float32), 0.5).dtype)
