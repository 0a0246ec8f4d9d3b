#!/usr/bin/env bash
# Builds the libFuzzer harnesses (the `fuzz` preset: clang++-14 + libc++, ASan + UBSan), runs every
# regression input in fuzz/regressions/<target>/ through its harness (each must pass), then fuzzes
# each target for SECONDS (default 60) from seed corpora cut from the shared data (fuzz/make_seeds.py)
# plus the inputs earlier runs kept in $VOXNAV_BUILD_ROOT/fuzz/corpus/<target>. Targets fuzz
# VOXNAV_FUZZ_PARALLEL at a time (default: VOXNAV_JOBS, the core count), one libFuzzer process each,
# so a minute per target costs about a minute per VOXNAV_FUZZ_PARALLEL targets of wall time.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     targets: anvil_columns anvil_region schematic
#                                             movingai_map movingai_scen voxel_map registry_json
#                                             minecraft_blocks profile_json scenario_json
#
# Exits non-zero on any crash, leak, UB report, timeout or out-of-memory, printing the reproducer
# (saved under $VOXNAV_BUILD_ROOT/fuzz/artifacts/<target>/); replay one with
# `build/fuzz/fuzz/fuzz_<target> FILE`. Environment: VOXNAV_SHARED_DATA (default ../shared/data),
# VOXNAV_BUILD_ROOT and VOXNAV_JOBS as in scripts/lib.sh.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$VOXNAV_ROOT" || exit 1

all_targets=(anvil_columns anvil_region schematic movingai_map movingai_scen voxel_map
  registry_json minecraft_blocks profile_json scenario_json)
seconds=60
if [[ ${1:-} =~ ^[0-9]+$ ]]; then seconds=$1; shift; fi
[[ ${1:-} == -h || ${1:-} == --help ]] && { sed -n '2,15p' "$0"; exit 0; }
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || die "fuzz.sh: unknown target '$t'"
done

# Longest input per format (mutations grow inputs up to this): a region needs its 8 KiB header
# plus a chunk or two; text formats stay small.
max_len() {
  case $1 in
    anvil_columns) echo 262144 ;;
    anvil_region) echo 131072 ;;
    schematic | minecraft_blocks) echo 65536 ;;
    movingai_map | voxel_map | registry_json | scenario_json) echo 16384 ;;
    *) echo 8192 ;;
  esac
}

dir=$(build_dir fuzz)
# Every target: the aggregate target voxnav_fuzzers (one make goal, so the harnesses compile side by
# side; several goals would be built one after another).
if ((${#targets[@]} == ${#all_targets[@]})); then
  build_preset fuzz voxnav_fuzzers || die "fuzz.sh: the fuzz build failed"
else
  build_preset fuzz "${targets[@]/#/fuzz_}" || die "fuzz.sh: the fuzz build failed"
fi

shared=${VOXNAV_SHARED_DATA:-$VOXNAV_ROOT/../shared/data}
seeds=$dir/seeds
rm -rf "$seeds"
python3 fuzz/make_seeds.py "$shared" "$seeds" || die "fuzz.sh: cannot make the seed corpora"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
common=(-rss_limit_mb=2048 -timeout=30)
failed=()

log "regression inputs"
for t in "${targets[@]}"; do
  [[ -d fuzz/regressions/$t ]] || continue
  mapfile -t inputs < <(find "fuzz/regressions/$t" -type f | sort)
  ((${#inputs[@]})) || continue
  if "$dir/fuzz/fuzz_$t" "${common[@]}" "${inputs[@]}" >"$dir/regressions_$t.log" 2>&1; then
    echo "  $t: ${#inputs[@]} inputs ok"
  else
    echo "  $t: FAILED (log: $dir/regressions_$t.log)"
    grep -E 'Running: |ERROR|SUMMARY|voxnav fuzz:' "$dir/regressions_$t.log" | tail -5
    failed+=("$t (regressions)")
  fi
done

# fuzz_one TARGET: fuzzes one target for $seconds; its summary goes to $dir/fuzz_TARGET.summary,
# and the exit code says whether it found something.
fuzz_one() {
  local t=$1 corpus=$dir/corpus/$1 artifacts=$dir/artifacts/$1 rc
  mkdir -p "$corpus" "$artifacts" "$seeds/$t"
  "$dir/fuzz/fuzz_$t" "${common[@]}" -max_len="$(max_len "$t")" -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "$seeds/$t" \
    >"$dir/fuzz_$t.log" 2>&1
  rc=$?
  {
    echo "  $t: $(grep -E '^stat::number_of_executed_units|^Done' "$dir/fuzz_$t.log" | tr '\n' ' ')"
    if ((rc != 0)); then
      grep -E 'ERROR|SUMMARY|voxnav fuzz:|Test unit written to' "$dir/fuzz_$t.log" | tail -6
      echo "  reproducer: $(grep -o 'Test unit written to .*' "$dir/fuzz_$t.log" | tail -1 | cut -d' ' -f5)"
      echo "  log: $dir/fuzz_$t.log"
    fi
  } >"$dir/fuzz_$t.summary"
  return "$rc"
}

parallel=${VOXNAV_FUZZ_PARALLEL:-${VOXNAV_JOBS:-2}}
((parallel >= 1)) || parallel=1
log "fuzz ${#targets[@]} targets for ${seconds}s each, $parallel at a time"
declare -A pid_target=()
finish_one() {  # waits for one running target and records its result
  local pid rc
  wait -n -p pid
  rc=$?
  cat "$dir/fuzz_${pid_target[$pid]}.summary"
  ((rc == 0)) || failed+=("${pid_target[$pid]}")
  unset "pid_target[$pid]"
}
for t in "${targets[@]}"; do
  while ((${#pid_target[@]} >= parallel)); do finish_one; done
  fuzz_one "$t" &
  pid_target[$!]=$t
done
while ((${#pid_target[@]})); do finish_one; done

if ((${#failed[@]})); then
  echo "fuzz.sh: FAILED: ${failed[*]}"
  exit 1
fi
echo "fuzz.sh: all ${#targets[@]} targets clean (${seconds}s each)"
