"""The C ABI from Python's ctypes (include/gpy/gpy_c.h), with NumPy as the
other side of DLPack: a NumPy array passed in without copying (the script's
writes show in NumPy; NumPy's deleter runs once, when the script lets go), a
script array read out as a NumPy array over gpy's memory, a host function,
output by line and errors. Usage: test_ctypes.py path/to/libgpy.so
(CTest: api_ctypes). Exits 1 at the first failed check."""
import ctypes as C
import gc
import sys

import numpy as np


sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gpy_ctypes import (GPY_FLOAT, HOST_FN, TEXT_FN, Config, capsule_new, capsule_pointer,  # noqa: E402
                        capsule_rename, load)

lib = load(sys.argv[1])


def check(cond, what):
    if not cond:
        print("FAILED:", what)
        sys.exit(1)


lines = []
sink = TEXT_FN(lambda user, text, n: lines.append(C.string_at(text, n).decode()))
cfg = Config()
lib.gpy_config_init(C.byref(cfg))
cfg.backend = b"cpu"
cfg.out = sink
g = lib.gpy_new(C.byref(cfg))
check(g, "gpy_new")


def run(src, name=b"host.gpy"):
    return lib.gpy_run_string(g, src.encode(), name)


# Output arrives line by line, as printed.
check(run("import numpy as np\nfor i in range(3):\n    print(i * i)\n") == 0, "run")
check(lines == ["0\n", "1\n", "4\n"], f"per-line output {lines}")

# A NumPy array in, without copying: the script writes NumPy's memory.
a = np.arange(12, dtype=np.float32).reshape(3, 4)
refs_before = sys.getrefcount(a)
cap = a.__dlpack__(max_version=(1, 0))
ptr = capsule_pointer(cap, b"dltensor_versioned")
capsule_rename(cap, b"used_dltensor_versioned")  # consumed: ours now, then gpy's
check(lib.gpy_set_dlpack_versioned(g, b"a", ptr) == 0, "set_dlpack")
del cap
check(run("a[1] = -a[1]\ns = float(a.sum())\ncol = a[:, 2]\n") == 0, lib.gpy_last_error(g))
check(a[1].tolist() == [-4.0, -5.0, -6.0, -7.0], f"writes visible in NumPy: {a}")
s = C.c_double()
check(lib.gpy_get_float(g, b"s", C.byref(s)) == 0 and s.value == float(a.sum()), "sum")
check(sys.getrefcount(a) > refs_before, "gpy holds NumPy's array while the script views it")
check(run("del a\n") == 0, "del a")
check(sys.getrefcount(a) > refs_before, "the view col still holds it")
check(run("del col\n") == 0, "del col")
check(sys.getrefcount(a) == refs_before, "NumPy's deleter ran once the last view was gone")

# A script array out, as a NumPy array over gpy's memory.
check(run("b = np.linspace(0, 1, 5) ** 2\n") == 0, "make b")
t = lib.gpy_get_dlpack_versioned(g, b"b")
check(t, "get_dlpack")


class Holder:
    def __init__(self, p):
        self.cap = capsule_new(p, b"dltensor_versioned", None)

    def __dlpack__(self, **kw):
        return self.cap

    def __dlpack_device__(self):
        return (1, 0)


b = np.from_dlpack(Holder(t))
check(np.array_equal(b, np.linspace(0, 1, 5) ** 2), f"values out {b}")
check(b.dtype == np.float64 and b.shape == (5,), "dtype and shape out")
b[0] = 42.0  # the same memory as the script's b
check(run("first = float(b[0])\n") == 0, "read back")
check(lib.gpy_get_float(g, b"first", C.byref(s)) == 0 and s.value == 42.0, "NumPy's write seen by the script")
check(run("del b\n") == 0, "del b")
check(b[4] == 1.0, "NumPy's array keeps gpy's memory after the script let go")
del b
gc.collect()

# A host function: floats in and out; its error is the script's exception.
def scaled(user, gp, args, nargs, result):
    if nargs != 1 or args[0].kind != GPY_FLOAT:
        lib.gpy_raise(gp, b"TypeError", b"scaled takes one float")
        return 1
    result[0].kind = GPY_FLOAT
    result[0].f = args[0].f * 3
    return 0


fn = HOST_FN(scaled)
check(lib.gpy_define(g, b"scaled", fn, None) == 0, "define")
check(run("y = scaled(2.5)\n") == 0, "call host")
check(lib.gpy_get_float(g, b"y", C.byref(s)) == 0 and s.value == 7.5, "host result")
check(run("try:\n    scaled('x')\nexcept TypeError as e:\n    print(e)\n") == 0, "host error")
check(lines[-1] == "scaled takes one float\n", f"host error text {lines[-1]!r}")

# Errors as data.
check(run("q = np.zeros(3)\nq.reshape(4)\n", b"err.gpy") == 1, "error code")
info = lib.gpy_last_error_info(g).contents
check((info.type, info.file, info.line) == (b"ValueError", b"err.gpy", 2), f"error info {info.type} {info.file} {info.line}")
check(lib.gpy_last_error(g) == b"err.gpy:2:1: error: ValueError: cannot reshape array of size 3 into shape (4,)", lib.gpy_last_error(g))

lib.gpy_free(g)
print("test_ctypes: all checks passed")
