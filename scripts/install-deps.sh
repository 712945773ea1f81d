#!/usr/bin/env bash
# Install the Debian packages skinbench needs, only those that are missing.
# Usage: scripts/install-deps.sh [--optional]   (--optional adds oracles/peers: eigen, glm, fcl, glslang, chromium)
# Does nothing (and needs no root) when everything is already installed.
set -euo pipefail

required=(build-essential pkg-config libgsl-dev libcjson-dev libbenchmark-dev libglew-dev libegl-dev
  libgl-dev libopengl-dev libegl-mesa0 libgl1-mesa-dri libassimp-dev assimp-testmodels libcmocka-dev
  gnuplot-nox valgrind libpng-dev libsuitesparse-dev libsqlite3-dev libssl-dev git strace)
optional=(libeigen3-dev libglm-dev libfcl-dev glslang-tools spirv-tools clang-14 libclang-rt-14-dev
  chromium fonts-dejavu-core)

want=("${required[@]}")
if [ "${1:-}" = "--optional" ] || [ "${SKB_OPTIONAL_DEPS:-1}" = "1" ]; then
  want+=("${optional[@]}")
fi

missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#want[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-deps: missing packages (${missing[*]}) and not root; run as root or install them" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
# another apt (unattended-upgrades, a second CI job) may hold the dpkg lock:
# wait for it, bounded, instead of failing at once (apt's exit 100)
lock_wait=${SKB_APT_LOCK_TIMEOUT:-600}
echo "install-deps: waiting up to ${lock_wait} s for the dpkg lock if another apt holds it (SKB_APT_LOCK_TIMEOUT)"
$SUDO apt-get -o DPkg::Lock::Timeout="$lock_wait" update -qq
$SUDO apt-get -o DPkg::Lock::Timeout="$lock_wait" install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
