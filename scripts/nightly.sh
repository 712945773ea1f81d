#!/usr/bin/env bash
# Nightly regression run against this machine's baseline in the results
# store (docs/report-and-regression.md "Nightly regression"):
#  1. the suite into a new run folder (results/nights/STAMP): `run` writes
#     its manifest last, so only a finished run can enter the store;
#  2. the exact gates of compare, and instructions per kernel (run icount:
#     callgrind, deterministic, tolerance 0.5 %);
#  3. timing as a paired A/B sitting (scripts/nightly-ab.sh) of the
#     baseline's own binary, kept in the store with the baseline, against
#     this build; without one, the unpaired U test with a confirming re-run;
#  4. the night stored (when complete), and the baseline replaced only with
#     --update-baseline when compare passed (or none exists yet): one
#     transaction, so a killed night leaves the old baseline whole;
#  5. the report with the history of every stored night (history.html);
#  6. on a regression, skinbench bisect between the baseline's revision and
#     this build's, for each regressing method (at most 4), the commit named
#     in the summary line.
# The first night: results/baseline and results/history folders of the
# nightly before the store are imported once (store import) when the store
# does not exist yet.
# Exit: compare's, 0 pass, 1 regression, 2 unreadable input, 3 inconclusive
# (also: no baseline for this machine yet, without --update-baseline); the
# same code in the night's folder, file gate-exit.  `make nightly` cannot
# pass it on: GNU make exits 2 whenever a recipe fails, whatever its code
# (make manual, "How to Run make") -- for cron and CI run this script with
# --build (deps and the build first, as make nightly does).
# Usage: scripts/nightly.sh [--build] [--update-baseline] [--store FILE] [--out DIR]
#          [--validation FILE] [--exe BIN] [--quick] [--no-bisect]
#          [--import-baseline DIR] [--import-history DIR]
# --quick runs the suite with --quick (a smoke test of this script, tests/nightly.sh;
# not a nightly); SKB_AB_ROUNDS/SKB_AB_REPS reach nightly-ab.sh.
set -u
cd "$(dirname "$0")/.."
exe=./skinbench
store=results/skinbench.sqlite
out=
old_base=results/baseline
old_hist=results/history
bisect=1
# the gate's measured figures: a fresh scripts/gate-summary.sh output in
# results/, else the one measured for the repository (validation/)
validation=results/gate-validation.json
[ -f "$validation" ] || validation=validation/gate-validation.json
update=0
build=0
quick=()
while [ $# -gt 0 ]; do
  case "$1" in
    --update-baseline) update=1 ;;
    --build) build=1 ;;
    --store) store=$2; shift ;;
    --out) out=$2; shift ;;
    --validation) validation=$2; shift ;;
    --exe) exe=$2; shift ;;
    --quick) quick=(--quick) ;;
    --no-bisect) bisect=0 ;;
    --import-baseline) old_base=$2; shift ;;
    --import-history) old_hist=$2; shift ;;
    *) echo "nightly: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ $build -eq 1 ]; then
  make --no-print-directory deps skinbench || { echo "nightly: make deps skinbench failed (above)" >&2; exit 2; }
fi
[ -n "$out" ] || out=results/nights/$(date -u +%Y-%m-%dT%H%MZ)
t0=$(date +%s)
scratch=$(mktemp -d) || exit 2
trap 'rm -rf -- "$scratch"' EXIT

# the folders of the nightly before the store, once
if [ ! -e "$store" ] && { [ -d "$old_base" ] || [ -d "$old_hist" ]; }; then
  imp=()
  [ -d "$old_base" ] && imp+=(--baseline "$old_base")
  [ -d "$old_hist" ] && imp+=(--history "$old_hist")
  echo "nightly: importing the old folders into $store (once): ${imp[*]}"
  "$exe" store import --store "$store" "${imp[@]}" || echo "nightly: the import failed (above); the store starts without them"
fi

rm -rf -- "$out/rerun" "$out/ab"
echo "nightly: running the suite into $out"
"$exe" run all ${quick[@]+"${quick[@]}"} --out "$out" || echo "nightly: some experiments failed (compare names what is missing; an incomplete run never enters the store)"

# this machine's baseline: its run, and its binary for the A/B sitting
have_base=0
if [ -e "$store" ] && "$exe" store baseline --store "$store" --for "$out" --export "$scratch/base" > /dev/null 2> "$scratch/base.err"; then
  have_base=1
