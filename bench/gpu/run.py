#!/usr/bin/env python3
"""GPU benchmark: the workloads of workloads.gpy under gpy (--backend cuda),
CuPy, PyTorch (eager; torch.compile with --compile) and JAX (jit), one after
the other on the same GPU in one run. Prints a Markdown table for
bench/RESULTS.md: best-of-N milliseconds, gpy's GB/s (bytes of inputs read +
outputs written / time), the fraction of the device-to-device copy roof
measured in this run (the best copy time of any framework), and gpy's time
over the best peer's (below 1.0: gpy is faster).

  python3 bench/gpu/run.py --gpy dist/gpy [--n 67108864] [--repeat 20] [--compile] [--programs] [--fast-math]
"""
import argparse
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--gpy", required=True)
ap.add_argument("--n", type=int, default=1 << 26)
ap.add_argument("--rows", type=int, default=8192)
ap.add_argument("--mm", type=int, default=8192)
ap.add_argument("--repeat", type=int, default=20)
ap.add_argument("--compile", action="store_true", help="also torch.compile (slow to compile)")
ap.add_argument("--fast-math", action="store_true",
                help="also gpy --fast-math (approximate GPU math, as torch.compile's): its own column, not a peer")
ap.add_argument("--only", default="", help="comma-separated frameworks to run (default: all)")
ap.add_argument("--programs", action="store_true", help="also the whole programs of programs.gpy (gpy, CuPy; PyTorch: programs_torch.py)")
ap.add_argument("--points", type=int, default=1 << 22, help="k-means points (--programs)")
ap.add_argument("--grid", type=int, default=2048, help="conjugate-gradient grid side (--programs)")
args = ap.parse_args()

N, R, MM = args.n, args.rows, args.mm
sizes = [str(N), str(args.repeat)]
frameworks = {
    "gpy": [args.gpy, "--backend", "cuda", os.path.join(here, "workloads.gpy"), *sizes, "numpy", str(R), str(MM)],
    "CuPy": [sys.executable, os.path.join(here, "workloads.gpy"), *sizes, "cupy", str(R), str(MM)],
    "torch": [sys.executable, os.path.join(here, "peers.py"), "torch", *[str(v) for v in (N, args.repeat, R, MM)]],
    "JAX": [sys.executable, os.path.join(here, "peers.py"), "jax", *[str(v) for v in (N, args.repeat, R, MM)]],
}
if args.fast_math:
    frameworks["gpy --fast-math"] = [args.gpy, "--backend", "cuda", "--fast-math", os.path.join(here, "workloads.gpy"), *sizes,
                                      "numpy", str(R), str(MM)]
if args.compile:
    frameworks["torch.compile"] = [sys.executable, os.path.join(here, "peers.py"), "torch_compile",
                                   *[str(v) for v in (N, args.repeat, R, MM)]]
if args.only:
    keep = set(args.only.split(","))
    frameworks = {k: v for k, v in frameworks.items() if k in keep}



def warm_up(cmds):
    """Runs gpy's commands once, untimed: a kernel gpy has never compiled on this
    machine first runs as a stand-in while NVRTC compiles it in the background,
    and a short program can finish all its timed runs before that (k-means,
    2026-11-25: 23 ms cold, 10 ms warm). The peers compile on first use, inside
    their own untimed first runs."""
    for name, cmd in cmds.items():
        if name.startswith("gpy"):
            subprocess.run(cmd, capture_output=True, text=True, timeout=900)


def run_all(cmds):
    """Runs each command; returns {name: {"key": seconds}} from its "key value" lines."""
    got_all = {}
    for name, cmd in cmds.items():
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        except subprocess.TimeoutExpired:
            print(f"# {name}: timed out", file=sys.stderr)
            continue
        got = {}
        for line in out.stdout.splitlines():
            parts = line.split()
            if len(parts) == 2:
                try:
                    got[parts[0]] = float(parts[1])
                except ValueError:
                    pass
        if out.returncode != 0:
            print(f"# {name}: exit {out.returncode}: {out.stderr.strip()[-600:]}", file=sys.stderr)
        got_all[name] = got
    return got_all


warm_up(frameworks)
results = run_all(frameworks)

