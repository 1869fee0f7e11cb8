#!/usr/bin/env python3
"""gpy --check-kernels (issue 23): raw kernels on the CPU with every access
through a pointer parameter checked against its array.

Usage: python3 tests/cli/test_check_kernels.py --gpy build/gpy [-k SUBSTRING] [-v]

Each test runs a script under the flag (or GPY_CHECK_KERNELS=1) and checks
the result against NumPy's arithmetic, or the IndexError's text: the
parameter, the element, the array's size, the thread, the block and the
kernel's line; and that nothing outside the arrays was written.
"""
import sys

import test_cli as t
from test_cli import TempDir, check, check_eq, gpy, test

# An off-by-one copy: thread n reads x[n] and writes y[n].
OFF_BY_ONE = r'''import numpy as np
copy = np.RawKernel(r"""
extern "C" __global__ void copy(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) y[i] = x[i] * 2.0f;
}
""", "copy")
x = np.arange(1000, dtype=np.float32)
both = np.zeros(2000, dtype=np.float32)
y = both[:1000]
try:
    copy((4,), (256,), (x, y, np.int32(1000)))
except IndexError as e:
    print("IndexError:", e)
print(bool(np.array_equal(y, x * 2)), float(both[1000:].sum()))
'''


@test
def checked_in_bounds_kernel_gives_numpys_result():
    with TempDir() as d:
        d.write("saxpy.gpy", r'''import numpy as np
saxpy = np.RawKernel(r"""
extern "C" __global__ void saxpy(float a, const float* __restrict__ x, float* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}
""", "saxpy")
x = np.arange(5000, dtype=np.float32)
y = np.ones(5000, dtype=np.float32)
saxpy((3,), (128,), (np.float32(2.0), x, y, np.int32(5000)))
print(bool(np.array_equal(y, 2 * x + 1)), y[4999])
''')
        r = gpy("--check-kernels", "saxpy.gpy", cwd=d.path)
        check_eq(r.rc, 0, "exit code", r)
        check_eq(r.out, "True 9999.0\n", "output", r)
        check_eq(r.err, "", "stderr", r)


@test
def off_by_one_names_element_thread_block_and_line():
    with TempDir() as d:
        d.write("off.gpy", OFF_BY_ONE)
        r = gpy("--check-kernels", "off.gpy", cwd=d.path)
        check_eq(r.rc, 0, "exit code", r)
        lines = r.out.splitlines()
        check_eq(len(lines), 2, "two lines", r)
        # C++17 computes the right side of `=` first: x is read before y is written.
        check_eq(lines[0], "IndexError: RawKernel 'copy': x[1000] is outside the 1000 elements (4000 bytes) of argument 1 "
                           "(thread (232, 0, 0) of block (3, 0, 0), copy.cu:4)", "message", r)
        # The bad write went to scratch memory: y's neighbour in `both` is untouched.
        check_eq(lines[1], "True 0.0", "results in bounds kept, nothing written past y", r)


@test
def environment_variable_turns_it_on():
    with TempDir() as d:
        d.write("off.gpy", OFF_BY_ONE)
        r = gpy("off.gpy", cwd=d.path, env={"GPY_CHECK_KERNELS": "1", "GPY_BACKEND": "cpu"})
        check(r.out.startswith("IndexError: RawKernel 'copy': x[1000]"), "GPY_CHECK_KERNELS=1 checks", r)
        r = gpy("off.gpy", cwd=d.path, env={"GPY_BACKEND": "cpu"})
        check(not r.out.startswith("IndexError"), "without it the kernel is not checked", r)


@test
def negative_index_after_pointer_arithmetic_and_strided_view():
    with TempDir() as d:
        d.write("rows.gpy", r'''import numpy as np
src = r"""
extern "C" __global__ void left(const double* x, double* out, int w) {
    const double* row = x + blockIdx.x * w;
    out[blockIdx.x * w + threadIdx.x] = row[(int)threadIdx.x - 1];
}
"""
left = np.RawKernel(src, "left")
x = np.arange(12.0).reshape(3, 4)
out = np.zeros((3, 4))
try:
    left((3,), (4,), (x, out, np.int32(4)))
except IndexError as e:
    print(e)
print(out[1].tolist(), out[2].tolist())
touch = np.RawKernel(r"""
extern "C" __global__ void touch(float* v, int k) { v[threadIdx.x * k] += 1.0f; }
""", "touch")
base = np.zeros(10, dtype=np.float32)
every_other = base[::2]
touch((1,), (5,), (every_other, np.int32(2)))
print(base.tolist())
try:
    touch((1,), (6,), (every_other, np.int32(2)))
except IndexError as e:
    print(e)
''')
        r = gpy("--check-kernels", "rows.gpy", cwd=d.path)
        check_eq(r.rc, 0, "exit code", r)
        lines = r.out.splitlines()
        check_eq(lines[0], "RawKernel 'left': row[-1] is outside the 12 elements (96 bytes) of argument 1 "
                           "(thread (0, 0, 0) of block (0, 0, 0), left.cu:4)", "row[-1] of the first row", r)
        check_eq(lines[1], "[3.0, 4.0, 5.0, 6.0] [7.0, 8.0, 9.0, 10.0]", "rows 1 and 2 shifted: element -1 is the row before's last", r)
        # v[threadIdx.x * k], k = 2, on base[::2]: base[0], [2], ..., [8] are in
        # the view's bytes (36 of them); a sixth thread's base[10] is not.
        check_eq(lines[2], "[1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]", "strided view in bounds", r)
        check_eq(lines[3], "RawKernel 'touch': v[10] is outside the 36 bytes spanned by argument 1, a strided array of 5 "
                           "elements (thread (5, 0, 0) of block (0, 0, 0), touch.cu:2)", "strided view outside", r)


