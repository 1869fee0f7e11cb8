#!/usr/bin/env bash
# Installs what gpy needs (Debian packages, Python test tools), then configures
# and builds into build/. Safe to re-run: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

DEB_PACKAGES=(cmake ninja-build g++ python3 python3-pip
  llvm-16-dev libclang-16-dev libclang-cpp16-dev clang-16 libclang-rt-16-dev
  libcli11-dev catch2 libedit-dev libopenblas0-pthread libdlpack-dev pkg-config)

missing=()
for p in "${DEB_PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Python tools for tests and benchmarks (NumPy 2 is the reference oracle).
if ! python3 -c "import numpy, numexpr, pexpect; assert int(numpy.__version__.split('.')[0]) >= 2" 2>/dev/null; then
  echo "setup: installing Python test tools (tests/requirements.txt)"
  python3 -m pip install -q -r tests/requirements.txt
fi

BUILD_TYPE="${GPY_BUILD_TYPE:-Release}"
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" >/dev/null
fi
cmake --build build -j"$(nproc)"
