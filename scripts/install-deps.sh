#!/usr/bin/env bash
# Install the Debian packages skinbench needs, only those that are missing.
# Usage: scripts/install-deps.sh [--tests]
#   (none)   what `make reproduce` needs: the build, every experiment and the
#            report, the peers and oracles whose rows the report shows (glm's
#            dual quaternions beside our kernels, FCL beside our collision
#            tests, glslang + SPIRV-Tools for the shader cost of DQ paper 5)
#   --tests  also what only the test suite uses (`make check`, `make fuzz`,
#            `make asan`): Eigen for the FLOP oracles, clang-14 and its
#            libFuzzer runtime, chromium and a font for the report's browser
#            checks; each test that lacks one says so and names the package
#            (SKB_OPTIONAL_DEPS=1 is the old spelling of --tests)
# One line says what is installed and why; apt's own output goes to a log
# file, shown when apt fails.  Does nothing (and needs no root) when every
# package is present.
set -euo pipefail

main=(build-essential pkg-config libgsl-dev libcjson-dev libbenchmark-dev libglew-dev libegl-dev
  libgl-dev libopengl-dev libegl-mesa0 libgl1-mesa-dri libassimp-dev assimp-testmodels libcmocka-dev
  gnuplot-nox valgrind libpng-dev libsuitesparse-dev libsqlite3-dev libssl-dev git strace
  libglm-dev libfcl-dev glslang-tools spirv-tools)
tests=(libeigen3-dev clang-14 libclang-rt-14-dev chromium fonts-dejavu-core)

want=("${main[@]}")
why="to build and run the reproduction"
if [ "${1:-}" = "--tests" ] || [ "${1:-}" = "--optional" ] || [ "${SKB_OPTIONAL_DEPS:-0}" = "1" ]; then
  want+=("${tests[@]}")
  why="to build, run the reproduction and its tests (the tests' oracles: Eigen, clang-14's fuzzer, chromium)"
elif [ -n "${1:-}" ]; then
  echo "install-deps: unknown option '$1' (usage: scripts/install-deps.sh [--tests])" >&2
  exit 2
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

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-deps: missing packages (${missing[*]}) and not root; run as root or install them" >&2
    exit 1
  fi
fi
log=$(mktemp "${TMPDIR:-/tmp}/skinbench-install-deps.XXXXXX.log")
echo "install-deps: installing ${#missing[@]} missing package(s) $why: ${missing[*]} (apt's output: $log)"
export DEBIAN_FRONTEND=noninteractive
# another apt (unattended-upgrades, a second CI job) may hold the dpkg lock:
# wait for it, bounded, instead of failing at once (apt's exit 100)
lock_wait=${SKB_APT_LOCK_TIMEOUT:-600}
if ! { $SUDO apt-get -o DPkg::Lock::Timeout="$lock_wait" update -qq \
       && $SUDO apt-get -o DPkg::Lock::Timeout="$lock_wait" install -y -qq --no-install-recommends "${missing[@]}"; \
     } > "$log" 2>&1; then
  tail -20 "$log" >&2
  echo "install-deps: apt-get failed (above; whole log $log; waited up to ${lock_wait} s for the dpkg lock," \
       "SKB_APT_LOCK_TIMEOUT)" >&2
  exit 1
fi
echo "install-deps: done"
