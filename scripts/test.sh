#!/usr/bin/env bash
# One command for a fresh machine: install, build, run every test. Under CI
# (CI=true) or with --fuzz it also builds the libFuzzer harness and runs the
# deterministic fuzz run of scripts/fuzz.sh --ci over the interpreter first,
# then scripts/sanitize.sh (script tests and the API fuzzer under ASan + UBSan).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase's minutes in the log: CI has a 40-minute budget to keep.
phase() { echo "test.sh: $1 at ${SECONDS} s"; }
bash scripts/setup.sh
phase "set-up and build done"

if [ "${CI:-}" = "true" ] || [ "${1:-}" = "--fuzz" ]; then
  bash scripts/fuzz.sh --ci
  phase "fuzzing done"
  # The same sanitized build runs the script tests and the API fuzzer.
  bash scripts/sanitize.sh
  phase "sanitized runs done"
fi

# Shadow compile (runtime/nvrtc_shadow.h): under CI or wherever the CUDA
# toolkit is installed, every kernel the tests generate is also compiled with
# NVRTC for sm_80 and sm_90, so a kernel only the CUDA path rejects fails the
# tests. GPY_SHADOW_NVRTC=0 turns it off.
if [ "${CI:-}" = "true" ] || compgen -G "${CUDA_HOME:-/usr/local/cuda}/lib64/libnvrtc.so*" > /dev/null; then
  export GPY_SHADOW_NVRTC="${GPY_SHADOW_NVRTC:-1}"
fi
# CI's fast set compiles the tests' kernels for sm_90 only (half the NVRTC
# time: the scripts test took 7 of CI's minutes with both), the [nvrtc] unit
# tests' kernel kinds too; a local run compiles for sm_80 and sm_90. CI's
# other fast sets (CI was 44 minutes, then 41.8, 2026-11-27): 1200
# differential cases instead of 5000, the eager and tier-0 script passes
# over half the corpus each, the sanitized script run over a quarter and
# 1500 API-fuzzer calls (both by the day), 180 s of fuzzing.
if [ "${CI:-}" = "true" ]; then
  export GPY_SHADOW_NVRTC_ARCHS="${GPY_SHADOW_NVRTC_ARCHS:-sm_90}"
fi

ctest --test-dir build --output-on-failure -j2
phase "ctest done"