@test
def uncaught_error_exits_1_with_the_launching_line():
    with TempDir() as d:
        d.write("uncaught.gpy", "import numpy as np\nk = np.RawKernel(r'''\nextern \"C\" __global__ void k(int* a) { a[threadIdx.x] = 1; }\n''', 'k')\n"
                "a = np.zeros(4, dtype=np.int32)\nk((1,), (8,), (a,))\nprint('not reached')\n")
        r = gpy("--check-kernels", "uncaught.gpy", cwd=d.path)
        check_eq(r.rc, 1, "exit code", r)
        check_eq(r.out, "", "stdout", r)
        check("uncaught.gpy:6:1 in <module>" in r.err, "traceback names the launching line", r)
        check("IndexError: RawKernel 'k': a[4] is outside the 4 elements (16 bytes) of argument 1 "
              "(thread (4, 0, 0) of block (0, 0, 0), k.cu:2)" in r.err, "message", r)


@test
def kernel_block_with_barrier_reports_gpy_line():
    with TempDir() as d:
        d.write("block.gpy", r'''import numpy as np
kernel reverse(const float* x, float* y, int n):
    __shared__ float tile[64];
    tile[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
    __syncthreads();
    y[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];

x = np.arange(128, dtype=np.float32)
y = np.zeros(128, dtype=np.float32)
reverse[2, 64](x, y, np.int32(128))
print(bool(np.array_equal(y, np.concatenate([x[63::-1], x[:63:-1]]))))
try:
    reverse[3, 64](x, y, np.int32(128))
except IndexError as e:
    print(e)
''')
        r = gpy("--check-kernels", "block.gpy", cwd=d.path)
        check_eq(r.rc, 0, "exit code", r)
        lines = r.out.splitlines()
        check_eq(lines[0], "True", "a kernel with a barrier runs checked", r)
        check(len(lines) == 2 and "x[128] is outside the 128 elements (512 bytes) of argument 1 "
              "(thread (0, 0, 0) of block (2, 0, 0), block.gpy:4)" in lines[1], "the .gpy line of the access", r)


@test
def template_kernel_through_name_expressions():
    with TempDir() as d:
        d.write("tmpl.gpy", r'''import numpy as np
mod = np.RawModule(code=r"""
template <typename T>
__global__ void fill(T* out, T v, int n) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
""", name_expressions=["fill<int>", "fill<double>"])
a = np.zeros(64, dtype=np.int32)
mod.get_function("fill<int>")((1,), (64,), (a, np.int32(7), np.int32(64)))
b = np.zeros(10)
try:
    mod.get_function("fill<double>")((1,), (16,), (b, 2.5, np.int32(10)))
except IndexError as e:
    print(e)
print(int(a.sum()), float(b.sum()))
''')
        r = gpy("--check-kernels", "tmpl.gpy", cwd=d.path)
        check_eq(r.rc, 0, "exit code", r)
        check_eq(r.out, "RawModule function 'fill<double>': out[10] is outside the 10 elements (80 bytes) of argument 1 "
                        "(thread (10, 0, 0) of block (0, 0, 0), module.cu:4)\n448 25.0\n", "output", r)


@test
def uncheckable_kernel_runs_unchecked_with_a_note():
    with TempDir() as d:
        d.write("cast.gpy", r'''import numpy as np
k = np.RawKernel(r"""
extern "C" __global__ void as_ints(float* x) {
    int* bits = reinterpret_cast<int*>(x);
    bits[threadIdx.x] = 0x3f800000;
}
""", "as_ints")
x = np.zeros(8, dtype=np.float32)
k((1,), (8,), (x,))
print(x.tolist())
''')
        r = gpy("--check-kernels", "cast.gpy", cwd=d.path)
        check_eq(r.rc, 0, "exit code", r)
        check_eq(r.out, "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]\n", "output", r)
        check("gpy: --check-kernels: RawKernel 'as_ints': its pointer parameters are used in a way the checks cannot follow" in r.err
              and "it runs unchecked" in r.err, "the note", r)


@test
def cuda_backend_is_refused():
    r = gpy("--check-kernels", "--backend", "cuda", "-c", "print(1)")
    check_eq(r.rc, 2, "exit code", r)
    check("--check-kernels runs raw kernels on the CPU backend" in r.err, "message", r)


if __name__ == "__main__":
    t.TESTS[:] = [f for f in t.TESTS if f.__module__ == __name__]
    sys.exit(t.main())
