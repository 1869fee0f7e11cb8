"""Zero-copy exchange with PyTorch and CuPy on the GPU through DLPack, from a
Python host over gpy's C ABI (ctypes), with stream ordering checked: a torch
kernel writes x on stream S, gpy (put on S with gpy_use_stream) reads it
with no synchronisation in between, and torch reads gpy's result on S.
The same with CuPy. Usage: dlpack_peers.py path/to/libgpy.so (exit 0: all
checks held; 77: no torch/cupy or GPU)."""
import ctypes as C
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gpu_checks import Tally  # noqa: E402

try:
    import torch
except ImportError:
    print("dlpack_peers: no torch, skipped")
    sys.exit(77)
if not torch.cuda.is_available():
    print("dlpack_peers: no GPU, skipped")
    sys.exit(77)

sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/../api")
from gpy_ctypes import (Config, capsule_is_valid as is_valid, capsule_new as new_capsule,  # noqa: E402
                        capsule_pointer as get_pointer, capsule_rename as rename, load)

lib = load(sys.argv[1])
tally = Tally()


def check(ok, name, detail=""):
    tally.check(name, bool(ok), str(detail))


cfg = Config()
lib.gpy_config_init(C.byref(cfg))
cfg.backend = b"cuda"
g = lib.gpy_new(C.byref(cfg))
check(bool(g), "gpy_new(cuda)", lib.gpy_last_error(None))


def hand_in(name, capsule):
    versioned = is_valid(capsule, b"dltensor_versioned")
    kind = b"dltensor_versioned" if versioned else b"dltensor"
    ptr = get_pointer(capsule, kind)
    rename(capsule, b"used_" + kind)
    setter = lib.gpy_set_dlpack_versioned if versioned else lib.gpy_set_dlpack
    return setter(g, name.encode(), ptr)


class Out:
    """A gpy array handed out: an object with __dlpack__ for torch/cupy.from_dlpack."""

    def __init__(self, name, versioned):
        get = lib.gpy_get_dlpack_versioned if versioned else lib.gpy_get_dlpack
        self.ptr = get(g, name.encode())
        self.kind = b"dltensor_versioned" if versioned else b"dltensor"

    def __dlpack__(self, stream=None, max_version=None, **kw):
        return new_capsule(self.ptr, self.kind, None)

    def __dlpack_device__(self):
        return (2, 0)


def run(src):
    rc = lib.gpy_run_string(g, src.encode(), b"peers.gpy")
    check(rc == 0, "run", lib.gpy_last_error(g))


n = 1 << 24
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    # A long torch kernel chain on S, then x: gpy must read x after it.
    x = torch.empty(n, device="cuda", dtype=torch.float32)
    w = torch.rand(n, device="cuda")
    for _ in range(20):
        w = torch.sin(w) * 0.5 + 0.5
    x.copy_(w)
    check(lib.gpy_use_stream(g, C.c_void_p(s.cuda_stream)) == 0, "use_stream", lib.gpy_last_error(g))
    check(hand_in("x", x.__dlpack__(stream=s.cuda_stream)) == 0, "torch -> gpy", lib.gpy_last_error(g))
    run("import numpy as np\ny = np.sqrt(x) * 3 + 1\nx[:8] = -1\n")
    y = torch.from_dlpack(Out("y", versioned=False))
    got_sum = y.double().sum()
s.synchronize()
ref = torch.sqrt(w) * 3 + 1
check(torch.equal(y, ref), "torch sees gpy's y (same values as torch computes)",
            f"max diff {(y - ref).abs().max().item()}")
check(bool((x[:8] == -1).all()) and bool((x[8:] == w[8:]).all()), "gpy's writes to x seen by torch")
check(abs(got_sum.item() - ref.double().sum().item()) < 1e-6 * n, "sum on S after gpy's kernels")

try:
    import cupy as cp
except ImportError:
    cp = None
if cp is not None:
    cs = cp.cuda.Stream(non_blocking=True)
    with cs:
        a = cp.arange(1 << 22, dtype=cp.float64)
        a = cp.cos(a) ** 2
        check(lib.gpy_use_stream(g, C.c_void_p(cs.ptr)) == 0, "use_stream cupy", lib.gpy_last_error(g))
        check(hand_in("a", a.__dlpack__(stream=cs.ptr)) == 0, "cupy -> gpy", lib.gpy_last_error(g))
        run("b = np.cumsum(a)[::2]\nsa = float(a.sum())\n")
        b = cp.from_dlpack(Out("b", versioned=True))
        ref_b = cp.cumsum(a)[::2]
    cs.synchronize()
    check(bool(cp.allclose(b, ref_b, rtol=1e-12, atol=1e-9)), "cupy sees gpy's cumsum (strided view)")
    check(b.strides == (16,), f"strided view kept: {b.strides}")
else:
    print("dlpack_peers: no cupy, its half skipped")

lib.gpy_free(g)
sys.exit(tally.finish())
