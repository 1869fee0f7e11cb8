#!/usr/bin/env bash
# Builds tests/fuzz/fuzz_interp.cpp with clang-16 (-fsanitize=fuzzer,address,
# undefined) into build-fuzz/ and fuzzes, seeded with the script tests.
#
#   scripts/fuzz.sh --ci        the CI run: a fresh corpus, seed 1, a fixed
#                               number of runs (GPY_FUZZ_RUNS, default 5000),
#                               so a commit's result is the same here and in CI
#   scripts/fuzz.sh [SECONDS]   exploration (default 120 s): a random seed and
#                               a corpus that grows across runs
#   scripts/fuzz.sh --build     only build build-fuzz/ (gpy_fuzz and the
#                               sanitized gpy that scripts/sanitize.sh runs)
#
# A crash leaves its input in build-fuzz/crash-*; turn it into a regression
# test under tests/fuzz/regressions/.
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=explore
SECONDS_TO_RUN="${1:-120}"
# CI's run is its fast set: 5000 runs (GPY_FUZZ_RUNS), at most 180 s
# (GPY_FUZZ_SECONDS), seeded with the language's scripts (below). CI took
# 56 minutes with 420 s (2026-11-27), over its 40-minute budget. Run
# `GPY_FUZZ_RUNS=12000 GPY_FUZZ_SECONDS=600 scripts/fuzz.sh --ci` locally
# for the full set.
if [ "${1:-}" = "--ci" ]; then MODE=ci; SECONDS_TO_RUN="${GPY_FUZZ_SECONDS:-180}"; fi
if [ ! -f build-fuzz/build.ninja ]; then
  cmake -S . -B build-fuzz -G Ninja -DGPY_FUZZ=ON -DGPY_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 >/dev/null
fi
cmake --build build-fuzz --target gpy_fuzz gpy -j"$(nproc)"
if [ "${1:-}" = "--build" ]; then exit 0; fi
CORPUS=build-fuzz/corpus
if [ "$MODE" = ci ]; then
  CORPUS=build-fuzz/ci-corpus
  rm -rf "$CORPUS" build-fuzz/ci-cache
  # A fresh kernel cache too: disk hits and misses take different paths, which
  # would steer the coverage-guided search away from CI's.
  export GPY_CACHE_DIR="$PWD/build-fuzz/ci-cache"
fi
mkdir -p "$CORPUS"
cp tests/fuzz/regressions/* "$CORPUS"/ 2>/dev/null || true
# File-IO scripts stay out of the seed corpus: mutated, they would write files
# at arbitrary paths. CI's run seeds with the language's scripts only: with
# the array ones, loading the seeds alone took its 6 minutes (libFuzzer does
# not stop inside that first pass) and no input was ever mutated; the array
# scripts run under the sanitizers in scripts/sanitize.sh anyway.
if [ "$MODE" = ci ]; then
  find tests/lang -name '*.gpy' -not -path 'tests/lang/numpy/*' -not -path 'tests/lang/arrays/*' -exec cp {} "$CORPUS"/ \; 2>/dev/null || true
else
  find tests/lang examples -name '*.gpy' -not -path 'tests/lang/numpy/io/*' -exec cp {} "$CORPUS"/ \; 2>/dev/null || true
fi
# Regressions first: each must run clean.
# Leak detection is off: reference cycles (a closure that refers to itself) are
# not collected yet; see docs/differences.md.
export ASAN_OPTIONS=detect_leaks=0
for f in tests/fuzz/regressions/*; do
  [ -f "$f" ] || continue
  build-fuzz/gpy_fuzz "$f" >/dev/null 2>&1 || { echo "fuzz: regression $f fails"; build-fuzz/gpy_fuzz "$f"; exit 1; }
done
# -timeout=60: the seed corpus holds the script tests, and the largest (a
# 2M-element radix sort) takes 24-27 s here, where libFuzzer's comparison hooks
# slow hot loops several times; a real hang still stops the run.
LIMITS=(-max_total_time="$SECONDS_TO_RUN")
if [ "$MODE" = ci ]; then LIMITS+=(-seed=1 -runs="${GPY_FUZZ_RUNS:-5000}"); fi
echo "fuzz: $MODE run (${LIMITS[*]})"
build-fuzz/gpy_fuzz "${LIMITS[@]}" -max_len=2048 -timeout=60 \
  -rss_limit_mb=4096 -artifact_prefix=build-fuzz/ -print_final_stats=1 "$CORPUS" 2>&1 | tail -n 15
