import numpy as np

# NEP 50: Python scalars are "weak", NumPy scalars are strong.
x = np.uint8(200)
print(repr(x + 1))
print(repr(np.uint8(1) + 300.0))
print(repr(np.int8(100) + np.int8(100)))
print(repr(np.float32(3) + 3.0))
print(repr(np.float32(3) + np.float64(3)))
a = np.array([100, 120], dtype=np.int8)
print(a + a, (a + a).dtype)
print(a + 1, (a + 1).dtype)
print((a * 2.0).dtype)
print((np.arange(3, dtype=np.uint8) - 1))
print(np.array([250], dtype=np.uint8) + np.array([10], dtype=np.uint8))
print(np.array([2**31 - 1], dtype=np.int32) + 1)
print((np.array([1, 2], dtype=np.int16) + np.array([1, 2], dtype=np.int32)).dtype)
print((np.array([1], dtype=np.uint32) + np.array([1], dtype=np.int32)).dtype)
print((np.array([1], dtype=np.uint64) + np.array([1], dtype=np.int64)).dtype)
print((np.array([1], dtype=np.float32) + np.array([1], dtype=np.int64)).dtype)
print((np.array([1], dtype=np.float16) + np.array([1], dtype=np.int8)).dtype)
try:
    np.array([1, 2], dtype=np.uint8) + 1000
except OverflowError as e:
    print("OverflowError:", e)
print(np.int64(2) ** 62)
print(np.iinfo(np.int64).max + np.int64(0))
print(np.array([1, 2, 3], dtype=np.int32) / 2)
print(np.array([7, -7]) // 2, np.array([7, -7]) % 3)
print(np.cumsum(np.array([100, 100, 100], dtype=np.int8)))
print(np.sum(np.array([100, 100, 100], dtype=np.int8)))
print(np.sum(np.array([100, 100, 100], dtype=np.int8)).dtype)
