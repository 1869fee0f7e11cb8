#!/usr/bin/env bash
# The standard check on a GPU machine (the device tool): run from the repo
# root there, with a stripped Release build in dist/ (scripts/make_dist.sh
# here; dist/ is git-ignored, carried by the tool). Logs go to $OUT.
#   bash scripts/device_check.sh [unit] [tests] [corpus] [bench] [sweep] [sum] [ops] [programs] [kernels]
#                                [shared] [memcheck] [racecheck] [embed] [cupydocs]
# With no arguments: unit tests corpus bench.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/device_out}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
steps=("$@")
((${#steps[@]})) || steps=(unit tests corpus bench)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/device.txt"
for step in "${steps[@]}"; do
  echo "== $step ($(date +%T))"
  case "$step" in
    # The script tests on the GPU backend (60 s each: a fresh machine compiles
    # every CPU kernel of the heavier files first, 8 files at once). Excluded: tests whose expectations
    # are the CPU's own bits (NumPy's float32 SIMD exp/log, its column-sum
    # order, sums in NumPy's nditer order) or that check CPU-only behaviour
    # (files named *_cpu.gpy: Clang's messages for a user's kernel).
    tests)
      GPY_TEST_TIMEOUT=60 GPY_BACKEND=cuda python3 tests/run_script_tests.py --gpy dist/gpy --jobs 8 \
        --exclude numpy/complex/functions.gpy --exclude arrays/column_sums_float32.gpy \
        --exclude ufunc/float32_exp_log_bits.gpy --exclude numpy/stats/sum_order.gpy --exclude _cpu.gpy 2>&1 | tee "$OUT/tests.log" | tail -40 ;;
    unit)  # the unit tests that need a GPU
      dist/gpy_unit_tests "[gpu]" 2>&1 | tee "$OUT/unit.log" | tail -15 ;;
    corpus)
      GPY_BACKEND=cuda python3 tests/programs/run.py --gpy dist/gpy --jobs 8 2>&1 | tee "$OUT/corpus.log" | tail -15 ;;
    bench)
      python3 bench/gpu/run.py --gpy dist/gpy --repeat 10 2>&1 | tee "$OUT/bench.log" | tail -40 ;;
    sweep)
      python3 bench/sweep/run.py --gpy dist/gpy --peer cupy --n 16777216 --repeat 5 2>&1 | tee "$OUT/sweep.log" | tail -12 ;;
    sum)
      python3 bench/sum/run.py --gpy dist/gpy --peer cupy 2>&1 | tee "$OUT/sum.log" | tail -30 ;;
    ops)  # bench/gpu/device_ops.gpy (issue 22): gpy's GPU against CuPy, N = 2^24
      { GPY_TIER0=0 dist/gpy bench/gpu/device_ops.gpy 1048576 1 > /dev/null  # compile first
        dist/gpy bench/gpu/device_ops.gpy 16777216 10; python3 bench/gpu/device_ops.gpy 16777216 10 cupy; } 2>&1 | tee "$OUT/ops.log" ;;
    programs)  # bench/gpu/device_programs.gpy: five whole programs, gpy's GPU against CuPy, SCALE 1
      { GPY_TIER0=0 dist/gpy bench/gpu/device_programs.gpy 0.25 1 > /dev/null  # compile first
        dist/gpy bench/gpu/device_programs.gpy 1 10; python3 bench/gpu/device_programs.gpy 1 10 cupy; } 2>&1 | tee "$OUT/programs.log" ;;
    kernels)  # issue 23: the user-kernel tests on the GPU, then bench/gpu/user_kernels.gpy against CuPy
      { GPY_BACKEND=cuda python3 tests/run_script_tests.py --gpy dist/gpy -v --exclude _cpu.gpy tests/lang/numpy/user_kernels
        dist/gpy bench/gpu/user_kernels.gpy 20; python3 bench/gpu/user_kernels.gpy 20 cupy; } 2>&1 | tee "$OUT/kernels.log" ;;
    shared)  # two processes on one GPU; --device 1 where there are two GPUs; a kernel's fault
      { python3 tests/gpu/shared_gpu.py --gpy dist/gpy; python3 tests/gpu/fault.py --gpy dist/gpy; } 2>&1 | tee "$OUT/shared.log" ;;
    memcheck|racecheck)  # compute-sanitizer over the unit [gpu] cases and every script test
      GPY_GPU_TEST_LOGS="$OUT/san" GPY_SANITIZER_TOOL="$step" bash tests/gpu/sanitize.sh dist "${GPY_SANITIZE_FILTER:-}" 2>&1 | tee "$OUT/$step.log" ;;
    cupydocs)  # CuPy's documentation examples through gpy and through CuPy, outputs compared
      GPY_BACKEND=cuda python3 tests/cupy_docs/compare.py --gpy dist/gpy 2>&1 | tee "$OUT/cupydocs.log" ;;
    embed)  # issue 24: the C ABI's tests, a CUDA host sharing memory and a stream, DLPack with torch and CuPy
      { dist/gpy_api_c_test; dist/cuda_host; python3 tests/gpu/dlpack_peers.py dist/libgpy.so.0
        dist/gpy_unit_tests "[embed]"; dist/gpy_bench_embed 20; } 2>&1 | tee "$OUT/embed.log" ;;
    floor)  # the launch floor under a raw kernel call: bench/gpu/launch_floor.cu, no interpreter (where the device has nvcc)
      { nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
        if [ -x "$nvcc" ]; then "$nvcc" -O2 -arch=native -o /tmp/launch_floor bench/gpu/launch_floor.cu && /tmp/launch_floor
        else echo "no nvcc on this machine"; fi; } 2>&1 | tee "$OUT/floor.log" ;;
    *) echo "unknown step $step" ;;
  esac
done
