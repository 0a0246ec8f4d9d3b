#!/usr/bin/env bash
# Formats the C++ sources with clang-format (style: .clang-format at the repository root).
#
#   scripts/format.sh           rewrite files in place
#   scripts/format.sh --check   change nothing; exit non-zero if a file is not formatted
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=(-i)
case ${1:-} in
  "") ;;
  --check) mode=(--dry-run -Werror) ;;
  *) echo "format.sh: unknown argument '$1'" >&2; exit 2 ;;
esac
command -v clang-format >/dev/null 2>&1 || { echo "format.sh: clang-format is not installed" >&2; exit 1; }

dirs=()
for d in src native tests bench bindings; do [[ -d $d ]] && dirs+=("$d"); done
((${#dirs[@]})) || exit 0
find "${dirs[@]}" -name node_modules -prune -o -type f \
  \( -name '*.cpp' -o -name '*.cc' -o -name '*.h' -o -name '*.hpp' \) -print0 |
  xargs -0 -r clang-format "${mode[@]}" ||
  { echo "format.sh: some files are not formatted (run scripts/format.sh)" >&2; exit 1; }
