#!/usr/bin/env bash
# Runs the examples CI builds (scripts/test.sh calls this with the native release build dir).
set -euo pipefail
build=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/release}
"$build/examples/quickstart"
