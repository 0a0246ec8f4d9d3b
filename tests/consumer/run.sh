#!/usr/bin/env bash
# Installs a native voxnav build into a temporary prefix, then configures, builds (warnings are
# errors) and runs tests/consumer against it, as a separate project that knows voxnav only through
# find_package(voxnav). scripts/test.sh runs it after the examples.
#
#   tests/consumer/run.sh [BUILD_DIR]     (default: build/release, already built)
#
# Environment: VOXNAV_CONSUMER_KEEP=1 keeps the temporary prefix and build (their path is printed).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build/release}
[[ -f $build/CMakeCache.txt ]] || { echo "consumer: no configured build at $build" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/voxnav-consumer.XXXXXX")
if [[ ${VOXNAV_CONSUMER_KEEP:-0} == 1 ]]; then
  echo "consumer: keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT
fi

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
# The consumer must not see the source tree: only what was installed.
cmake -S "$root/tests/consumer" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} \
  >/dev/null
cmake --build "$tmp/build" --parallel "${VOXNAV_JOBS:-2}"
"$tmp/build/consumer" "$root/data/blocks" "$root/data/worlds/r.0.-1.mca"
