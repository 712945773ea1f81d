#!/usr/bin/env bash
# One A/B sitting: the baseline build (A) and the current build (B)
# timed alternately on the same kernels in the same minutes, so the load of
# the shared machine falls on both and the per-round ratio B/A cancels it.
# Round K runs A then B (odd K) or B then A (even K: drift within a round
# cancels too), each `run cpu --datasets L --repetitions N` into
# OUT/round-K/{a,b}.  `skinbench compare BASE CUR --ab OUT` judges the rounds.
# Usage: scripts/nightly-ab.sh --a BIN --b BIN --out DIR [--rounds R]
#          [--reps N] [--datasets L] [--full] [--b-env NAME=VALUE]
# Defaults: 20 rounds, the cloth dataset (6000 v / 49 joints, every method's
# double and f32 kernels: the small set), 7 repetitions of --quick's 2 ms
# each (a launch costs ~0.4 s of CPU; the sitting ~40 launches); --full
# times 40 ms repetitions instead.  20 rounds, not 12: in 60 interleaved
# trials each (validation/, README) 12 rounds left 7 of 20 A/A sittings
# inconclusive and named 15 of 20 10 % slow-downs by timing alone; 20
# rounds, at similar load, 1 of 20 and 19 of 20, for ~12 s more.
# --b-env sets one environment variable for B only (the gate trials inject
# a slow-down with SKB_INJECT_SLOWDOWN=METHOD:PERCENT); it reaches `env` as
# one argument, never a shell.
set -u
a_bin=; b_bin=; out=; rounds=${SKB_AB_ROUNDS:-20}; reps=${SKB_AB_REPS:-7}
datasets=${SKB_AB_DATASETS:-cloth}; b_env=(); quick=(--quick)
while [ $# -gt 0 ]; do
  case "$1" in
    --a) a_bin=$2; shift ;;
    --b) b_bin=$2; shift ;;
    --out) out=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --reps) reps=$2; shift ;;
    --datasets) datasets=$2; shift ;;
    --b-env) b_env=("$2"); shift ;;
    --full) quick=() ;;
    *) echo "nightly-ab: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$a_bin" ] || [ -z "$b_bin" ] || [ -z "$out" ]; then
  echo "nightly-ab: need --a BIN --b BIN --out DIR" >&2; exit 2
fi
case "$rounds" in ''|*[!0-9]*) echo "nightly-ab: --rounds '$rounds': expected a positive integer" >&2; exit 2 ;; esac
[ "$rounds" -ge 1 ] || { echo "nightly-ab: --rounds must be at least 1" >&2; exit 2; }
for b in "$a_bin" "$b_bin"; do
  [ -x "$b" ] || { echo "nightly-ab: $b: not an executable" >&2; exit 2; }
done
rm -rf -- "$out"
mkdir -p -- "$out" || exit 2

side() {   # side NAME K: one timed run of build NAME (a or b) in round K
  local bin=$a_bin envs=()
  if [ "$1" = b ]; then bin=$b_bin; envs=("${b_env[@]}"); fi
  env ${envs[@]+"${envs[@]}"} "$bin" run cpu ${quick[@]+"${quick[@]}"} --quiet --datasets "$datasets" --repetitions "$reps" \
    --out "$out/round-$2/$1"
}

for k in $(seq 1 "$rounds"); do
  if [ $((k % 2)) -eq 1 ]; then order="a b"; else order="b a"; fi
  for s in $order; do
    side "$s" "$k" || { echo "nightly-ab: round $k, build $s failed" >&2; exit 1; }
  done
done
echo "nightly-ab: $rounds rounds of $datasets x $reps repetitions in $out"
