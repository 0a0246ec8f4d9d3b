#!/usr/bin/env bash
# Installs what voxnav needs on Debian 12, and only what is missing (safe to run again and again).
#
#   scripts/install-deps.sh              build + test tools (native, wasm, node)
#   scripts/install-deps.sh --chromium   also Debian's Chromium, for the browser tests
#   scripts/install-deps.sh --native     only what the native build and its tests need (test.sh
#                                        installs the rest in the background while that builds)
#
# When everything is already present it does not touch apt at all. Uses sudo only when not root.
set -euo pipefail

want_chromium=0 native_only=0
for arg in "$@"; do
  case $arg in
    --chromium) want_chromium=1 ;;
    --native) native_only=1 ;;
    -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "install-deps.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

packages=(cmake g++ make zlib1g-dev nlohmann-json3-dev libglm-dev googletest libbenchmark-dev
  python3)
if ((!native_only)); then
  packages+=(emscripten binaryen nodejs npm clang-14 libc++-14-dev libc++abi-14-dev
    libclang-rt-14-dev)  # libclang-rt: the libFuzzer and sanitizer runtimes of the fuzz preset
  ((want_chromium)) && packages+=(chromium)
fi

installed() { [[ $(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null) == installed ]]; }

missing=()
for p in "${packages[@]}"; do
  case $p in
    # Node may come from another repository whose nodejs package bundles npm (and conflicts with
    # Debian's npm package): accept whatever node/npm is already on PATH.
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
    chromium) command -v chromium >/dev/null 2>&1 && continue ;;
  esac
  installed "$p" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: everything is installed"
  exit 0
fi

command -v apt-get >/dev/null 2>&1 ||
  { echo "install-deps: missing ${missing[*]} and no apt-get (this script targets Debian 12)" >&2; exit 1; }
sudo=()
if [[ $(id -u) != 0 ]]; then
  command -v sudo >/dev/null 2>&1 ||
    { echo "install-deps: missing ${missing[*]}; run as root or install sudo" >&2; exit 1; }
  sudo=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
"${apt[@]}" update -q
"${apt[@]}" install -y -q --no-install-recommends "${missing[@]}"