fi
abopt=()
if [ $have_base -eq 1 ] && "$exe" store baseline --store "$store" --for "$out" --export-binary "$scratch/base-skinbench" > /dev/null 2>&1; then
  echo "nightly: A/B sitting, the baseline's binary (from $store) against $exe"
  if bash scripts/nightly-ab.sh --a "$scratch/base-skinbench" --b "$exe" --out "$out/ab"; then
    abopt=(--ab "$out/ab")
  else
    echo "nightly: the A/B sitting failed; timing falls back to the unpaired test"
  fi
fi

valopt=()
[ -f "$validation" ] && valopt=(--validation "$validation")
rc=3
if [ $have_base -eq 1 ]; then
  "$exe" compare --store "$store" "$out" ${abopt[@]+"${abopt[@]}"} ${valopt[@]+"${valopt[@]}"}
  rc=$?
  if [ ${#abopt[@]} -eq 0 ] && [ -f "$out/compare.json" ] \
     && grep -q '"timing_unconfirmed":[[:space:]]*[1-9]' "$out/compare.json"; then
    echo "nightly: unconfirmed timing changes; confirming re-run of the cpu experiment into $out/rerun"
    "$exe" run cpu --out "$out/rerun" && { "$exe" compare --store "$store" "$out" ${valopt[@]+"${valopt[@]}"}; rc=$?; }
  fi
else
  echo "nightly: no baseline for this machine in $store: nothing compared (inconclusive); make one with: make nightly UPDATE_BASELINE=1"
fi

# the night into the store (its history), and the baseline moved only when
# asked and compare passed (or there was none): one transaction each
addopt=()
if [ $update -eq 1 ] && { [ $have_base -eq 0 ] || [ $rc -eq 0 ]; }; then
  addopt=(--baseline --binary "$exe")
fi
if "$exe" store add --store "$store" "$out" ${addopt[@]+"${addopt[@]}"}; then
  if [ ${#addopt[@]} -gt 0 ]; then
    echo "nightly: $out and its binary are now this machine's baseline in $store"
    [ $have_base -eq 0 ] && rc=0
  fi
else
  echo "nightly: $out not stored (above); the baseline is unchanged"
  [ ${#addopt[@]} -gt 0 ] && [ $have_base -eq 0 ] && rc=2
fi
[ $update -eq 1 ] && [ ${#addopt[@]} -eq 0 ] && echo "nightly: baseline not replaced (compare exit $rc)"

"$exe" report --results "$out" --history "$store" --out "$out" > /dev/null || echo "nightly: the report failed (above)"

# a regression: the commit that made it, for each regressing method
found=
if [ $rc -eq 1 ] && [ $bisect -eq 1 ] && [ -f "$out/compare.json" ] && git rev-parse --git-dir > /dev/null 2>&1; then
  bopt=()
  [ -x "$scratch/base-skinbench" ] && bopt=(--good-binary "$scratch/base-skinbench")
  echo "nightly: bisecting the regression between the baseline's revision and this build's"
  "$exe" bisect "$scratch/base" "$out" --from-compare "$out/compare.json" --seed-build build \
    --summary "$out/bisect.json" ${bopt[@]+"${bopt[@]}"} | tee "$scratch/bisect.out"
  found=$(grep -m1 'first moved at' "$scratch/bisect.out" | sed 's/^bisect: //')
fi

case $rc in 0) v=pass ;; 1) v=regression ;; 3) v="inconclusive (see compare's INCONCLUSIVE lines)" ;; *) v=error ;; esac
# name only what this night wrote
made=
for f in report.html history.html compare.json; do [ -f "$out/$f" ] && made="$made $out/$f"; done
echo "nightly:${made:- no report}; $v (exit $rc)${found:+; $found}; $(( $(date +%s) - t0 )) s"
# the gate's code beside the night, for whoever ran make nightly (which can
# only exit 2): written whole or not at all
# (never over a link, FIFO or device; the temporary file is a fresh mktemp)
if [ -d "$out" ] && { [ ! -e "$out/gate-exit" ] && [ ! -L "$out/gate-exit" ] \
                      || { [ -f "$out/gate-exit" ] && [ ! -L "$out/gate-exit" ]; }; }; then
  ge=$(mktemp "$out/.gate-exit.XXXXXX") && echo "$rc" > "$ge" && mv -f "$ge" "$out/gate-exit"
fi
exit $rc
