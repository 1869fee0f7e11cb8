import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

x = np.arange(6)
v = sliding_window_view(x, 3)
print(v.shape)
print(v)
print(v.mean(axis=-1))
i, j = np.ogrid[:3, :4]
xx = 10 * i + j
print(sliding_window_view(xx, (2, 2)).shape)
print(sliding_window_view(xx, 3, axis=0))
prices = np.array([10.0, 11.0, 12.5, 12.0, 11.5, 13.0, 14.0, 13.5])
w = sliding_window_view(prices, 4)
print(w.max(axis=1), w.min(axis=1))
print(np.round(w.std(axis=1), 4))
med = np.median(sliding_window_view(prices, 3), axis=1)
print(med)
s = np.lib.stride_tricks.as_strided(x, shape=(4, 3), strides=(8, 8))
print(s)
print(np.lib.stride_tricks.sliding_window_view(x, 2)[::2])
