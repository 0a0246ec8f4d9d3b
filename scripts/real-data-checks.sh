#!/usr/bin/env bash
# Real-data sweeps with the release CLI (run by scripts/test.sh after the release ctest):
#  - `voxnav scen` on every Moving AI map in ../shared/data/movingai-2d: every row must pass;
#  - `voxnav run` on the default world (200 agents, 1,200 ticks) twice with one seed: the same
#    deterministic summary, most agents arriving repeatedly, every stuck agent reported;
#  - `voxnav run` on the other real regions, `voxnav route` on a schematic and a map;
#  - bad input (truncated region, unknown format, out-of-range coordinate, goal in an unloaded
#    chunk) gives a clear error or an Unknown answer, never a crash.
#   scripts/real-data-checks.sh [BUILD_DIR]   (default build/release)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/build/release}/voxnav
shared=$(cd "$root/../shared/data" 2>/dev/null && pwd) || { echo "real-data-checks: ../shared/data not found" >&2; exit 1; }
[[ -x $bin ]] || { echo "real-data-checks: $bin not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() {  # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then echo "ok    $name"; else echo "FAIL  $name"; fails=$((fails + 1)); fi
}

# 1. Moving AI: all rows of every map.
for map in "$shared"/movingai-2d/maps/*.map; do
  name=$(basename "$map")
  scen="$shared/movingai-2d/scens/$name.scen"
  "$bin" scen "$map" "$scen" > "$tmp/scen.txt" 2>&1
  rc=$?
  line=$(tail -n 1 "$tmp/scen.txt")
  grep -E "search:" "$tmp/scen.txt" | sed "s/^/      $name /"
  check "scen $name: $line" test "$rc" -eq 0 -a -n "$(echo "$line" | grep -E '^[0-9]+ passed, 0 failed$')"
done

# 2. The main job, twice with one seed.
strip_timing() {  # keep the deterministic fields of the JSON summary
  python3 -c 'import json,sys
d=json.load(sys.stdin)
for k in list(d):
    if k.endswith("_ms") or "_us_" in k or k.startswith("tick_ms"): del d[k]
print(json.dumps(d, sort_keys=True))'
}
"$bin" run --agents 200 --ticks 1200 --seed 7 --json > "$tmp/run1.json" || fails=$((fails + 1))
"$bin" run --agents 200 --ticks 1200 --seed 7 --json --threads 0 > "$tmp/run2.json" || fails=$((fails + 1))
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("      run: agents %(agents)d arrivals %(arrivals)d arrived-twice %(agents_arrived_twice)d stuck-now %(stuck_now)d replans %(replans)d search p50 %(search_us_p50).1f us p99 %(search_us_p99).1f us tick mean %(tick_ms_mean).2f ms" % d)' "$tmp/run1.json"
check "run: same seed, same summary (2 threads vs synchronous)" \
  test "$(strip_timing < "$tmp/run1.json")" = "$(strip_timing < "$tmp/run2.json")"
check "run: at least 80% of agents arrive twice or more" \
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["agents_arrived_twice"] >= 0.8*d["agents"] else 1)' "$tmp/run1.json"
check "run: every stuck agent is reported with a reason" \
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d["stuck"]) == d["stuck_now"] and all(":" in s for s in d["stuck"]) else 1)' "$tmp/run1.json"

# 3. Other real worlds.
# (600 ticks, 30 s: goals are random cells of the agent's island within 48 cells, and since gap
# jumps join more of the terrain some of them are 100-260 cells away by path on the 1.16 region.)
for region in "$shared"/minecraft/regions/*/*.mca; do
  "$bin" run "$region" --agents 100 --ticks 600 --json > "$tmp/other.json" 2> "$tmp/other.err"
  rc=$?
  check "run $(basename "$(dirname "$region")")/$(basename "$region")" \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if sys.argv[2]=="0" and d["agents_arrived"] >= 0.8*d["agents"] else 1)' "$tmp/other.json" "$rc"
done
check "route on a schematic (ladder house)" "$bin" route "$shared/minecraft/schematics/smallhouse1.schem" --from 3,1,3 --to 12,1,3 --json > /dev/null
"$bin" route "$shared/movingai-2d/maps/arena.map" --from 19,1,26 --to 19,1,29 --json > "$tmp/route.json"
check "route on a Moving AI map: length 3 as the scen says" \
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["status"]=="ready" and len(d["cells"])==4 else 1)' "$tmp/route.json"

# 4. Bad input: a clear error (exit 1 with a message), never a crash (exit >= 128).
head -c 70000 "$shared/minecraft/regions/1.16/r.0.-1.mca" > "$tmp/truncated.mca"
printf 'hello' > "$tmp/unknown.xyz"
bad() {  # bad NAME EXPECTED-TEXT COMMAND...
  local name=$1 want=$2
  shift 2
  "$@" > "$tmp/bad.out" 2>&1
  local rc=$?
  check "$name (exit $rc: $(grep -m1 -i -o "$want.*" "$tmp/bad.out" | head -c 100))" \
    test "$rc" -ge 1 -a "$rc" -lt 128 -a -n "$(grep -i "$want" "$tmp/bad.out")"
}
bad "truncated region file" "truncated\|cannot load" "$bin" route "$tmp/truncated.mca" --from 0,70,-500 --to 5,70,-500
bad "unknown world format" "unsupported\|unknown" "$bin" route "$tmp/unknown.xyz" --from 0,0,0 --to 1,0,0
bad "out-of-range coordinate" "out of range\|OutOfRange\|expects" "$bin" route "$shared/movingai-2d/maps/arena.map" --from 99999999999,1,1 --to 1,1,1
# A scen row whose start lies off the map (arena.map is 49 x 49 tiles) is reported as a bad row,
# not searched on the walled cells around the map.
printf 'version 1\n0\tarena.map\t49\t49\t19\t26\t19\t29\t3\n0\tarena.map\t49\t49\t60\t26\t19\t29\t3\n' > "$tmp/offmap.scen"
bad "scen row off the map" "start (60,26) is outside the map" "$bin" scen "$shared/movingai-2d/maps/arena.map" "$tmp/offmap.scen"
bad "goal in an unloaded chunk" "unknown (not_loaded)" "$bin" route "$shared/movingai-2d/maps/arena.map" --from 19,1,26 --to 5000,1,5000

echo "real-data checks: $fails failed"
exit $((fails > 0))
