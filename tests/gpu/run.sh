#!/usr/bin/env bash
# The GPU test command (issue 4): run on a machine with a CUDA GPU, from the
# repository root, after building gpy_unit_tests:
#
#   tests/gpu/run.sh [BUILD_DIR]        (default: build)
#
# Today it runs the Catch2 cases of the CUDA driver layer and the device pool
# (tags [gpu], [cuda_driver], [device_pool]) and prints a summary. It fails
# when a case fails, and also when the [gpu] cases were skipped because no GPU
# was usable (on the GPU machine that is an error, not a pass).
set -u
build="${1:-build}"
bin="$build/gpy_unit_tests"
if [[ ! -x "$bin" ]]; then
    echo "tests/gpu/run.sh: $bin not found; build it with: ninja -C $build gpy_unit_tests" >&2
    exit 2
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
"$bin" "[gpu],[cuda_driver],[device_pool]" --durations yes 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
echo
echo "==== GPU test summary ===="
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
grep -E "^(All tests passed|test cases:|assertions:)" "$log"
if grep -q "skipped: .*\(CUDA driver\|no GPU\)" "$log"; then
    echo "NO GPU: the [gpu] cases were skipped ($(grep -m1 -o 'skipped: .*' "$log"))"
    [[ $status -eq 0 ]] && status=3
fi
grep -q "skipped: libnvrtc" "$log" && echo "NOTE: NVRTC not found, the NVRTC case was skipped"
if [[ $status -eq 0 ]]; then echo "RESULT: PASS"; else echo "RESULT: FAIL (exit $status)"; fi
exit "$status"
