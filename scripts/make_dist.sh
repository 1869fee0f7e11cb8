#!/usr/bin/env bash
# A stripped copy of the Release build in dist/ (git-ignored) for the device
# tool to carry: the interpreter, its CPU JIT module and the unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build -j"$(nproc)" >/dev/null
mkdir -p dist
rm -f dist/libgpy_cub.so  # (a build without nvcc has none: no stale copy)
cp build/gpy build/libgpy_cpujit.so build/gpy_unit_tests build/gpy_bench_embed dist/
cp build/libgpy.so.0 dist/  # the embedding library (its SONAME: what gpy_api_c_test and cuda_host load)
# tests/api/test_c_api.c and examples/embed/cuda_host against it (the device
# step `embed`), which they find beside them at run time.
cc -O2 -o dist/gpy_api_c_test tests/api/test_c_api.c -Iinclude -Ldist -l:libgpy.so.0 -lpthread -Wl,-rpath,'$ORIGIN'
cc -O2 -o dist/cuda_host examples/embed/cuda_host.c -Iinclude -I/usr/local/cuda/include -Ldist -l:libgpy.so.0 \
   -L/usr/local/cuda/lib64/stubs -lcuda -lm -Wl,-rpath,'$ORIGIN'
[ -f build/libgpy_cub.so ] && cp build/libgpy_cub.so dist/  # CUB's sort (a build with nvcc)
strip dist/gpy dist/libgpy_cpujit.so dist/gpy_unit_tests dist/gpy_bench_embed dist/gpy_api_c_test dist/libgpy.so.0 dist/cuda_host $(ls dist/libgpy_cub.so 2>/dev/null)
du -sh dist
