"""Python's ctypes as a gpy host (C ABI): a NumPy array lent to a script
through DLPack without copying, modified in place by the script.
Usage: python3 ctypes_host.py P/lib/libgpy.so"""
import ctypes as C
import sys

import numpy as np

TEXT_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_char_p, C.c_size_t)


class Config(C.Structure):  # gpy_config, field for field
    _fields_ = [("backend", C.c_char_p), ("device", C.c_int), ("cache_dir", C.c_char_p),
                ("out", TEXT_FN), ("out_user", C.c_void_p), ("err", TEXT_FN), ("err_user", C.c_void_p),
                ("max_array_bytes", C.c_int64), ("max_memory_bytes", C.c_int64), ("lazy", C.c_int), ("fast_math", C.c_int)]


lib = C.CDLL(sys.argv[1])
lib.gpy_config_init.argtypes = [C.POINTER(Config)]
lib.gpy_new.restype = C.c_void_p
lib.gpy_new.argtypes = [C.POINTER(Config)]
lib.gpy_run_string.argtypes = [C.c_void_p, C.c_char_p, C.c_char_p]
lib.gpy_last_error.restype = C.c_char_p
lib.gpy_last_error.argtypes = [C.c_void_p]
lib.gpy_set_dlpack_versioned.argtypes = [C.c_void_p, C.c_char_p, C.c_void_p]
lib.gpy_get_float.argtypes = [C.c_void_p, C.c_char_p, C.POINTER(C.c_double)]
lib.gpy_free.argtypes = [C.c_void_p]
get_pointer = C.pythonapi.PyCapsule_GetPointer
get_pointer.restype = C.c_void_p
get_pointer.argtypes = [C.py_object, C.c_char_p]
rename = C.pythonapi.PyCapsule_SetName
rename.argtypes = [C.py_object, C.c_char_p]

cfg = Config()
lib.gpy_config_init(C.byref(cfg))
cfg.backend = b"cpu"  # host memory is shared only on the CPU (a GPU interpreter copies it to the device)
g = lib.gpy_new(C.byref(cfg))
temps = np.linspace(15.0, 30.0, 8)
capsule = temps.__dlpack__(max_version=(1, 0))
tensor = get_pointer(capsule, b"dltensor_versioned")
rename(capsule, b"used_dltensor_versioned")  # gpy owns the tensor now
assert lib.gpy_set_dlpack_versioned(g, b"celsius", tensor) == 0
rc = lib.gpy_run_string(g, b"celsius *= 9 / 5\ncelsius += 32\npeak = float(celsius.max())\n", b"convert.gpy")
assert rc == 0, lib.gpy_last_error(g)
peak = C.c_double()
lib.gpy_get_float(g, b"peak", C.byref(peak))
print("fahrenheit:", np.round(temps, 2), "peak", peak.value)
lib.gpy_free(g)
assert peak.value == 86.0 and abs(temps[0] - 59.0) < 1e-12
