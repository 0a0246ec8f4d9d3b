#!/usr/bin/env bash
# Runs every test: installs what is missing, then, in this order: the native release build and its
# ctest; the wasm build and its ctest (the same GoogleTest suites under node); the node tests in
# tests/web and the browser tests in tests/browser (the demo page in headless Chromium; screenshots
# go to $VOXNAV_BUILD_ROOT/artifacts), with the real-data checks, the examples and a separate CMake
# project built against the installed library (tests/consumer) beside them in the background; the
# debug (ASan + UBSan) build (its suites linked from the release tree's test objects) and its
# ctest; the suites labelled "threads" under ThreadSanitizer
# (preset tsan); a short fuzzing pass (scripts/fuzz.sh: the `fuzz` preset with clang + libc++, the
# regression inputs, then VOXNAV_FUZZ_SECONDS per target, default 60, VOXNAV_JOBS targets at a
# time). Emscripten, node, clang and Chromium install in the background during the release build.
# Keeps going after a failure, prints a summary, and exits non-zero if anything
# failed. Steps after the builds have a time limit (VOXNAV_WEB_TEST_TIMEOUT for the node tests,
# default 900 s; VOXNAV_BROWSER_TEST_TIMEOUT for the browser tests, default 300 s).
#
#   scripts/test.sh [--no-debug] [--no-tsan] [--no-fuzz] [--no-install]
#
# Environment: VOXNAV_TEST_DEBUG=0 is the same as --no-debug, VOXNAV_TEST_TSAN=0 as --no-tsan,
# VOXNAV_TEST_FUZZ=0 as --no-fuzz; VOXNAV_CHROMIUM=1/0 forces installing Chromium for browser
# tests on or off (default: installed when a tests/web or tests/browser test file mentions
# chromium); VOXNAV_BUILD_ROOT and VOXNAV_JOBS as in scripts/lib.sh.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

run_debug=${VOXNAV_TEST_DEBUG:-1}
run_tsan=${VOXNAV_TEST_TSAN:-1}
run_fuzz=${VOXNAV_TEST_FUZZ:-1}
install=1
for arg in "$@"; do
  case $arg in
    --no-debug) run_debug=0 ;;
    --no-tsan) run_tsan=0 ;;
    --no-install) install=0 ;;
    --no-fuzz) run_fuzz=0 ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) die "test.sh: unknown argument '$arg'" ;;
  esac
done
cd "$VOXNAV_ROOT" || exit 1

names=() results=() times=()
failed=0
# step NAME COMMAND...: runs one step, records its result and time.
step() {
  local name=$1 start=$SECONDS rc
  shift
  log "[$name] $*"
  "$@"
  rc=$?
  names+=("$name") times+=($((SECONDS - start)))
  if ((rc == 0)); then
    results+=(ok)
  elif ((rc == 124)); then
    results+=("FAILED (timed out)")
    failed=1
  else
    results+=("FAILED (exit $rc)")
    failed=1
  fi
  return "$rc"
}
skip() { names+=("$1") times+=(0) results+=("skipped: $2"); }
# limit SECONDS COMMAND...: a hung step (e.g. a node process kept alive by a worker) fails after
# SECONDS instead of blocking CI; the whole process group is killed.
limit() { timeout --kill-after=30 "$@"; }

web_tests=() browser_tests=()
if [[ -d tests/web ]]; then
  mapfile -t web_tests < <(find tests/web -name node_modules -prune -o -name '*.test.mjs' -print | sort)
fi
if [[ -d tests/browser ]]; then
  mapfile -t browser_tests < <(find tests/browser -name node_modules -prune -o -name '*.test.mjs' -print | sort)
fi

