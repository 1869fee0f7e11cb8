import numpy as np

for spec in ["int32", "float64", "f4", "i8", "u1", "c16", "?", "b", "e", float, int, bool, complex]:
    d = np.dtype(spec)
    print(repr(spec), d, d.name, d.itemsize, d.kind, d.str)
print(np.dtype(np.float64) == np.float64, np.dtype("f8") == np.dtype(float))
print(np.dtype("int64").type, np.dtype("float32").type is np.float32)
print(repr(np.dtype("float32")), repr(np.dtype(np.int16)))
print(np.float64.__name__, np.int32.__name__, np.dtype("u2").name)
a = np.arange(3, dtype=np.int16)
print(a.dtype.type(7), type(a.dtype.type(7)))
print(a.astype(a.dtype) is a, a.astype(np.int16, copy=False) is a)
print(np.issubdtype(a.dtype, np.integer), np.issubdtype(np.float16, np.inexact), np.issubdtype(np.complex64, np.complexfloating))
print(np.dtype(np.int64).byteorder, np.dtype(np.uint8).byteorder, np.dtype("<i4").str)
print(np.dtype(np.float32).alignment, np.dtype(np.complex64).itemsize)
print(np.min_scalar_type(10), np.min_scalar_type(-10), np.min_scalar_type(300), np.min_scalar_type(1.5))
print(np.common_type(np.array([1, 2]), np.array([1.0], dtype=np.float32)))
print(np.isdtype(np.float32, "real floating"), np.isdtype(np.int8, "integral"))
print(np.int_ is np.int64, np.float64 is np.double, np.intp)
