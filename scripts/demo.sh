#!/usr/bin/env bash
# Runs the main job: installs what is missing, builds the native release `voxnav` tool, then
# `voxnav run [ARGS...]` (with no arguments it uses the world shipped in the repository).
#
#   scripts/demo.sh [ARGS...]      e.g. scripts/demo.sh, scripts/demo.sh path/to/world
#
# The same job in the browser: builds the wasm preset's package if needed and serves the demo page
# (examples/web) on 127.0.0.1, printing its URL; open it in a browser, Ctrl+C stops the server.
#
#   scripts/demo.sh --web [--port N] [--no-isolation]
#     --port N         port to listen on (default 8080; 0 picks a free one)
#     --no-isolation   serve without the cross-origin isolation headers: the page then runs the
#                      synchronous build instead of the threaded one
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$VOXNAV_ROOT"

case ${1:-} in
  -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
esac

if [[ ${1:-} == --web ]]; then
  shift
  serve_args=()
  while (($#)); do
    case $1 in
      --port) (($# >= 2)) || die "demo.sh --web: --port expects a number"; serve_args+=(--port "$2"); shift 2 ;;
      --no-isolation) serve_args+=(--no-isolation); shift ;;
      *) die "demo.sh --web: unknown argument '$1' (expected --port N or --no-isolation)" ;;
    esac
  done
  bash scripts/install-deps.sh >&2
  wasm_dir=$(build_dir wasm)
  # The package and both wasm builds only (not the wasm test suites); a no-op when up to date.
  build_preset wasm voxnav_web_package >&2
  log "serving examples/web (package from $wasm_dir/web)"
  exec node examples/web/serve.mjs --build-dir "$wasm_dir" "${serve_args[@]}"
fi

bash scripts/install-deps.sh >&2
build_preset release voxnav_cli >&2
log "voxnav run $*"
exec "$(build_dir release)/voxnav" run "$@"
