#!/usr/bin/env python3
"""Kernel lab: time variants of one generated kernel inside the real program.

gpy writes its kernels with --dump-kernels; this script rewrites the fused
kernel of a workload (kernel_lab.gpy) into variants, and runs the workload
once per variant with GPY_KERNEL_OVERRIDE_DIR pointing at the variant's text
(codegen/cuda_source.cpp reads it), --profile timing the kernel with device
events. Launch and compile options vary through GPY_CUDA_VEC4_GRID and
GPY_NVRTC_EXTRA. Each run prints the result's checksum, so a variant that
changes the answer shows.

    python3 bench/gpu/kernel_lab.py --gpy dist/gpy [--workload black_scholes] [--n 67108864]
        [--repeat 20] [--rounds 3] [--variants base,fmad,...] [--sass]

--sass (any machine with nvcc and cuobjdump) prints each variant's static
SASS size instead of timing it.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LAB = os.path.join(HERE, "kernel_lab.gpy")


def dump_kernel(gpy, workload, n, repeat, out_dir):
    """The workload's fused kernel, as (name, text): the kernel with the most
    time in a profiled run at the real size (not the inputs' set-up)."""
    p = subprocess.run([gpy, "--profile", "--dump-kernels", out_dir, LAB, workload, str(n), str(repeat)],
                       env=dict(os.environ, GPY_TIER0="0"), capture_output=True, text=True, check=True)
    rows = [line.split() for line in p.stderr.splitlines() if re.match(r"\s+\d+\s+[\d.]+\s+[\d.]+", line)]
    rows = [r for r in rows if int(r[0]) >= repeat]
    if not rows:
        sys.exit("no kernel launched %d times:\n%s" % (repeat, p.stderr[-2000:]))
    name = max(rows, key=lambda r: float(r[2]))[6].rstrip(":")
    text = open(os.path.join(out_dir, name + ".cu")).read()
    if "_vec4_grid" not in text:
        sys.exit(name + " has no vector entry point")
    return name, text


def two_per_thread(name, text):
    """Each thread takes vectors v and v + stride per loop step."""
    old = re.search(r"    for \(int64_t v = (.*?); v < total; v \+= (.*?)\) \{\n(.*?)\n    \}\n\}", text, re.S)
    body = old.group(3)
    new = ("    const int64_t step = " + old.group(2) + ";\n"
           "    for (int64_t v0 = " + old.group(1) + "; v0 < total; v0 += 2 * step) {\n"
           "      #pragma unroll\n"
           "      for (int u = 0; u < 2; ++u) {\n"
           "        const int64_t v = v0 + u * step;\n"
           "        if (v >= total) break;\n" + body + "\n      }\n    }\n}")
    return text[:old.start()] + new + text[old.end():]


def prefetch(name, text):
    """Loads of the next loop step's input vectors issued before this step's
    arithmetic (aligned rank-1 launches only; others take the plain loop).
    Kernels that gpy already pipelines (KernelSource::vec4_prefetch) stay as
    they are."""
    if name + "_vec4_in(" in text:
        return text
    fn = re.search(r"GPY_KERNEL void " + name + r"_vec4\((.*?)\) \{\n", text)
    loads = re.findall(r"    gpy_vec4<(\w+)> (b\d+);\n    if \(vec\) \2 = \*\(const gpy_vec4<\1>\*\)\((r\d+) \+ c \* \(int64_t\)sizeof\(\1\)\);\n    else for [^\n]*\n", text)
    if not loads:
        sys.exit("prefetch: no input vectors found")
    pre = text
    for ty, b, r in loads:
        pre = re.sub(r"    gpy_vec4<" + ty + "> " + b + r";\n    if \(vec\) [^\n]*\n    else for [^\n]*\n",
                     "    gpy_vec4<" + ty + "> " + b + " = pre_" + b + ";\n", pre, count=1)
    params = fn.group(1) + "".join(", gpy_vec4<%s> pre_%s" % (ty, b) for ty, b, r in loads)
    pre = pre.replace(fn.group(0), "GPY_KERNEL void " + name + "_vec4_pre(" + params + ") {\n", 1)
    # The prefetching wrapper; the original function stays for the fallback.
    decl = "".join("    gpy_vec4<%s> n_%s, c_%s;\n" % (ty, b, b) for ty, b, r in loads)
    load = "".join("        n_%s = *(const gpy_vec4<%s>*)(P[%s] + (vv << 2) * (int64_t)sizeof(%s));\n" % (b, ty, r[1:], ty) for ty, b, r in loads)
    take = "".join("        c_%s = n_%s;\n" % (b, b) for ty, b, r in loads)
    args = "".join(", c_%s" % b for ty, b, r in loads)
    wrapper = re.search(r'extern "C" __global__ void ' + name + r"_vec4_grid\((.*?)\) \{\n    char\*\* P = const_cast<char\*\*>\(a\.P\);\n", pre)
    fast = ("    if (rows == 1 && aligned && (cols & 3) == 0) {\n"
            "        const int64_t total = cols >> 2, step = (int64_t)blockDim.x * gridDim.x;\n"
            "        int64_t v = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;\n" + decl +
            "        if (v < total) { const int64_t vv = v;\n" + load + "        }\n"
            "        for (; v < total; v += step) {\n" + take +
            "            if (v + step < total) { const int64_t vv = v + step;\n" + load.replace("        ", "                ") + "            }\n"
            "            " + name + "_vec4_pre(P, a.M, a.S, 0, v << 2, 4, true" + args + ");\n"
            "        }\n        return;\n    }\n")
    pre = pre[:wrapper.end()] + fast + pre[wrapper.end():]
    # The original function again, for the general path.
    orig = re.search(r"GPY_KERNEL void " + name + r"_vec4\(.*?\n\}\n", text, re.S).group(0)
    return pre.replace("struct " + name + "_args", orig + "struct " + name + "_args", 1)


def no_prefetch(name, text):
    """Without gpy's pipelined loop (KernelSource::vec4_prefetch): every
    launch takes the plain grid-stride loop, one step's loads then its
    arithmetic."""
    return re.sub(r"    if \(aligned && \(cols & 3\) == 0\) \{\n.*?\n    \}\n(?=    for \(int64_t v)", "", text, count=1, flags=re.S)


def launch_bounds(threads, blocks):
    """__launch_bounds__ on the vector entry point: caps its registers."""
    def transform(name, text):
        return text.replace("__global__ void " + name + "_vec4_grid(",
                            "__global__ void __launch_bounds__(%d, %d) %s_vec4_grid(" % (threads, blocks, name), 1)
    return transform


# name: (text transform or None, environment)
VARIANTS = collections.OrderedDict([
    ("gpy", (None, {})),                                   # no override: what gpy runs
    ("base", (lambda n, t: t, {})),                        # the override path itself, unchanged text
    ("fmad", (None, {"GPY_NVRTC_EXTRA": "--fmad=true"})),  # FMA contraction (not NumPy's rounding)
    ("fast_math", (None, {"GPY_FAST_MATH": "1"})),         # approximate math: a bound, not a candidate
    ("full_grid", (None, {"GPY_CUDA_VEC4_GRID": "full"})),  # a thread per vector, no grid-stride loop
    ("no_prefetch", (no_prefetch, {})),
    ("two", (two_per_thread, {})),
    ("prefetch", (prefetch, {})),
    ("lb_768x2", (launch_bounds(768, 2), {})),  # at most 40 registers
    ("lb_640x2", (launch_bounds(640, 2), {})),  # at most 48
])


def profile_mean_us(stderr, name):
    for line in stderr.splitlines():
        if name + ":" in line:
            cols = line.split()
            return float(cols[3])
    return None


def sass_size(source_text, nvcc, cuobjdump):
    sys.path.insert(0, HERE)
    prelude = open(os.path.join(HERE, "..", "..", "codegen", "prelude.h")).read()
    raw = lambda n: re.search(n + r' = R"PRELUDE\((.*?)\)PRELUDE"', prelude, re.S).group(1)
    d = tempfile.mkdtemp()
    with open(d + "/k.cu", "w") as f:
        f.write(raw("kCudaPrelude") + raw("kCommonPrelude") + source_text)
    subprocess.run([nvcc, "-cubin", "-arch=sm_90", "-std=c++17", "-w", "--fmad=false", "-o", d + "/k.cubin", d + "/k.cu"], check=True)
    out = subprocess.run([cuobjdump, "-sass", d + "/k.cubin"], capture_output=True, text=True, check=True).stdout
    sizes, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            cur = m.group(1)
            sizes[cur] = 0
        elif cur and re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+\S", line):
            sizes[cur] += 1
    shutil.rmtree(d)
    return sizes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpy", default="build/gpy")
    ap.add_argument("--workload", default="black_scholes")
    ap.add_argument("--n", type=int, default=1 << 26)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3, help="passes over the variants (interleaved)")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--work", default=None, help="folder for dumps and variant texts")
    ap.add_argument("--sass", action="store_true")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--cuobjdump", default="cuobjdump")
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="gpy_kernel_lab_")
    name, text = dump_kernel(a.gpy, a.workload, 1 << 16, a.repeat, os.path.join(work, "dump"))
    chosen = a.variants.split(",")
    dirs = {}
    for v in chosen:
        transform, env = VARIANTS[v]
        if transform:
            dirs[v] = os.path.join(work, v)
            os.makedirs(dirs[v], exist_ok=True)
            with open(os.path.join(dirs[v], name + ".cu"), "w") as f:
                f.write(transform(name, text))
    print("kernel", name, "workload", a.workload, "n", a.n)
    if a.sass:
        for v in chosen:
            t = open(os.path.join(dirs[v], name + ".cu")).read() if v in dirs else text
            print("%-10s %s" % (v, sass_size(t, a.nvcc, a.cuobjdump)))
        return
    times = collections.defaultdict(list)
    sums = {}
    for rnd in range(a.rounds):
        for v in chosen:
            transform, env = VARIANTS[v]
            e = dict(os.environ, GPY_TIER0="0", **env)
            if v in dirs:
                e["GPY_KERNEL_OVERRIDE_DIR"] = dirs[v]
            p = subprocess.run([a.gpy, "--profile", LAB, a.workload, str(a.n), str(a.repeat)], env=e, capture_output=True, text=True)
            if p.returncode != 0:
                print(v, "failed:", p.stderr[-2000:])
                continue
            us = profile_mean_us(p.stderr, name)
            if us is None:  # another kernel name (fast math changes nothing in the name; a bug otherwise)
                print(v, "kernel", name, "not in the profile:\n", p.stderr[-1500:])
                continue
            times[v].append(us)
            sums[v] = p.stdout.strip()
    print("\n| variant | best us | runs | checksum same as gpy |")
    print("|---|---|---|---|")
    for v in chosen:
        if times[v]:
            same = "yes" if sums.get(v) == sums.get("gpy") else "no: " + sums.get(v, "")
            print("| %s | %.1f | %s | %s |" % (v, min(times[v]), " ".join("%.1f" % t for t in times[v]), same))


if __name__ == "__main__":
    main()
