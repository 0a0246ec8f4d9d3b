#!/usr/bin/env bash
# The edit benchmark natively and in wasm, in one run: per-edit maintenance cost on the default
# region with agents walking (bench/edit_bench.cpp), then the wasm/native ratio of the medians.
#
# usage: bench/edit_run.sh [--native-build DIR] [--wasm-build DIR] [--ticks T] [--warmup-edits W]
#                          [--out-dir DIR]
#   defaults: build/release, build/wasm (configured and built from the presets when missing),
#   1200 ticks after 400 untimed edits, raw output in build/bench/edit-{native,wasm}.txt
# The untimed edits warm the code up: V8 first runs a wasm function as baseline (Liftoff) code
# and optimises it once it has run a while, so in a cold run the first of the rare long island
# proofs run unoptimised. A host that runs for minutes sees the warm figures; --warmup-edits 0
# gives the cold ones.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
native_build=build/release
wasm_build=build/wasm
ticks=1200
warmup=400
out_dir=build/bench
while [ $# -gt 0 ]; do
  case "$1" in
    --native-build) native_build="$2"; shift ;;
    --wasm-build) wasm_build="$2"; shift ;;
    --ticks) ticks="$2"; shift ;;
    --warmup-edits) warmup="$2"; shift ;;
    --out-dir) out_dir="$2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "edit_run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
[ -d "$native_build" ] || cmake --preset release -B "$native_build"
[ -d "$wasm_build" ] || cmake --preset wasm -B "$wasm_build"
cmake --build "$native_build" --target edit_bench --parallel "${VOXNAV_JOBS:-2}" >/dev/null
cmake --build "$wasm_build" --target edit_bench --parallel "${VOXNAV_JOBS:-2}" >/dev/null
mkdir -p "$out_dir"
dump="$out_dir/region.chunks"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$native_build/bench/edit_bench" --ticks "$ticks" --warmup-edits "$warmup" --rates "" --write-dump "$dump" | tee "$out_dir/edit-native.txt"
node --no-experimental-fetch "$wasm_build/bench/edit_bench.js" --ticks "$ticks" --warmup-edits "$warmup" \
  --rates "" --region-dump "$dump" |
  tee "$out_dir/edit-wasm.txt"
node -e '
const fs = require("fs");
const get = (f) => Object.fromEntries(fs.readFileSync(f, "utf8").split("\n").find((l) => l.startsWith("summary:"))
  .slice(9).trim().split(/\s+/).map((kv) => kv.split("=")).map(([k, v]) => [k, Number(v)]));
const n = get(process.argv[1]), w = get(process.argv[2]);
console.log("\n| per edit | native (us) | wasm (us) | wasm / native |\n|---|---:|---:|---:|");
for (const k of ["layers_p50_us", "agents_p50_us", "total_p50_us", "total_p99_us"])
  console.log(`| ${k.replace(/_us$/, "")} | ${n[k].toFixed(1)} | ${w[k].toFixed(1)} | ${(w[k] / n[k]).toFixed(2)} |`);
' "$out_dir/edit-native.txt" "$out_dir/edit-wasm.txt"
