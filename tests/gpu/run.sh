#!/usr/bin/env bash
# The GPU test command (issue 4): on a machine with a CUDA GPU, from the
# repository root, after building gpy and gpy_unit_tests:
#
#   tests/gpu/run.sh [BUILD_DIR] [--quick]      (default: build)
#
# 1. the Catch2 cases of the CUDA layer ([gpu], [cuda_driver], [device_pool]);
# 2. the whole test suite with GPY_BACKEND=cuda: every unit case, the script
#    tests (and with GPY_FAST_MATH=1 the one that checks tolerances), the examples, golden kernels, fuzz regressions, .npy interop and
#    the differential test against NumPy (5000 cases; 500 with --quick).
# Each step prints one summary line; the last line is RESULT: PASS or FAIL.
# It fails when a step fails, and when no GPU was usable (on the GPU machine
# that is an error, not a pass).
set -u
build="${1:-build}"
quick=0
[[ "${2:-}" == "--quick" ]] && quick=1
for bin in gpy gpy_unit_tests; do
    if [[ ! -x "$build/$bin" ]]; then
        echo "tests/gpu/run.sh: $build/$bin not found; build it with: ninja -C $build" >&2
        exit 2
    fi
done
jobs="$(nproc)"
logdir="${GPY_GPU_TEST_LOGS:-$(mktemp -d)}"
mkdir -p "$logdir"
status=0
summary=()

# step NAME COMMAND...: runs the command with its output in $logdir/NAME.log
# and records its last line (the runners all end with a count).
step() {
    local name="$1"
    shift
    local start=$SECONDS
    "$@" >"$logdir/$name.log" 2>&1
    local rc=$?
    local last
    last="$(grep -v '^\s*$' "$logdir/$name.log" | tail -n 1)"
    summary+=("$(printf '%-14s %-4s %4ss  %s' "$name" "$([[ $rc -eq 0 ]] && echo ok || echo FAIL)" "$((SECONDS - start))" "$last")")
    if [[ $rc -ne 0 ]]; then
        status=1
        echo "---- $name failed (exit $rc); the end of its log:"
        tail -n 30 "$logdir/$name.log"
    fi
}

step cuda_layer "$build/gpy_unit_tests" "[gpu],[cuda_driver],[device_pool]"
if grep -q "skipped: .*\(CUDA driver\|no GPU\)" "$logdir/cuda_layer.log"; then
    echo "NO GPU: the [gpu] cases were skipped ($(grep -m1 -o 'skipped: .*' "$logdir/cuda_layer.log"))"
    status=3
fi

export GPY_BACKEND=cuda
step backend "$build/gpy" --verbose -c "import numpy as np; print(np.arange(4.0) * 2)"
step unit "$build/gpy_unit_tests"
# Excluded on the GPU (docs/differences.md, "The CUDA backend"): its float32
# complex sin/cos print a last digit that differs from glibc's; float32
# column sums, bit-identical to NumPy's on the CPU, are tree-combined there;
# float32 exp/log are NumPy's own algorithm on the CPU, CUDA's on the GPU;
# float sums follow NumPy's order on the CPU only (stats/sum_order.gpy).
step scripts python3 tests/run_script_tests.py --gpy "$build/gpy" --jobs "$jobs" \
    --exclude numpy/complex/functions.gpy --exclude arrays/column_sums_float32.gpy \
    --exclude ufunc/float32_exp_log_bits.gpy --exclude numpy/stats/sum_order.gpy
# Every kernel the interpreter can run, run on it (codegen/tier0.h).
step scripts_tier0 env GPY_TIER0=always python3 tests/run_script_tests.py --gpy "$build/gpy" --jobs "$jobs" \
    --exclude numpy/complex/functions.gpy --exclude arrays/column_sums_float32.gpy \
    --exclude ufunc/float32_exp_log_bits.gpy --exclude numpy/stats/sum_order.gpy
step fast_math env GPY_FAST_MATH=1 python3 tests/run_script_tests.py --gpy "$build/gpy" tests/lang/arrays/fast_math_tolerance.gpy
step examples python3 tests/run_examples.py --gpy "$build/gpy"
step golden python3 tests/golden/run.py --gpy "$build/gpy"
step programs python3 tests/programs/run.py --gpy "$build/gpy" --jobs "$jobs"
step fuzz_regress python3 tests/fuzz/run_regressions.py --gpy "$build/gpy"
step interrupt python3 tests/gpu/interrupt.py --gpy "$build/gpy"
step shared_gpu python3 tests/gpu/shared_gpu.py --gpy "$build/gpy"
step fault python3 tests/gpu/fault.py --gpy "$build/gpy"
step npy_interop python3 tests/io/test_npy_interop.py --gpy "$build/gpy"
cases=5000
[[ $quick -eq 1 ]] && cases=500
step differential python3 tests/differential/run.py --gpy "$build/gpy" --cases "$cases" --rotate --jobs "$jobs" --max-report 20

echo
echo "==== GPU test summary (logs in $logdir) ===="
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
grep -m1 "backend:" "$logdir/backend.log"
for line in "${summary[@]}"; do echo "$line"; done
if [[ $status -eq 0 ]]; then echo "RESULT: PASS"; else echo "RESULT: FAIL (exit $status)"; fi
exit "$status"
