#!/usr/bin/env bash
# compute-sanitizer over the test suite on the CUDA backend (issues 4, 22):
#
#   tests/gpu/sanitize.sh [BUILD_DIR] [FILTER]      (default: build, all scripts)
#   GPY_SANITIZER_TOOL=racecheck tests/gpu/sanitize.sh ...   (memcheck by default;
#                                       racecheck, synccheck and initcheck too)
#
# Runs the CUDA-layer Catch2 cases, every script test and every example with
# each gpy process under `compute-sanitizer --tool memcheck`, the sanitizer's
# report of each process in its own log. A test that fails, or any process
# whose report shows an error, fails the run. Prints one summary line per
# step and RESULT: PASS or FAIL last.
set -u
build="$(cd "${1:-build}" && pwd)"
filter="${2:-}"
sanitizer="$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer /usr/local/cuda*/compute-sanitizer/compute-sanitizer 2>/dev/null | head -n 1)"
if [[ -z "$sanitizer" ]]; then
    echo "tests/gpu/sanitize.sh: compute-sanitizer not found" >&2
    exit 2
fi
tool="${GPY_SANITIZER_TOOL:-memcheck}"
logdir="${GPY_GPU_TEST_LOGS:-$(mktemp -d)}/sanitizer-$tool"
mkdir -p "$logdir"
wrapper="$logdir/gpy"
# API errors are not reported: the script tests provoke them on purpose (a
# user kernel's bad launch or missing name, a MemoryError from a full card)
# and check the exception gpy raises; memory and race errors count.
cat >"$wrapper" <<WRAP
#!/bin/sh
exec "$sanitizer" --tool $tool --report-api-errors no --log-file "$logdir/$tool.%p.log" --print-limit 20 "$build/gpy" "\$@"
WRAP
chmod +x "$wrapper"
export GPY_BACKEND=cuda GPY_TEST_TIMEOUT=300
status=0

# The driver cases provoke API errors on purpose (a bad cubin, a missing
# symbol): only memory errors count there.
"$sanitizer" --tool "$tool" --report-api-errors no --print-limit 20 "$build/gpy_unit_tests" "[gpu],[cuda_driver],[device_pool]" >"$logdir/unit.log" 2>&1 || status=1
# A clean report: "ERROR SUMMARY: 0 errors" (memcheck, synccheck, initcheck)
# or "(0 errors, N warnings)" (racecheck: warnings are hazards between equal
# values, listed but not failed).
clean_pattern='ERROR SUMMARY: 0 errors|\(0 errors, [0-9]+ warnings\)'
echo "cuda layer:  $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logdir/unit.log")  $(grep -E 'test cases|All tests passed' "$logdir/unit.log" | tail -n 1)"
if ! grep -qE "$clean_pattern" "$logdir/unit.log"; then
    status=1
    grep -E "^=========" "$logdir/unit.log" | head -n 40
fi

# The same exclusions as tests/gpu/run.sh (GPU rounding, docs/differences.md).
args=(--gpy "$wrapper" --jobs "$(nproc)" --exclude numpy/complex/functions.gpy --exclude arrays/column_sums_float32.gpy
      --exclude ufunc/float32_exp_log_bits.gpy --exclude numpy/stats/sum_order.gpy --exclude _cpu.gpy
      --exclude cuda/device_oom_loop.gpy)  # (filling the card under the sanitizer: minutes, no kernel of its own)
# Under racecheck cuSOLVER's kernels of order 1024-2048 take more than the
# 300 s a test gets (they are NVIDIA's, not gpy's; memcheck runs them).
[[ "$tool" == racecheck ]] && args+=(--exclude linalg/eig_large.gpy --exclude linalg/factorizations_large.gpy --exclude linalg/svd_qr_large.gpy)
[[ -n "$filter" ]] && args+=(--filter "$filter")
python3 tests/run_script_tests.py "${args[@]}" >"$logdir/scripts.log" 2>&1 || status=1
echo "scripts:     $(tail -n 1 "$logdir/scripts.log")"
if [[ -z "$filter" ]]; then
    python3 tests/run_examples.py --gpy "$wrapper" >"$logdir/examples.log" 2>&1 || status=1
    echo "examples:    $(tail -n 1 "$logdir/examples.log")"
fi

processes=$(ls "$logdir"/$tool.*.log 2>/dev/null | wc -l)
dirty=$(grep -LE "$clean_pattern" "$logdir"/$tool.*.log 2>/dev/null | wc -l)
warned=$(grep -lE "\(0 errors, [1-9][0-9]* warnings\)" "$logdir"/$tool.*.log 2>/dev/null | wc -l)
echo "$tool:    $processes gpy processes checked, $dirty with errors, $warned with warnings only"
if [[ $dirty -ne 0 ]]; then
    status=1
    for f in $(grep -LE "$clean_pattern" "$logdir"/$tool.*.log | head -n 3); do
        echo "---- $f"; head -n 40 "$f"
    done
fi
# Every report that is not clean, warnings included, in one file: the
# hazards' first lines (kind, kernel, where), counted.
for f in "$logdir/unit.log" "$logdir"/$tool.*.log; do
    grep -qE "ERROR SUMMARY: 0 errors|\(0 errors, 0 warnings\)" "$f" && continue
    grep -E "^========= +(Error|Warning|Invalid|and |Race)" "$f" | sed 's/0x[0-9a-f]*/0x_/g' | head -n 12
done | sort | uniq -c | sort -rn > "$logdir/report.txt"
echo "---- $tool report ($(wc -l < "$logdir/report.txt") distinct lines), the first 40:"
head -n 40 "$logdir/report.txt"
grep -h "^FAIL" "$logdir/scripts.log" | head -n 20
if [[ $status -eq 0 ]]; then echo "RESULT: PASS"; else echo "RESULT: FAIL"; fi
exit "$status"
