# shellcheck shell=bash
# Shared helpers for scripts/*.sh (sourced, not run).
#
# Environment knobs (all optional):
#   VOXNAV_BUILD_ROOT  where the preset build dirs go (default: <repo>/build, matching
#                      CMakePresets.json: build/release, build/debug, build/wasm)
#   VOXNAV_JOBS        parallel build / test jobs (default: number of cores)

VOXNAV_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VOXNAV_BUILD_ROOT=${VOXNAV_BUILD_ROOT:-$VOXNAV_ROOT/build}
VOXNAV_JOBS=${VOXNAV_JOBS:-$(nproc 2>/dev/null || echo 2)}
export VOXNAV_ROOT VOXNAV_BUILD_ROOT VOXNAV_JOBS

# Debian's emcc needs acorn from /usr/share/nodejs, which Node 20 does not search on its own.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

log() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# build_dir PRESET -> the binary dir used for that preset.
build_dir() { printf '%s/%s\n' "$VOXNAV_BUILD_ROOT" "$1"; }

# configure_preset PRESET: `cmake --preset PRESET` into build_dir PRESET, plus the words of
# VOXNAV_CMAKE_ARGS_<PRESET> if set (test.sh links the wasm benchmarks at -O1 that way).
configure_preset() {
  local preset=$1 dir extra=VOXNAV_CMAKE_ARGS_$1
  dir=$(build_dir "$preset")
  log "configure $preset -> $dir${!extra:+ (${!extra})}"
  # shellcheck disable=SC2086  # the extra arguments are words
  cmake -S "$VOXNAV_ROOT" --preset "$preset" -B "$dir" ${!extra:-}
}

# build_preset PRESET [TARGET...]: configure, then build everything (or only the targets).
build_preset() {
  local preset=$1 dir
  shift
  configure_preset "$preset" || return
  dir=$(build_dir "$preset")
  log "build $preset${*:+ (targets: $*)}"
  if (($#)); then
    cmake --build "$dir" --parallel "$VOXNAV_JOBS" --target "$@"
  else
    cmake --build "$dir" --parallel "$VOXNAV_JOBS"
  fi
}

# test_preset PRESET: run ctest in build_dir PRESET (native suites, or wasm suites under node).
test_preset() {
  local preset=$1 dir
  dir=$(build_dir "$preset")
  log "ctest $preset ($dir)"
  if [[ $preset == debug ]]; then  # the same options as the debug test preset
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  fi
  ctest --test-dir "$dir" --output-on-failure --no-tests=error --timeout 1800 \
    --parallel "$VOXNAV_JOBS"
}
