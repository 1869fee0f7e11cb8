import numpy as np

M = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [0.5, 0.0, 1.5]])
row_norm = M / M.sum(axis=1, keepdims=True)
print(np.round(row_norm, 4))
col_norm = M / M.sum(axis=0)
print(np.round(col_norm, 4))
unit_rows = M / np.linalg.norm(M, axis=1, keepdims=True)
print(np.round(unit_rows, 4), np.round(np.linalg.norm(unit_rows, axis=1), 12))
zscore = (M - M.mean(axis=0)) / M.std(axis=0)
print(np.round(zscore, 4))
minmax = (M - M.min(axis=0)) / np.ptp(M, axis=0)
print(minmax)
centered = M - M.mean(axis=1)[:, np.newaxis]
print(centered)
print(centered.sum(axis=1))
T = np.arange(24, dtype=float).reshape(2, 3, 4)
print(np.round(T / T.sum(axis=(1, 2), keepdims=True), 4)[1])
print(T.max(axis=-1, keepdims=True).shape, T.mean(axis=(0, 2)).shape)