F = 4  # bytes per float32
traffic = {  # bytes read + written per run
    "copy": 2 * N * F, "saxpy": 3 * N * F, "gauss": 2 * N * F, "black_scholes": 5 * N * F,
    "sum_sq": N * F, "mse": 2 * N * F, "softmax": 2 * R * R * F, "layer_norm": 2 * R * R * F, "randn": N * 8,
}
copies = [r["copy"] for r in results.values() if "copy" in r]
roof = traffic["copy"] / min(copies) if copies else None
peers = [p for p in results if not p.startswith("gpy")]
fast = results.get("gpy --fast-math")
print(f"N = {N} float32, softmax and layer_norm {R}x{R}, matmul {MM}^2 float32 (no TF32), best of {args.repeat}")
if roof:
    print(f"copy roof (best device-to-device copy of this run): {roof / 1e9:.0f} GB/s")
print("| workload | gpy (ms) | " + " | ".join(f"{p} (ms)" for p in peers) +
      " | gpy GB/s | % of roof | gpy / best peer |" + (" gpy --fast-math (ms) | fast / best peer |" if fast else ""))
print("|---|---:|" + "---:|" * len(peers) + "---:|---:|---:|" + ("---:|---:|" if fast else ""))
names = ["copy", "saxpy", "gauss", "black_scholes", "sum_sq", "mse", "softmax", "layer_norm", "matmul", "randn", "tiny_statement"]
for w in names:
    g = results.get("gpy", {}).get(w)
    scale, unit = (1e6, "µs") if w == "tiny_statement" else (1e3, "ms")
    cells = [f"{g * scale:.3f}" if g else "-"]
    for p in peers:
        v = results[p].get(w)
        cells.append(f"{v * scale:.3f}" if v else "-")
    if g and w in traffic:
        gbs = traffic[w] / g / 1e9
        cells.append(f"{gbs:.0f}")
        cells.append(f"{100 * traffic[w] / g / roof:.0f}%" if roof else "-")
    elif g and w == "matmul":
        cells.append(f"{2 * MM ** 3 / g / 1e12:.1f} TFLOP/s")
        cells.append("-")
    else:
        cells += ["-", "-"]
    best = min((results[p][w] for p in peers if w in results[p]), default=None)
    cells.append(f"{g / best:.2f}" if g and best else "-")
    if fast:
        fv = fast.get(w)
        cells.append(f"{fv * scale:.3f}" if fv else "-")
        cells.append(f"{fv / best:.2f}" if fv and best else "-")
    label = w + (" (µs per statement)" if w == "tiny_statement" else "")
    print(f"| {label} | " + " | ".join(cells) + " |")

# Whole programs (bench/gpu/programs.gpy): gpy against CuPy running the same script and
# PyTorch running its line-for-line port (programs_torch.py).
if args.programs:
    cmds = {
        "gpy": [args.gpy, "--backend", "cuda", os.path.join(here, "programs.gpy"), str(args.points), str(args.repeat), "numpy",
                str(args.grid)],
        "CuPy": [sys.executable, os.path.join(here, "programs.gpy"), str(args.points), str(args.repeat), "cupy", str(args.grid)],
        "torch": [sys.executable, os.path.join(here, "programs_torch.py"), str(args.points), str(args.repeat), "-", str(args.grid)],
    }
    warm_up(cmds)
    prog = run_all(cmds)
    print()
    print(f"Programs: k-means ({args.points} 2-D float32 points, 8 centres, 10 iterations), "
          f"conjugate gradient ({args.grid}x{args.grid} float64 Laplacian, 50 iterations); best of {args.repeat}")
    print("| program | gpy (ms) | CuPy (ms) | torch (ms) | gpy / best peer | gpy check | CuPy check | torch check |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    ms = lambda v: f"{v * 1e3:.2f}" if v else "-"
    chk = lambda v: f"{v:.6g}" if v is not None else "-"
    for w in ["kmeans", "conjugate_gradient"]:
        g, c, t = (prog.get(f, {}).get(w) for f in ("gpy", "CuPy", "torch"))
        peers = [v for v in (c, t) if v]
        ratio = f"{g / min(peers):.2f}" if g and peers else "-"
        checks = " | ".join(chk(prog.get(f, {}).get(w + "_check")) for f in ("gpy", "CuPy", "torch"))
        print(f"| {w} | {ms(g)} | {ms(c)} | {ms(t)} | {ratio} | {checks} |")
