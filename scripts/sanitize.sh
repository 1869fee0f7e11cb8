#!/usr/bin/env bash
# The sanitizer suite: gpy and the unit tests built with AddressSanitizer +
# UndefinedBehaviorSanitizer (build-fuzz/, the same build as the libFuzzer
# harness: scripts/fuzz.sh --build) run the Catch2 unit tests, every script
# test and the API fuzzer's fixed-seed run. Any sanitizer
# report fails the run: UBSan halts on the first (-fno-sanitize-recover), ASan
# always does. Leak detection is off: reference cycles are not collected yet
# (docs/differences.md). Huge requests return null as from malloc, so gpy's
# own MemoryError path is what gets tested.
#
#   scripts/sanitize.sh            unit tests, scripts, then the API fuzzer (fixed seed)
#   scripts/sanitize.sh scripts    only the script tests
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/fuzz.sh --build
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export GPY_CACHE_DIR="$PWD/build-fuzz/sanitize-cache"
export GPY_TEST_TIMEOUT=120  # ASan makes the interpreter ~3x slower
if [ "${1:-}" != "scripts" ]; then
  echo "sanitize: unit tests under ASan + UBSan"
  cmake -S . -B build-fuzz -DGPY_BUILD_TESTS=ON > /dev/null
  cmake --build build-fuzz --target gpy_unit_tests -j"$(nproc)"
  # Without the [nvrtc] cases (NVRTC compiles of every kernel kind: the
  # library is not instrumented, and the plain unit run has them): the
  # sanitized run was 5 of CI's 44 minutes. GPY_SANITIZE_ALL=1 runs them too.
  if [ "${GPY_SANITIZE_ALL:-}" = 1 ]; then build-fuzz/gpy_unit_tests; else build-fuzz/gpy_unit_tests "~[nvrtc]"; fi
fi
echo "sanitize: script tests under ASan + UBSan"
# CI's fast set (CI=true): a quarter of the corpus, the quarter by the day
# of the year (so four consecutive days cover all of it; CI was 41.8 minutes
# with half, 2026-11-27); locally every file.
python3 tests/run_script_tests.py --gpy build-fuzz/gpy --jobs "$(nproc)" --ci-shard "$((10#$(date +%j) % 4))/4"
if [ "${1:-}" = "scripts" ]; then exit 0; fi
if [ -f tests/fuzz/api_fuzz.py ]; then
  echo "sanitize: API fuzzer, fixed seed, under ASan + UBSan"
  # ASan reserves terabytes of address space: no --mem-limit; slower, so a longer timeout.
  # CI's fast set: 1500 calls of the fixed seed (about 75 s), a window that
  # moves by the day of the year over the first 12000 (eight days cover them;
  # 4000 fixed calls took 3.3 minutes). GPY_API_FUZZ_CALLS=12000 with
  # GPY_API_FUZZ_START=0 is the full set.
  start="${GPY_API_FUZZ_START:-$(( (10#$(date +%j) % 8) * 1500 ))}"
  python3 tests/fuzz/api_fuzz.py --gpy build-fuzz/gpy --mem-limit 0 --timeout 600 --start "$start" --calls "${GPY_API_FUZZ_CALLS:-1500}"
fi
