#!/usr/bin/env bash
# The installed package (issue 24): install the build into a prefix, move the
# prefix (nothing may point into the build tree or the first prefix), build
# examples/embed against it with find_package(gpy) and with pkg-config, run
# the examples. Usage: scripts/check_package.sh [build-dir] (CTest: package).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/first" > /dev/null
mv "$work/first" "$work/moved"
prefix="$work/moved"
cmake -S "$root/examples/embed" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$work/build" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/build/image_filter"
"$work/build/image_filter_static" > /dev/null
"$work/build/c_host"
python3 "$root/examples/embed/ctypes_host.py" "$prefix/lib/libgpy.so"
if [ -x "$work/build/cuda_host" ] && ldconfig -p | grep -q "libcuda.so.1"; then  # (it links the driver)
  rc=0; "$work/build/cuda_host" || rc=$?
  [ "$rc" = 0 ] || [ "$rc" = 77 ] || exit "$rc"
fi
# pkg-config, relative to the moved prefix.
cc -o "$work/c_host_pc" "$root/examples/embed/c_host.c" -lm $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs gpy)
"$work/c_host_pc" > /dev/null
# The installed gpy command finds its CPU JIT in the moved prefix.
echo 'import numpy as np; print(np.arange(4.0).sum() * 2)' | "$prefix/bin/gpy" -
if strings "$prefix/lib/libgpy.so" | grep -q "$build"; then
  echo "check_package: libgpy.so holds the build path $build" >&2
  exit 1
fi
echo "check_package: installed, moved, examples built and run"
