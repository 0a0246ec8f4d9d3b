#!/usr/bin/env bash
# Before/after in one run: two builds' search_bench and edit_bench run interleaved (A, B, A, B...)
# on the same inputs, then bench/ab_table.mjs prints the side-by-side table (medians over the
# rounds) and checks that both sides give the same fingerprints and expansions.
#
# usage: bench/ab_run.sh A_DIR B_DIR [ROUNDS] [OUT_DIR]
#   A_DIR, B_DIR  folders holding search_bench and edit_bench (e.g. /work/baseline and
#                 build/release/bench)
#   ROUNDS        default 5
#   OUT_DIR       raw results (default build/ab)
# environment: VOXNAV_DATA (default ../shared/data beside the repository), AB_EDIT_TICKS (1200),
# AB_REPEATS (search_bench --repeats, default 3: per row the median of 3 runs).
# The search rows are run.sh's: 500 rows per map, 200 on maps of 160000 cells or more.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
a_dir="$1"; b_dir="$2"; rounds="${3:-5}"; out="${4:-$root/build/ab}"
data="${VOXNAV_DATA:-$root/../shared/data}"
ticks="${AB_EDIT_TICKS:-1200}"
repeats="${AB_REPEATS:-3}"
mkdir -p "$out"
sample_for=()
for map in "$data"/movingai-2d/maps/*.map; do
  name="$(basename "$map" .map)"
  read -r w h < <(awk '$1=="width"{w=$2} $1=="height"{h=$2} $1=="map"{print w, h; exit}' "$map")
  [ $(( w * h )) -ge 160000 ] && sample_for+=("$name=200")
done
for r in $(seq 1 "$rounds"); do
  for side in a b; do
    dir="$a_dir"; [ "$side" = b ] && dir="$b_dir"
    echo "ab_run.sh: round $r/$rounds search $side ($dir)" >&2
    "$dir/search_bench" --data "$data" --sample 500 --sample-for "${sample_for[*]}" --repeats "$repeats" \
      > "$out/search_${side}_$r.jsonl" 2>/dev/null
  done
  for side in a b; do
    dir="$a_dir"; [ "$side" = b ] && dir="$b_dir"
    echo "ab_run.sh: round $r/$rounds edit $side" >&2
    "$dir/edit_bench" --ticks "$ticks" --rates 0 --search-budgets 0 > "$out/edit_${side}_$r.txt"
  done
done
node "$here/ab_table.mjs" "$out" "$rounds"
