import numpy as np

types = [np.bool_, np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64, np.float16, np.float32, np.float64, np.complex64]
names = [np.dtype(t).char for t in types]
print("   " + " ".join(f"{n:>3}" for n in names))
for t1 in types:
    row = [np.result_type(t1, t2).char for t2 in types]
    print(f"{np.dtype(t1).char:>3}" + " ".join(f"{c:>3}" for c in row))
for t in types:
    a = np.ones(2, dtype=t)
    print(np.dtype(t).name, (a + 1).dtype, (a + 1.0).dtype, (a + 1j).dtype, (a * True).dtype)
# Python scalars are weak (NEP 50): they never upcast a NumPy array or scalar.
for value in (1, 1.0, 1j, True):
    a = np.ones(2, dtype=np.float32)
    s = np.int16(3)
    print(type(value).__name__, (a * value).dtype, type(s + value).__name__)
print(np.result_type(np.int8, 1), np.result_type(np.float32, 1.0), np.result_type(np.uint8, 255))
