import numpy as np

print(np.array([[1, 2], [3, 4]]).dtype)
print(np.array([1, 2.5, True]))
print(np.array([True, 2]))
print(np.array([[1], [2]], dtype=float).shape)
print(np.array((1, 2, 3)), np.array(range(4)), np.array([]).dtype)
print(np.array([np.int8(1), np.int8(2)]).dtype, np.array([np.float32(1), 2.0]).dtype)
print(np.array([np.float32(1), np.float32(2)]).dtype, np.array([np.uint8(1), 1000]).dtype)
print(np.array(5).shape, np.array([5]).shape, np.array([[5]]).ndim)
try:
    np.array([[1, 2], [3]])
except ValueError as e:
    print("ValueError:", e)
print(np.array([[1, 2], [3, 4]], ndmin=3).shape)
print(np.asarray([1, 2], dtype=np.float32))
print(np.array([1e3, 1]).dtype, np.array([2**40]).dtype)
print(np.array([1, 2, 3], dtype="f8"), np.array([1, 2], dtype="i2").dtype, np.array([1], dtype="u4").dtype)
print(np.array([1, 2], dtype="complex").dtype, np.array([0, 1], dtype="bool"))
rows = [[i * j for j in range(1, 5)] for i in range(1, 4)]
m = np.array(rows)
print(m)
print(np.array([m, m]).shape)
print(np.array([np.arange(2), np.arange(2, 4)]))
print(np.fromiter((x * x for x in range(5)), dtype=int))
print(np.fromiter(range(3), dtype=np.float32, count=3))
print(np.asarray(np.float64(3.0)).ndim, np.array(np.arange(3), copy=True))
print(np.empty(0).shape, np.array([[]]).shape)
print(np.array([1.5, 2.7], dtype=int), np.array(-1.9).astype(int))
