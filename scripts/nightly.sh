#!/usr/bin/env bash
# Nightly regression run, three gates that can decide on a shared
# 2-core VM:
#  1. the exact gates of compare (property verdicts, FLOP fits, shader
#     counts, "verified") and instruction counts per kernel (run icount:
#     callgrind, deterministic, tolerance 0.5 %);
#  2. timing as a paired A/B sitting (scripts/nightly-ab.sh): the baseline's
#     own binary (BASELINE/bin/skinbench, saved when the baseline is made)
#     and this build timed alternately in the same minutes, judged per method
#     by compare --ab (CI of the ratio; inconclusive, never pass, when it
#     cannot exclude a 10 % slow-down);
#  3. without a baseline binary (an old baseline), the unpaired U test with
#     a confirming re-run, as before (mostly inconclusive: see README).
# Every nightly's results stay in results/history/STAMP (STAMP sorts by
# time); the report shows their trends and the first night of each step.
# Exit: compare's, 0 pass, 1 regression, 2 unreadable input (also: the
# baseline's binary could not be saved beside an updated baseline), 3
# inconclusive (also: no baseline to compare with).
# The baseline is created or replaced only with --update-baseline
# (make nightly UPDATE_BASELINE=1).
# Usage: scripts/nightly.sh [--update-baseline] [--baseline DIR] [--out DIR]
#          [--history DIR] [--validation FILE] [--exe BIN] [--quick]
# --quick runs the suite with --quick (a smoke test of this script, tests/nightly.sh;
# not a nightly); SKB_AB_ROUNDS/SKB_AB_REPS reach nightly-ab.sh.
set -u
cd "$(dirname "$0")/.."
exe=./skinbench
base=results/baseline
hist=results/history
out=
# the gate's measured figures: a fresh scripts/gate-summary.sh output in
# results/, else the one measured for the repository (validation/)
validation=results/gate-validation.json
[ -f "$validation" ] || validation=validation/gate-validation.json
update=()
quick=()
while [ $# -gt 0 ]; do
  case "$1" in
    --update-baseline) update=(--update-baseline) ;;
    --baseline) base=$2; shift ;;
    --out) out=$2; shift ;;
    --history) hist=$2; shift ;;
    --validation) validation=$2; shift ;;
    --exe) exe=$2; shift ;;
    --quick) quick=(--quick) ;;
    *) echo "nightly: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$out" ] || out=$hist/$(date -u +%Y-%m-%dT%H%MZ)
t0=$(date +%s)
rm -rf -- "$out/rerun" "$out/ab"
echo "nightly: running the suite into $out"
"$exe" run all ${quick[@]+"${quick[@]}"} --out "$out" || echo "nightly: some experiments failed (compare will name what is missing)"
abopt=()
if [ -x "$base/bin/skinbench" ]; then
  echo "nightly: A/B sitting, baseline binary $base/bin/skinbench against $exe"
  if bash scripts/nightly-ab.sh --a "$base/bin/skinbench" --b "$exe" --out "$out/ab"; then
    abopt=(--ab "$out/ab")
  else
    echo "nightly: the A/B sitting failed; timing falls back to the unpaired test"
  fi
fi
"$exe" report --results "$out" --history "$hist" --out "$out" || true
if [ ! -e "$base" ] && [ ${#update[@]} -eq 0 ]; then
  echo "nightly: no baseline at $base: nothing compared, inconclusive (exit 3); create it with: make nightly UPDATE_BASELINE=1"
  exit 3
fi
valopt=()
[ -f "$validation" ] && valopt=(--validation "$validation")
rc=0
summary="$out/compare.json"
first=1
if [ -e "$base" ]; then
  first=0
  "$exe" compare "$base" "$out" ${abopt[@]+"${abopt[@]}"} ${valopt[@]+"${valopt[@]}"}
  rc=$?
  if [ ${#abopt[@]} -eq 0 ] && [ -f "$out/compare.json" ] \
     && grep -q '"timing_unconfirmed":[[:space:]]*[1-9]' "$out/compare.json"; then
    echo "nightly: unconfirmed timing changes; confirming re-run of the cpu experiment into $out/rerun"
    "$exe" run cpu --out "$out/rerun" && { "$exe" compare "$base" "$out" ${valopt[@]+"${valopt[@]}"}; rc=$?; }
  fi
fi
# the baseline moves only when asked, after the comparison has been
# reported, and only when compare accepted the run (exit 0: compare never
# installs an unverified, failed or injected run); it keeps the binary that
# made it, for the next nights' A/B.  A refused update leaves both alone.
binfail=0
if [ ${#update[@]} -gt 0 ]; then
  if [ $first -eq 1 ] || [ $rc -eq 0 ]; then
    "$exe" compare "$base" "$out" --update-baseline ${abopt[@]+"${abopt[@]}"} --summary "$out/compare-update.json"
    urc=$?
  else
    urc=$rc
  fi
  if [ $urc -eq 0 ]; then
    if mkdir -p "$base/bin" && cp -- "$exe" "$base/bin/skinbench.tmp" && mv -- "$base/bin/skinbench.tmp" "$base/bin/skinbench"; then
      echo "nightly: baseline $base now holds $out and its binary"
    else
      # the old binary did not make this baseline: an A/B against it would
      # time the wrong pair, so it goes, and the next nights use the U test
      rm -f -- "$base/bin/skinbench.tmp" "$base/bin/skinbench"
      echo "nightly: baseline $base now holds $out, but not its binary: copying $exe into $base/bin failed; the next nights judge timing without the paired A/B" >&2
      binfail=1
    fi
  else
    echo "nightly: baseline $base not updated (compare exit $urc); its binary is unchanged"
  fi
  if [ $first -eq 1 ]; then
    rc=$urc
    summary=
  fi
  [ $binfail -eq 0 ] || rc=2
fi
case $rc in 0) v=pass ;; 1) v=regression ;; 3) v="inconclusive (see compare's INCONCLUSIVE lines)" ;; *) v=error ;; esac
if [ -n "$summary" ] && [ -f "$summary" ]; then
  what="comparison $summary"
elif [ $first -eq 1 ]; then
  what="first night, no comparison (baseline created from $out)"
else
  what="comparison (no summary written)"
fi
echo "nightly: report $out/report.html; $what: $v (exit $rc); $(( $(date +%s) - t0 )) s"
exit $rc
