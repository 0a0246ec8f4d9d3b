#!/usr/bin/env bash
# Runs the randomized suites longer than CI does, to search for failures: builds PRESET (default
# release) and runs its ctest with VOXNAV_TEST_SCALE=SCALE (default 4), which multiplies the run
# length (edits, updates, ticks) of every suite sized by test::rounds (tests/support). A suite's
# own variable multiplies on top (VOXNAV_LC_SCALE, VOXNAV_B2_SCALE, ...); VOXNAV_*_SEED variables
# move the random sequences.
#
#   scripts/long-tests.sh [SCALE] [PRESET] [ctest arguments...]   e.g. scripts/long-tests.sh 8 release -R edits
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$VOXNAV_ROOT"
scale=4
if [[ ${1:-} =~ ^[0-9]+$ ]]; then scale=$1; shift; fi
preset=${1:-release}
(($#)) && shift
build_preset "$preset"
VOXNAV_TEST_SCALE=$scale ctest --test-dir "$(build_dir "$preset")" --output-on-failure \
  --timeout $((1800 * scale)) --parallel "$VOXNAV_JOBS" "$@"
