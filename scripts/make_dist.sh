#!/usr/bin/env bash
# A stripped copy of the Release build in dist/ (git-ignored) for the device
# tool to carry: the interpreter, its CPU JIT module and the unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build -j"$(nproc)" >/dev/null
mkdir -p dist
rm -f dist/libgpy_cub.so  # (a build without nvcc has none: no stale copy)
cp build/gpy build/libgpy_cpujit.so build/gpy_unit_tests dist/
[ -f build/libgpy_cub.so ] && cp build/libgpy_cub.so dist/  # CUB's sort (a build with nvcc)
strip dist/gpy dist/libgpy_cpujit.so dist/gpy_unit_tests $(ls dist/libgpy_cub.so 2>/dev/null)
du -sh dist
