# ufunc.reduceat, np.roots, linspace's exact endpoint, unique_values' distinct NaNs.
import numpy as np
print(np.linspace(np.array(np.nan), np.uint8(200))[-1], np.linspace(0, np.array([1.0, 2.0]), 3))
print(np.add.reduceat(np.arange(8), [0, 4, 1, 5]), np.multiply.reduceat(np.arange(8).reshape(2, 4) + 1, [0, 2], axis=1))
print(np.roots([1, -3, 2]), np.roots([0, 0, 1, 2, 0]), np.unique_values(np.array([np.nan, np.nan, 1.5])))
try:
    np.add.reduceat(np.arange(8), [0, 9])
except IndexError as e:
    print(e)
