#!/usr/bin/env bash
# Builds tests/fuzz/fuzz_interp.cpp with clang-16 (-fsanitize=fuzzer,address,
# undefined) into build-fuzz/ and runs it for $1 seconds (default 120), seeded
# with the script tests. A crash leaves its input in build-fuzz/crash-*; turn
# it into a regression test under tests/fuzz/regressions/.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-120}"
if [ ! -f build-fuzz/build.ninja ]; then
  cmake -S . -B build-fuzz -G Ninja -DGPY_FUZZ=ON -DGPY_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 >/dev/null
fi
cmake --build build-fuzz --target gpy_fuzz -j"$(nproc)"
mkdir -p build-fuzz/corpus
cp tests/fuzz/regressions/* build-fuzz/corpus/ 2>/dev/null || true
# File-IO scripts stay out of the seed corpus: mutated, they would write files
# at arbitrary paths.
find tests/lang examples -name '*.gpy' -not -path 'tests/lang/numpy/io/*' -exec cp {} build-fuzz/corpus/ \; 2>/dev/null || true
# Regressions first: each must run clean.
# Leak detection is off: reference cycles (a closure that refers to itself) are
# not collected yet; see docs/differences.md.
export ASAN_OPTIONS=detect_leaks=0
for f in tests/fuzz/regressions/*; do
  [ -f "$f" ] || continue
  build-fuzz/gpy_fuzz "$f" >/dev/null 2>&1 || { echo "fuzz: regression $f fails"; build-fuzz/gpy_fuzz "$f"; exit 1; }
done
echo "fuzz: running for ${SECONDS_TO_RUN}s"
build-fuzz/gpy_fuzz -max_total_time="$SECONDS_TO_RUN" -max_len=2048 -timeout=10 \
  -rss_limit_mb=4096 -artifact_prefix=build-fuzz/ -print_final_stats=1 build-fuzz/corpus 2>&1 | tail -n 15
