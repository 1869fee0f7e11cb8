#!/usr/bin/env python3
"""Kernel lab: time variants of one generated kernel inside the real program.

gpy writes its kernels with --dump-kernels; this script rewrites the fused
kernel of a workload (kernel_lab.gpy) into variants, and runs the workload
once per variant with GPY_EXPERIMENTS=kernel_override_dir=DIR pointing at the
variant's text (base/experiments.h; codegen/cuda_source.cpp reads it),
--profile timing the kernel with device events. Launch and compile options
vary through the cuda_vec4_grid and nvrtc_extra experiments. Each run prints
the result's checksum, so a variant that changes the answer shows.

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


# name: (text transform or None, environment; "experiments" are GPY_EXPERIMENTS entries)
VARIANTS = collections.OrderedDict([
    ("gpy", (None, {})),                                   # no override: what gpy runs
    ("base", (lambda n, t: t, {})),                        # the override path itself, unchanged text
    ("fmad", (None, {"experiments": {"nvrtc_extra": "--fmad=true"}})),  # FMA contraction (not NumPy's rounding)
    ("fast_math", (None, {"GPY_FAST_MATH": "1"})),         # approximate math: a bound, not a candidate
    ("full_grid", (None, {"experiments": {"cuda_vec4_grid": "full"}})),  # a thread per vector, no grid-stride loop
    ("no_prefetch", (no_prefetch, {})),
    ("lb_768x2", (launch_bounds(768, 2), {})),  # at most 40 registers
    ("lb_640x2", (launch_bounds(640, 2), {})),  # at most 48
])


def profile_mean_us(stderr, name):
    for line in stderr.splitlines():
        if name + ":" in line:
            cols = line.split()
            return float(cols[3])
    return None


def sass_size(source_text, env, nvcc, cuobjdump):
    """Instructions per function of the kernel compiled as gpy would (the
    variant's NVRTC options included)."""
    math = ["--use_fast_math"] if env.get("GPY_FAST_MATH") == "1" else ["--fmad=false"]
    math += env.get("experiments", {}).get("nvrtc_extra", "").split()
    prelude = open(os.path.join(HERE, "..", "..", "codegen", "prelude.h")).read()
    raw = lambda n: re.search(n + r' = R"PRELUDE\((.*?)\)PRELUDE"', prelude, re.S).group(1)
    d = tempfile.mkdtemp()
    with open(d + "/k.cu", "w") as f:
        f.write(raw("kCudaPrelude") + raw("kCommonPrelude") + source_text)
    subprocess.run([nvcc, "-cubin", "-arch=sm_90", "-std=c++17", "-w", "-o", d + "/k.cubin", d + "/k.cu"] + math, check=True)
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
            print("%-10s %s" % (v, sass_size(t, VARIANTS[v][1], a.nvcc, a.cuobjdump)))
        return
    times = collections.defaultdict(list)
    sums = {}
    for rnd in range(a.rounds):
        for v in chosen:
            transform, env = VARIANTS[v]
            knobs = dict(env.get("experiments", {}))
            if v in dirs:
                knobs["kernel_override_dir"] = dirs[v]
            e = dict(os.environ, GPY_TIER0="0", **{k: val for k, val in env.items() if k != "experiments"})
            e["GPY_EXPERIMENTS"] = ",".join("%s=%s" % kv for kv in knobs.items())
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
