#!/usr/bin/env bash
# compute-sanitizer memcheck over the test suite on the CUDA backend (issue 4):
#
#   tests/gpu/sanitize.sh [BUILD_DIR] [FILTER]      (default: build, all scripts)
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
logdir="${GPY_GPU_TEST_LOGS:-$(mktemp -d)}/sanitizer"
mkdir -p "$logdir"
wrapper="$logdir/gpy"
cat >"$wrapper" <<WRAP
#!/bin/sh
exec "$sanitizer" --tool memcheck --log-file "$logdir/memcheck.%p.log" --print-limit 20 "$build/gpy" "\$@"
WRAP
chmod +x "$wrapper"
export GPY_BACKEND=cuda GPY_TEST_TIMEOUT=300
status=0

# The driver cases provoke API errors on purpose (a bad cubin, a missing
# symbol): only memory errors count there.
"$sanitizer" --tool memcheck --report-api-errors no --print-limit 20 "$build/gpy_unit_tests" "[gpu],[cuda_driver],[device_pool]" >"$logdir/unit.log" 2>&1 || status=1
echo "cuda layer:  $(grep -m1 -E 'ERROR SUMMARY' "$logdir/unit.log")  $(grep -E 'test cases|All tests passed' "$logdir/unit.log" | tail -n 1)"
if ! grep -q "ERROR SUMMARY: 0 errors" "$logdir/unit.log"; then
    status=1
    grep -E "^=========" "$logdir/unit.log" | head -n 40
fi

# The same exclusions as tests/gpu/run.sh (GPU rounding, docs/differences.md).
args=(--gpy "$wrapper" --jobs "$(nproc)" --exclude numpy/complex/functions.gpy --exclude arrays/column_sums_float32.gpy)
[[ -n "$filter" ]] && args+=(--filter "$filter")
python3 tests/run_script_tests.py "${args[@]}" >"$logdir/scripts.log" 2>&1 || status=1
echo "scripts:     $(tail -n 1 "$logdir/scripts.log")"
if [[ -z "$filter" ]]; then
    python3 tests/run_examples.py --gpy "$wrapper" >"$logdir/examples.log" 2>&1 || status=1
    echo "examples:    $(tail -n 1 "$logdir/examples.log")"
fi

processes=$(ls "$logdir"/memcheck.*.log 2>/dev/null | wc -l)
dirty=$(grep -L "ERROR SUMMARY: 0 errors" "$logdir"/memcheck.*.log 2>/dev/null | wc -l)
echo "memcheck:    $processes gpy processes checked, $dirty with errors"
if [[ $dirty -ne 0 ]]; then
    status=1
    for f in $(grep -L "ERROR SUMMARY: 0 errors" "$logdir"/memcheck.*.log | head -n 3); do
        echo "---- $f"; head -n 40 "$f"
    done
fi
grep -h "^FAIL" "$logdir/scripts.log" | head -n 20
if [[ $status -eq 0 ]]; then echo "RESULT: PASS"; else echo "RESULT: FAIL"; fi
exit "$status"
