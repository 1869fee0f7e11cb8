import numpy as np

a = np.array([1.7, -2.3, 3.5, -0.5])
print(a.astype(int))
print(a.astype(np.int8))
print(a.astype(np.float32))
print(a.astype(bool))
print(np.array([300, -1, 255]).astype(np.uint8))

print(np.array([1, 2, 3]).dtype)
print(np.array([1, 2.0]).dtype)
print(np.array([1, 2 + 0j]).dtype)
print(np.array([True, False]).dtype)

for dt in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
           np.float16, np.float32, np.float64, np.complex64, np.complex128, np.bool_]:
    d = np.dtype(dt)
    print(d, d.itemsize, d.kind, d.char)

print(np.can_cast(np.int32, np.float64), np.can_cast(np.float64, np.int32))
print(np.can_cast(np.int64, np.float32, casting="same_kind"))
print(np.result_type(np.int8, np.uint8))
print(np.result_type(np.int32, np.float32))
print(np.promote_types(np.uint64, np.int64))
print(np.promote_types("f4", "i2"))
print(np.finfo(np.float32).eps, np.finfo(np.float64).max)
print(np.iinfo(np.int16).min, np.iinfo(np.int16).max)
print(np.iinfo(np.uint8))
