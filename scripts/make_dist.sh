#!/usr/bin/env bash
# A stripped copy of the Release build in dist/ (git-ignored) for the device
# tool to carry: the interpreter and its CPU JIT module.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build -j"$(nproc)" >/dev/null
mkdir -p dist
cp build/gpy build/libgpy_cpujit.so dist/
strip dist/gpy dist/libgpy_cpujit.so
du -sh dist
