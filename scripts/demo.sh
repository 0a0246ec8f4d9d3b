#!/usr/bin/env bash
# Runs the main job: installs what is missing, builds the native release `voxnav` tool, then
# `voxnav run [ARGS...]` (with no arguments it uses the world shipped in the repository).
#
#   scripts/demo.sh [ARGS...]      e.g. scripts/demo.sh, scripts/demo.sh path/to/world
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$VOXNAV_ROOT"

bash scripts/install-deps.sh >&2
build_preset release voxnav_cli >&2
log "voxnav run $*"
exec "$(build_dir release)/voxnav" run "$@"
