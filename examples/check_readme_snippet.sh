#!/usr/bin/env bash
# The README's C++ snippet must be examples/native/readme_snippet.cpp, character for character:
# CI builds and runs that file, so the snippet a reader copies compiles and works.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
snippet=$(awk '/^```cpp$/ {on = 1; next} on && /^```$/ {exit} on {print}' "$root/README.md")
if [[ -z "$snippet" ]]; then
  echo "README.md has no \`\`\`cpp block" >&2
  exit 1
fi
if ! diff -u --label "README.md (first cpp block)" --label examples/native/readme_snippet.cpp \
    <(printf '%s\n' "$snippet") "$root/examples/native/readme_snippet.cpp"; then
  echo "README.md's C++ snippet differs from examples/native/readme_snippet.cpp: make them equal" >&2
  exit 1
fi
echo "README snippet matches examples/native/readme_snippet.cpp"
