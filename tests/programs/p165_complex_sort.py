# Sorting complex arrays in NumPy's order (NaNs last by kind), argsort, axes, in-place sort, sort_complex.
import numpy as np
z = np.array([3+1j, 1-2j, 1+2j, -1+0j, 3-1j, np.nan + 0j, 1 + np.nan*1j, np.nan*1j + np.nan, 2+0j, np.nan + 3j, -0.0 + 0j, 0j])
print(np.sort(z))
print(np.argsort(z), np.argsort(z, kind="stable"))
m = z[:12].reshape(3, 4)
print(np.sort(m, axis=0), np.sort(m, axis=1), np.argsort(m, axis=0))
s = z.copy(); s.sort(); print(s)
print(np.sort_complex([5, 3, 6, 2, 1]), np.sort_complex(np.array([1, 2], dtype=np.int8)).dtype, np.sort_complex([1 + 2j, 2 - 1j, 3 - 2j, 3 - 3j, 3 + 5j]))
print(np.sort(z.astype(np.complex64)))
