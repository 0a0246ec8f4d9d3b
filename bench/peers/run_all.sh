#!/usr/bin/env bash
# Runs both peer benchmarks and writes one JSON line per run to OUT (default
# build/bench/peers.jsonl, relative to the repository root):
#   - PathFinding.js A* on every Moving AI 2D map (a fixed sample of up to $PEER_SAMPLE rows per
#     map, spread evenly over the scenario file and so over its buckets; 500 by default),
#   - mineflayer-pathfinder A* on the region pairs of PAIRS.json, with voxnav's walker rules
#     (--walker-rules), then also its diagonal rule (--no-corner-cutting).
#
# usage: bench/peers/run_all.sh [PAIRS.json] [OUT.jsonl]
#   PAIRS.json  default: bench/peers/pairs/r.0.-1_1.16_seed1.json (made by make_pairs.mjs)
# environment:
#   VOXNAV_DATA      the shared data folder (default: ../shared/data beside the repository)
#   PEER_SAMPLE      rows per Moving AI map (default 500; 0 = every row)
#   PEER_REGION      region file for the pairs (default: the pairs file's "region", resolved from
#                    the repository root, else $VOXNAV_DATA/minecraft/regions/1.16/r.0.-1.mca)
#   PEER_MC_VERSION  minecraft-data version (default: the pairs file's "version", else 1.16.4)
#   PEER_TIMEOUT_MS  mineflayer per-pair budget (default 5000)
#   PEER_MAPS        space-separated map names to run (default: all, e.g. "arena den312d")
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

data="${VOXNAV_DATA:-$root/../shared/data}"
pairs="${1:-bench/peers/pairs/r.0.-1_1.16_seed1.json}"
out="${2:-build/bench/peers.jsonl}"
sample="${PEER_SAMPLE:-500}"
timeout_ms="${PEER_TIMEOUT_MS:-5000}"

[ -d "$data/movingai-2d" ] || { echo "run_all: no Moving AI data under $data (set VOXNAV_DATA)" >&2; exit 2; }
[ -f "$pairs" ] || { echo "run_all: no pairs file $pairs" >&2; exit 2; }
command -v node >/dev/null || { echo "run_all: node is not installed" >&2; exit 2; }

if [ ! -d "$here/node_modules" ]; then
  echo "run_all: installing peers (npm ci --prefix bench/peers)" >&2
  npm ci --prefix "$here" --no-audit --no-fund >&2
fi

mkdir -p "$(dirname "$out")"
: > "$out"

# --- PathFinding.js on the Moving AI maps -------------------------------------------------------
sample_args=()
[ "$sample" != "0" ] && sample_args=(--sample "$sample")
for map in "$data"/movingai-2d/maps/*.map; do
  name="$(basename "$map" .map)"
  if [ -n "${PEER_MAPS:-}" ] && [[ " $PEER_MAPS " != *" $name "* ]]; then continue; fi
  scen="$data/movingai-2d/scens/$name.map.scen"
  [ -f "$scen" ] || { echo "run_all: no scenario file for $name, skipped" >&2; continue; }
  node "$here/pathfinding_movingai.mjs" "$map" "$scen" "${sample_args[@]}" >> "$out"
done

# --- mineflayer-pathfinder on the region pairs --------------------------------------------------
read -r pairs_region pairs_version < <(node -e '
  const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log((p.region || "-") + " " + (p.version || "-"))' "$pairs")
region="${PEER_REGION:-}"
if [ -z "$region" ]; then
  if [ "$pairs_region" != "-" ] && [ -f "$pairs_region" ]; then region="$pairs_region"
  else region="$data/minecraft/regions/1.16/r.0.-1.mca"; fi
fi
version="${PEER_MC_VERSION:-}"
if [ -z "$version" ]; then
  if [ "$pairs_version" != "-" ]; then version="$pairs_version"; else version="1.16.4"; fi
fi
node "$here/mineflayer_region.mjs" "$region" "$version" "$pairs" --timeout-ms "$timeout_ms" --walker-rules >> "$out"
node "$here/mineflayer_region.mjs" "$region" "$version" "$pairs" --timeout-ms "$timeout_ms" --walker-rules --no-corner-cutting >> "$out"

echo "run_all: wrote $(wc -l < "$out") JSON lines to $out" >&2
