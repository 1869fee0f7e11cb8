#!/usr/bin/env bash
# One command for a fresh machine: install, build, run every test. Under CI
# (CI=true) or with --fuzz it also builds the libFuzzer harness and fuzzes the
# lexer+parser+evaluator for GPY_FUZZ_SECONDS (default 120) first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

if [ "${CI:-}" = "true" ] || [ "${1:-}" = "--fuzz" ]; then
  bash scripts/fuzz.sh "${GPY_FUZZ_SECONDS:-120}"
fi

ctest --test-dir build --output-on-failure -j2
