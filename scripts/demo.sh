#!/usr/bin/env bash
# One command for a fresh machine: install, build, run the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== build/gpy examples/hello.gpy =="
build/gpy examples/hello.gpy
