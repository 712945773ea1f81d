#!/usr/bin/env bash
# The nightly timing gate's validation (docs/report-and-regression.md), replayable: N rounds of (A/A, 10 % injected,
# 5 % injected) sittings interleaved trial by trial so every kind sees the
# same hours of load, the injected method rotating through dlb, linear, qb,
# sb, dib; the instruction-count gate judged on the same injections.
# Usage: scripts/gate-trials-all.sh OUT [N=20] [BIN=./skinbench]
# Then: scripts/gate-summary.sh OUT (writes OUT/gate-validation.json).
set -u
cd "$(dirname "$0")/.."
out=${1:?usage: gate-trials-all.sh OUT [N] [BIN]}; n=${2:-20}; bin=${3:-./skinbench}
for t in $(seq 1 "$n"); do
  for kind in aa inject:10 inject:5; do
    bash scripts/gate-trials.sh --kind "$kind" --trials 1 --first "$t" --out "$out" --bin "$bin"
  done
done
