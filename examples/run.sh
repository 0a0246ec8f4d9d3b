#!/usr/bin/env bash
# Runs the examples CI builds (scripts/test.sh calls this with the native release build dir).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/release}
bash "$root/examples/check_readme_snippet.sh"
"$build/examples/quickstart"
"$build/examples/readme_snippet" "$root/data"
