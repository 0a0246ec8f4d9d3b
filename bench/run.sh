#!/usr/bin/env bash
# The search benchmark in one run: builds voxnav's search_bench natively and to wasm, runs it
# (native, then wasm under node), then the peers (PathFinding.js on the same Moving AI rows,
# mineflayer-pathfinder on the same region pairs, with voxnav's walker rules), and writes
# docs/benchmarks.md.
#
# usage: bench/run.sh [--standard] [--native-build DIR] [--wasm-build DIR] [--no-build]
#                     [--out-dir DIR] [--doc FILE] [--quick] [PAIRS.json]
#   --standard        use build/release and build/wasm (configured from the presets when missing)
#   --native-build    native build directory (default build/bench-native)
#   --wasm-build      wasm build directory (default build/bench-wasm)
#   --no-build        run what is already built
#   --out-dir         raw results (default build/bench)
#   --doc             the generated page (default docs/benchmarks.md; --quick: OUT_DIR/benchmarks.md)
#   --quick           smoke run: 20 rows of two small maps, 1 repeat, 10^5 reachable calls
#   PAIRS.json        region pairs (default bench/peers/pairs/r.0.-1_1.16_seed1.json)
# environment:
#   VOXNAV_DATA        shared data folder (default ../shared/data beside the repository)
#   BENCH_SAMPLE       rows per Moving AI map (default 500, the peers' default)
#   BENCH_BIG_SAMPLE   rows on maps of BENCH_BIG_CELLS cells or more (default 200: PathFinding.js
#                      needs minutes per 500 rows there); both sides always run the same rows
#   BENCH_BIG_CELLS    default 160000 (400 x 400)
#   BENCH_REPEATS      voxnav runs of every row / pair, median kept (default 3)
#   BENCH_REACH_CALLS  steady-state reachable() calls (default 1000000)
#   BENCH_MAPS         only these maps, e.g. "arena den312d"
#   PEER_TIMEOUT_MS    mineflayer per-pair budget (default 5000)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
command_line="bench/run.sh $*"

native_build=build/bench-native
wasm_build=build/bench-wasm
standard=0
build=1
quick=0
out_dir=build/bench
doc=""
pairs=bench/peers/pairs/r.0.-1_1.16_seed1.json
while [ $# -gt 0 ]; do
  case "$1" in
    --standard) standard=1; native_build=build/release; wasm_build=build/wasm ;;
    --native-build) native_build="$2"; shift ;;
    --wasm-build) wasm_build="$2"; shift ;;
    --no-build) build=0 ;;
    --out-dir) out_dir="$2"; shift ;;
    --doc) doc="$2"; shift ;;
    --quick) quick=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) pairs="$1" ;;
  esac
  shift
done

data="${VOXNAV_DATA:-$root/../shared/data}"
sample="${BENCH_SAMPLE:-500}"
big_sample="${BENCH_BIG_SAMPLE:-200}"
big_cells="${BENCH_BIG_CELLS:-160000}"
repeats="${BENCH_REPEATS:-3}"
reach_calls="${BENCH_REACH_CALLS:-1000000}"
maps_filter="${BENCH_MAPS:-}"
timeout_ms="${PEER_TIMEOUT_MS:-5000}"
if [ "$quick" = 1 ]; then
  sample=20; big_sample=20; repeats=1; reach_calls=100000
  maps_filter="${BENCH_MAPS:-arena den312d}"
  [ -n "$doc" ] || doc="$out_dir/benchmarks.md"
fi
[ -n "$doc" ] || doc=docs/benchmarks.md

[ -d "$data/movingai-2d/maps" ] || { echo "run.sh: no Moving AI data under $data (set VOXNAV_DATA)" >&2; exit 2; }
[ -f "$pairs" ] || { echo "run.sh: no pairs file $pairs" >&2; exit 2; }
command -v node >/dev/null || { echo "run.sh: node is not installed" >&2; exit 2; }

