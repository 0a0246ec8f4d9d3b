#!/usr/bin/env bash
# Configures and builds the CMake presets.
#
#   scripts/build.sh [native|wasm|all] [--debug]
#     native   the release preset (build/release: library, `voxnav` CLI, tests, benchmarks)
#     wasm     the wasm preset (build/wasm: Emscripten from Debian; tests run under node)
#     all      both (the default)
#     debug    only the debug preset (build/debug: ASan + UBSan)
#     --debug  also build the debug preset
#
# Run scripts/install-deps.sh first on a fresh machine. VOXNAV_BUILD_ROOT moves the build dirs,
# VOXNAV_JOBS sets the parallelism (see scripts/lib.sh).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

what=all
debug=0
for arg in "$@"; do
  case $arg in
    native | wasm | all) what=$arg ;;
    debug) what=none; debug=1 ;;
    --debug) debug=1 ;;
    -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
    *) die "build.sh: unknown argument '$arg' (expected native, wasm, all, debug or --debug)" ;;
  esac
done

presets=()
[[ $what == native || $what == all ]] && presets+=(release)
[[ $what == wasm || $what == all ]] && presets+=(wasm)
((debug)) && presets+=(debug)

for preset in "${presets[@]}"; do
  start=$SECONDS
  build_preset "$preset"
  echo "build.sh: $preset built in $((SECONDS - start)) s -> $(build_dir "$preset")"
done
