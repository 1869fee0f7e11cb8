import numpy as np

arrays = {
    "bool": np.array([True, False, True]),
    "int8": np.array([1, 2, 3], dtype=np.int8),
    "uint16": np.array([1, 2, 3], dtype=np.uint16),
    "int32": np.array([1, 2, 3], dtype=np.int32),
    "float16": np.array([1, 2, 3], dtype=np.float16),
    "float32": np.array([1, 2, 3], dtype=np.float32),
    "complex64": np.array([1, 2, 3], dtype=np.complex64),
}
for name, a in arrays.items():
    results = [a.sum(), a.prod(), a.mean(), a.cumsum()[-1], np.median(a) if name != "complex64" else a.mean()]
    print(f"{name:9s}", [type(r).__name__ for r in results], [str(r) for r in results[:3]])
for name in ["int8", "float16", "float32"]:
    a = arrays[name]
    print(name, a.std().dtype, a.var().dtype, a.max().dtype, a.argmax().dtype, np.ptp(a).dtype)
print(arrays["bool"].max(), arrays["bool"].any().dtype, np.mean(arrays["bool"]))
print(repr(arrays["float32"].mean()), repr(arrays["float16"].mean()), repr(arrays["int8"].mean()))
print(repr(np.average(arrays["float32"])), repr(np.median(arrays["float32"])))
