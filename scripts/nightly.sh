#!/usr/bin/env bash
# Nightly regression run: the whole suite into results/nightly-DATE, its
# report, then `skinbench compare results/baseline results/nightly-DATE`.
# A timing change is only a regression when a confirming re-run agrees: when
# compare reports unconfirmed timing candidates, this script re-runs the cpu
# experiment into results/nightly-DATE/rerun and compares again (compare
# reads rerun/cpu-gbench.json).  The exit status is compare's: 0 pass,
# 1 regression, 2 unreadable input, 3 inconclusive (timing gate powerless
# for the repetitions given, or changes still unconfirmed: never a pass).
# The baseline is created or replaced only
# with --update-baseline (make nightly UPDATE_BASELINE=1).
# Usage: scripts/nightly.sh [--update-baseline] [--baseline DIR] [--out DIR]
set -u
cd "$(dirname "$0")/.."
exe=./skinbench
base=results/baseline
out=results/nightly-$(date -u +%Y-%m-%d)
update=()
while [ $# -gt 0 ]; do
  case "$1" in
    --update-baseline) update=(--update-baseline) ;;
    --baseline) base=$2; shift ;;
    --out) out=$2; shift ;;
    *) echo "nightly: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
rm -rf "$out/rerun"
echo "nightly: running the suite into $out"
"$exe" run all --out "$out" || echo "nightly: some experiments failed (compare will name what is missing)"
"$exe" report --results "$out" --out "$out" || true
if [ ! -e "$base" ] && [ ${#update[@]} -eq 0 ]; then
  echo "nightly: no baseline at $base; nothing compared (create it with: make nightly UPDATE_BASELINE=1)"
  exit 0
fi
rc=0
if [ -e "$base" ]; then
  "$exe" compare "$base" "$out"
  rc=$?
  if [ -f "$out/compare.json" ] && grep -q '"timing_unconfirmed":[[:space:]]*[1-9]' "$out/compare.json"; then
    echo "nightly: unconfirmed timing changes; confirming re-run of the cpu experiment into $out/rerun"
    "$exe" run cpu --out "$out/rerun" && { "$exe" compare "$base" "$out"; rc=$?; }
  fi
fi
# the baseline moves only when asked, after the comparison has been reported
if [ ${#update[@]} -gt 0 ]; then
  "$exe" compare "$base" "$out" --update-baseline --summary "$out/compare-update.json" > /dev/null || true
  echo "nightly: baseline $base now holds $out"
fi
case $rc in 0) v=pass ;; 1) v=regression ;; 3) v="inconclusive (see compare's INCONCLUSIVE lines)" ;; *) v=error ;; esac
echo "nightly: report $out/report.html; comparison $out/compare.json: $v (exit $rc)"
exit $rc