# Background steps: bg NAME COMMAND... starts a step whose output goes to a log file; bg_wait
# waits for every started one, prints each log and records it like step does. Steps that keep one
# core busy (the package installs, the real-data sweeps, the node and browser tests) run beside
# each other or beside a build so that the second core does not idle.
bg_dir=$(mktemp -d) bg_pids=() bg_names=() bg_starts=()
trap 'rm -rf "$bg_dir"' EXIT
bg() {
  local name=$1 i=${#bg_pids[@]}
  shift
  log "[$name] $* (in the background)"
  # The step's own time goes to $i.time (the wait comes later).
  (
    start=$SECONDS
    "$@"
    rc=$?
    echo $((SECONDS - start)) >"$bg_dir/$i.time"
    exit "$rc"
  ) >"$bg_dir/$i.log" 2>&1 &
  bg_pids+=($!) bg_names+=("$name") bg_starts+=("$SECONDS")
}
bg_wait() {
  local i rc all=0
  for i in "${!bg_pids[@]}"; do
    wait "${bg_pids[$i]}"
    rc=$?
    log "[${bg_names[$i]}] output (ran in the background)"
    cat "$bg_dir/$i.log"
    names+=("${bg_names[$i]}") times+=("$(cat "$bg_dir/$i.time" 2>/dev/null || echo $((SECONDS - bg_starts[i])))")
    if ((rc == 0)); then
      results+=(ok)
    else
      results+=("FAILED (exit $rc$( ((rc == 124)) && echo ', timed out'))")
      failed=1 all=1
    fi
  done
  bg_pids=() bg_names=() bg_starts=()
  return "$all"
}

total_start=$SECONDS
if ((install)); then
  chromium=${VOXNAV_CHROMIUM:-}
  if [[ -z $chromium ]]; then
    chromium=0
    all_tests=("${web_tests[@]}" "${browser_tests[@]}")
    ((${#all_tests[@]})) && grep -qil chromium "${all_tests[@]}" && chromium=1
  fi
  deps_args=()
  ((chromium == 1)) && deps_args+=(--chromium)
  # What the native build needs first; Emscripten, node, clang and Chromium while it builds.
  step "install-deps (native)" bash scripts/install-deps.sh --native ||
    { echo "test.sh: cannot install the dependencies; stopping" >&2; exit 1; }
  bg "install-deps (the rest)" bash scripts/install-deps.sh "${deps_args[@]}"
fi

# build_and_test PRESET: the preset's build, then its ctest. built_PRESET=1 after a good build.
build_and_test() {
  if step "build $1" build_preset "$1"; then
    printf -v "built_$1" 1
    step "ctest $1" test_preset "$1"
  else
    skip "ctest $1" "build failed"
  fi
}
build_and_test release
if ((install)); then
  bg_wait || { echo "test.sh: cannot install the dependencies; stopping" >&2; exit 1; }
fi
# The wasm benchmarks are built to prove they compile; their full link optimisation (wasm-opt -O3,
# what their numbers are measured with) adds minutes and checks nothing here.
export VOXNAV_CMAKE_ARGS_wasm=${VOXNAV_CMAKE_ARGS_wasm--DVOXNAV_WASM_BENCH_LINK_OPT=-O1}
build_and_test wasm

# Node tests of the npm package and the server worker (they use the wasm build), and the demo page
# in headless Chromium (playwright-core + Debian's chromium: threaded build when cross-origin
# isolated, synchronous without the headers; screenshots in $VOXNAV_BUILD_ROOT/artifacts). Beside
# them, in the background: the real-data sweeps with the release CLI (every Moving AI row,
# deterministic run summaries, other regions, bad input), the examples, and an out-of-tree CMake
# project built against the installed release build (find_package(voxnav)).
export VOXNAV_WASM_BUILD_DIR VOXNAV_NATIVE_BUILD_DIR
VOXNAV_WASM_BUILD_DIR=$(build_dir wasm)
VOXNAV_NATIVE_BUILD_DIR=$(build_dir release)
release_checks() {
  local rc=0 summary=() part
  for part in "real-data checks" examples "install + consumer"; do
    log "[$part]"
    case $part in
      real-data*) limit 2400 bash scripts/real-data-checks.sh "$VOXNAV_NATIVE_BUILD_DIR" ;;
      examples) limit 900 bash examples/run.sh "$VOXNAV_NATIVE_BUILD_DIR" ;;
      install*) limit 600 bash tests/consumer/run.sh "$VOXNAV_NATIVE_BUILD_DIR" ;;
    esac
    if (($? == 0)); then summary+=("$part: ok"); else summary+=("$part: FAILED"); rc=1; fi
  done
  printf '  %s\n' "${summary[@]}"
  return "$rc"
}
if [[ -x $VOXNAV_NATIVE_BUILD_DIR/voxnav && -f $VOXNAV_NATIVE_BUILD_DIR/libvoxnav.a ]]; then
  bg "real-data checks, examples, install + consumer" release_checks
else
  skip "real-data checks, examples, install + consumer" "release build failed"
fi

npm_install() {
  local d
  for d in web tests/web tests/browser examples; do
    [[ -f $d/package.json && ! -d $d/node_modules ]] || continue
    if [[ -f $d/package-lock.json ]]; then
      (cd "$d" && npm ci --no-audit --no-fund) || return
    else
      (cd "$d" && npm install --no-audit --no-fund) || return
    fi
  done
}
npm_ok=0
if ((${#web_tests[@]} + ${#browser_tests[@]})); then
  step "npm install" npm_install && npm_ok=1
fi
if ((${#web_tests[@]})); then
  if ((npm_ok)); then
    # VOXNAV_JOBS files at a time (node's default is one fewer than the cores): the real-data
    # checks beside them end first, and the second core would idle.
    step "node --test tests/web" limit "${VOXNAV_WEB_TEST_TIMEOUT:-900}" \
      node --test --test-concurrency="$VOXNAV_JOBS" tests/web/
  else
    skip "node --test tests/web" "npm install failed"
  fi
else
  skip "node --test tests/web" "no tests/web/*.test.mjs"
fi
if ((${#browser_tests[@]})); then
  if ((npm_ok)); then
    step "node --test tests/browser" limit "${VOXNAV_BROWSER_TEST_TIMEOUT:-300}" node --test tests/browser/
  else
    skip "node --test tests/browser" "npm install failed"
  fi
else
  skip "node --test tests/browser" "no tests/browser/*.test.mjs"
fi
bg_wait

if ((run_debug)); then
  # The debug suites are linked from the release tree's compiled test code when that build passed
  # (VOXNAV_TEST_OBJECTS, tests/CMakeLists.txt), else compiled in the debug tree.
  objects=
  ((${built_release:-0})) && objects=$VOXNAV_NATIVE_BUILD_DIR
  export VOXNAV_CMAKE_ARGS_debug="${VOXNAV_CMAKE_ARGS_debug:-} -DVOXNAV_TEST_OBJECTS=$objects"
  build_and_test debug
else
  skip "build debug" "--no-debug"
fi

# ThreadSanitizer leg: only the suites labelled "threads" (the thread pool with 1..8 workers, chunk
# streaming on worker threads), built by the tsan preset's target voxnav_thread_suites.
tsan_test() {
  TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1} \
    ctest --test-dir "$(build_dir tsan)" -L threads --output-on-failure --no-tests=error \
    --timeout 1800 --parallel "$VOXNAV_JOBS"
}
if ((run_tsan)); then
  if step "build tsan" build_preset tsan voxnav_thread_suites; then
    step "ctest tsan (threads)" tsan_test
  else
    skip "ctest tsan (threads)" "build failed"
  fi
else
  skip "build tsan" "--no-tsan"
fi

# libFuzzer harnesses (fuzz/): regression inputs, then a short run of each target. Also the
# clang + libc++ build of the core.
if ((run_fuzz)); then
  step "fuzz" limit 1200 bash scripts/fuzz.sh "${VOXNAV_FUZZ_SECONDS:-60}"
else
  skip "fuzz" "--no-fuzz"
fi

echo
echo "================ voxnav test summary ================"
for i in "${!names[@]}"; do
  printf '  %-26s %6s s  %s\n' "${names[$i]}" "${times[$i]}" "${results[$i]}"
done
echo "  total: $((SECONDS - total_start)) s"
if ((failed)); then
  echo "RESULT: FAILED"
  exit 1
fi
echo "RESULT: all passed"
