"""gpy's C ABI (include/gpy/gpy_c.h) for Python's ctypes: the structs, field
for field, and the prototypes. Shared by tests/api/test_ctypes.py and
tests/gpu/dlpack_peers.py. load(path) returns the library with its
prototypes set."""
import ctypes as C


class DLDevice(C.Structure):
    _fields_ = [("device_type", C.c_int32), ("device_id", C.c_int32)]


class DLDataType(C.Structure):
    _fields_ = [("code", C.c_uint8), ("bits", C.c_uint8), ("lanes", C.c_uint16)]


class DLTensor(C.Structure):
    _fields_ = [("data", C.c_void_p), ("device", DLDevice), ("ndim", C.c_int32), ("dtype", DLDataType),
                ("shape", C.POINTER(C.c_int64)), ("strides", C.POINTER(C.c_int64)), ("byte_offset", C.c_uint64)]


class DLPackVersion(C.Structure):
    _fields_ = [("major", C.c_uint32), ("minor", C.c_uint32)]


class DLManagedTensorVersioned(C.Structure):
    pass


DELETER = C.CFUNCTYPE(None, C.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [("version", DLPackVersion), ("manager_ctx", C.c_void_p), ("deleter", DELETER),
                                     ("flags", C.c_uint64), ("dl_tensor", DLTensor)]

TEXT_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_char_p, C.c_size_t)


class Config(C.Structure):
    _fields_ = [("backend", C.c_char_p), ("device", C.c_int), ("cache_dir", C.c_char_p),
                ("out", TEXT_FN), ("out_user", C.c_void_p), ("err", TEXT_FN), ("err_user", C.c_void_p),
                ("max_array_bytes", C.c_int64), ("max_memory_bytes", C.c_int64), ("lazy", C.c_int), ("fast_math", C.c_int)]


class Value(C.Structure):
    _fields_ = [("kind", C.c_int), ("i", C.c_int64), ("f", C.c_double), ("s", C.c_char_p),
                ("array", C.POINTER(DLManagedTensorVersioned))]


class Error(C.Structure):
    _fields_ = [("type", C.c_char_p), ("message", C.c_char_p), ("file", C.c_char_p), ("line", C.c_int), ("column", C.c_int)]


HOST_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_void_p, C.POINTER(Value), C.c_size_t, C.POINTER(Value))
GPY_NONE, GPY_BOOL, GPY_INT, GPY_FLOAT, GPY_STR, GPY_ARRAY, GPY_OTHER = range(7)

# CPython's capsule functions, for DLPack capsules.
capsule_pointer = C.pythonapi.PyCapsule_GetPointer
capsule_pointer.restype = C.c_void_p
capsule_pointer.argtypes = [C.py_object, C.c_char_p]
capsule_rename = C.pythonapi.PyCapsule_SetName
capsule_rename.argtypes = [C.py_object, C.c_char_p]
capsule_new = C.pythonapi.PyCapsule_New
capsule_new.restype = C.py_object
capsule_new.argtypes = [C.c_void_p, C.c_char_p, C.c_void_p]
capsule_is_valid = C.pythonapi.PyCapsule_IsValid
capsule_is_valid.argtypes = [C.py_object, C.c_char_p]

_PROTOTYPES = {
    "gpy_config_init": (None, [C.POINTER(Config)]),
    "gpy_new": (C.c_void_p, [C.POINTER(Config)]),
    "gpy_free": (None, [C.c_void_p]),
    "gpy_run_string": (C.c_int, [C.c_void_p, C.c_char_p, C.c_char_p]),
    "gpy_last_error": (C.c_char_p, [C.c_void_p]),
    "gpy_last_error_info": (C.POINTER(Error), [C.c_void_p]),
    "gpy_set_dlpack": (C.c_int, [C.c_void_p, C.c_char_p, C.c_void_p]),
    "gpy_set_dlpack_versioned": (C.c_int, [C.c_void_p, C.c_char_p, C.c_void_p]),
    "gpy_get_dlpack": (C.c_void_p, [C.c_void_p, C.c_char_p]),
    "gpy_get_dlpack_versioned": (C.c_void_p, [C.c_void_p, C.c_char_p]),
    "gpy_get_float": (C.c_int, [C.c_void_p, C.c_char_p, C.POINTER(C.c_double)]),
    "gpy_define": (C.c_int, [C.c_void_p, C.c_char_p, HOST_FN, C.c_void_p]),
    "gpy_raise": (None, [C.c_void_p, C.c_char_p, C.c_char_p]),
    "gpy_use_stream": (C.c_int, [C.c_void_p, C.c_void_p]),
}


def load(path):
    lib = C.CDLL(path)
    for name, (restype, argtypes) in _PROTOTYPES.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = restype, argtypes
    return lib
