import numpy as np

dtypes = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
          np.uint32, np.uint64, np.float16, np.float32, np.float64,
          np.complex64, np.complex128]
for dt in dtypes:
    a = np.array([0, 1, 2, 3], dtype=dt)
    print(repr(a))
    print(str(a))
print(repr(np.array([0.1, 0.2, 0.3], dtype=np.float32)))
print(repr(np.array([1e-5, 1.0], dtype=np.float32)))
print(repr(np.array([1e20, 1.0])))
print(repr(np.array([-1.5, np.nan, np.inf])))
print(repr(np.array([], dtype=np.int32)))
print(repr(np.zeros((2, 0))))
print(repr(np.array([[True, False], [False, True]])))
print(repr(np.array([-1, 2], dtype=np.int8)))
print(repr(np.array(3.5)), repr(np.array(7, dtype=np.uint8)))
print(repr(np.arange(3.0).reshape(1, 3, 1)))
print(repr(np.array([1 + 2j, -3.5j], dtype=np.complex64)))
print(repr(np.array([65504], dtype=np.float16)))