log() { echo "run.sh: $*" >&2; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
phases=()
phase_start=0
begin() { phase_start=$(date +%s); log "$1"; }
end() { phases+=("$1:$(( $(date +%s) - phase_start ))"); }

load_start="$(loadavg)"
mkdir -p "$out_dir"
native_out="$out_dir/voxnav-native.jsonl"
wasm_out="$out_dir/voxnav-wasm.jsonl"
peers_out="$out_dir/peers.jsonl"
dump="$out_dir/region.chunks"

# ---- build ------------------------------------------------------------------------------------
export NODE_PATH=/usr/share/nodejs  # emcc's JS optimizer needs acorn from here (TOOLCHAIN.md)
if [ "$build" = 1 ]; then
  begin "building native search_bench in $native_build"
  if [ ! -f "$native_build/CMakeCache.txt" ]; then
    if [ "$standard" = 1 ]; then cmake --preset release >&2
    else cmake -S . -B "$native_build" -DCMAKE_BUILD_TYPE=Release -DVOXNAV_BUILD_TESTS=OFF >&2; fi
  fi
  cmake -S . -B "$native_build" -DVOXNAV_BUILD_BENCH=ON >/dev/null
  cmake --build "$native_build" -j2 --target search_bench >&2
  end build-native

  begin "building wasm search_bench in $wasm_build"
  if ! command -v emcc >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
      log "installing Emscripten from Debian (see ../shared/TOOLCHAIN.md)"
      apt-get update >&2 && apt-get install -y emscripten binaryen >&2
    else
      echo "run.sh: emcc is missing: apt-get install emscripten binaryen" >&2; exit 2
    fi
  fi
  if [ ! -f "$wasm_build/CMakeCache.txt" ]; then
    if [ "$standard" = 1 ]; then cmake --preset wasm >&2
    else
      cmake -S . -B "$wasm_build" \
        -DCMAKE_TOOLCHAIN_FILE=/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake \
        -DCMAKE_BUILD_TYPE=Release -DVOXNAV_BUILD_TESTS=OFF \
        "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" >&2
    fi
  fi
  cmake -S . -B "$wasm_build" -DVOXNAV_BUILD_BENCH=ON >/dev/null
  cmake --build "$wasm_build" -j2 --target search_bench >&2
  end build-wasm
fi
native_bin="$native_build/bench/search_bench"
wasm_js="$wasm_build/bench/search_bench.js"
[ -x "$native_bin" ] || { echo "run.sh: $native_bin is not built" >&2; exit 2; }
[ -f "$wasm_js" ] || { echo "run.sh: $wasm_js is not built" >&2; exit 2; }

# ---- the rows: one sample size per map, the same for voxnav and PathFinding.js -----------------
maps=()
sample_for=()
declare -A map_sample
for map in "$data"/movingai-2d/maps/*.map; do
  name="$(basename "$map" .map)"
  if [ -n "$maps_filter" ] && [[ " $maps_filter " != *" $name "* ]]; then continue; fi
  [ -f "$data/movingai-2d/scens/$name.map.scen" ] || { log "no scenario file for $name, skipped"; continue; }
  read -r w h < <(awk '$1=="width"{w=$2} $1=="height"{h=$2} $1=="map"{print w, h; exit}' "$map")
  n="$sample"
  [ $(( w * h )) -ge "$big_cells" ] && n="$big_sample"
  maps+=("$name")
  map_sample[$name]="$n"
  sample_for+=("$name=$n")
done
[ ${#maps[@]} -gt 0 ] || { echo "run.sh: no maps selected" >&2; exit 2; }
if [ "$sample" = "$big_sample" ]; then sample_rule="$sample (floor(i*R/N); every row when the scen has fewer)"
else sample_rule="$sample, $big_sample on maps of $big_cells cells or more (floor(i*R/N); every row when the scen has fewer)"; fi

# ---- region (as bench/peers/run_all.sh resolves it) --------------------------------------------
read -r pairs_region pairs_version < <(node -e '
  const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log((p.region || "-") + " " + (p.version || "-"))' "$pairs")
region="${PEER_REGION:-}"
if [ -z "$region" ]; then
  if [ "$pairs_region" != "-" ] && [ -f "$pairs_region" ]; then region="$pairs_region"
  else region="$data/minecraft/regions/1.16/r.0.-1.mca"; fi
fi
version="${PEER_MC_VERSION:-}"
[ -n "$version" ] || { [ "$pairs_version" != "-" ] && version="$pairs_version" || version=1.16.4; }

common=(--data "$data" --maps "${maps[*]}" --sample "$sample" --sample-for "${sample_for[*]}"
        --repeats "$repeats" --region-repeats "$repeats" --reach-calls "$reach_calls" --pairs "$pairs")

# ---- voxnav native, then wasm under node --------------------------------------------------------
begin "voxnav native"
"$native_bin" "${common[@]}" --region "$region" --write-dump "$dump" > "$native_out"
end voxnav-native

begin "voxnav wasm (node $(node --version))"
node --no-experimental-fetch "$wasm_js" "${common[@]}" --region-dump "$dump" > "$wasm_out"
end voxnav-wasm

# ---- peers --------------------------------------------------------------------------------------
if [ ! -d "$here/peers/node_modules" ]; then
  log "installing peers (npm ci --prefix bench/peers)"
  npm ci --prefix "$here/peers" --no-audit --no-fund >&2
fi
: > "$peers_out"
begin "PathFinding.js on ${#maps[@]} maps"
for name in "${maps[@]}"; do
  node "$here/peers/pathfinding_movingai.mjs" "$data/movingai-2d/maps/$name.map" \
    "$data/movingai-2d/scens/$name.map.scen" --sample "${map_sample[$name]}" >> "$peers_out"
done
end pathfinding.js

begin "mineflayer-pathfinder on $(basename "$pairs") (walker options; then the same rules)"
# The peer of record: Movements options set to voxnav's walker. The second run adds voxnav's
# diagonal rule (no corner cutting), which no option expresses, to compare success on equal rules.
node "$here/peers/mineflayer_region.mjs" "$region" "$version" "$pairs" --timeout-ms "$timeout_ms" --walker-rules >> "$peers_out"
node "$here/peers/mineflayer_region.mjs" "$region" "$version" "$pairs" --timeout-ms "$timeout_ms" --walker-rules --no-corner-cutting >> "$peers_out"
end mineflayer

# ---- the page -----------------------------------------------------------------------------------
load_end="$(loadavg)"
meta="$out_dir/meta.json"
dirty=false
cxx="$(grep -m1 '^CMAKE_CXX_COMPILER:' "$native_build/CMakeCache.txt" | cut -d= -f2)"
[ -n "$(git status --porcelain 2>/dev/null)" ] && dirty=true
META_DATE="$(date -u '+%Y-%m-%d %H:%M UTC')" \
META_COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
META_DIRTY="$dirty" \
META_CPU="$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)" \
META_CPUS="$(nproc)" \
META_OS="$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME" || uname -sr)" \
META_CXX="$("$cxx" --version 2>/dev/null | head -1)" \
META_EMCC="emcc $(emcc --version 2>/dev/null | head -1 | grep -o '[0-9]*\.[0-9]*\.[0-9]*' | head -1)" \
META_LOAD_START="$load_start" META_LOAD_END="$load_end" \
META_PHASES="${phases[*]}" \
META_SAMPLE_RULE="$sample_rule" META_REPEATS="$repeats" \
META_COMMAND="$command_line" META_NATIVE_BUILD="$native_build" META_WASM_BUILD="$wasm_build" \
META_RESULTS_DIR="$out_dir" \
node -e '
  const e = process.env
  const meta = {
    date: e.META_DATE, commit: e.META_COMMIT, dirty: e.META_DIRTY === "true",
    cpu: e.META_CPU, cpus: Number(e.META_CPUS), os: e.META_OS, node: process.version,
    cxx: e.META_CXX, emcc: e.META_EMCC,
    load_start: e.META_LOAD_START.split(" ").map(Number), load_end: e.META_LOAD_END.split(" ").map(Number),
    phases: e.META_PHASES.split(" ").filter(Boolean).map(p => ({ name: p.split(":")[0], seconds: Number(p.split(":")[1]) })),
    sample_rule: e.META_SAMPLE_RULE, repeats: Number(e.META_REPEATS), command: e.META_COMMAND,
    native_build: e.META_NATIVE_BUILD, wasm_build: e.META_WASM_BUILD, results_dir: e.META_RESULTS_DIR
  }
  process.stdout.write(JSON.stringify(meta, null, 1) + "\n")' > "$meta"
mkdir -p "$(dirname "$doc")"
node "$here/make_table.mjs" --native "$native_out" --wasm "$wasm_out" --peers "$peers_out" --meta "$meta" --out "$doc"
log "wrote $doc (raw results in $out_dir); load average $load_start -> $load_end"
