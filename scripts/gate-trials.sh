#!/usr/bin/env bash
# Measure the nightly gate itself, replayably: T trials of one
# kind, each judged as scripts/nightly.sh judges a night — `skinbench compare`
# with the instruction counts of both builds (icount.json) and a full A/B
# sitting (scripts/nightly-ab.sh, --ab) — one line each in OUT/trials.tsv:
#   aa          both sides the same build: any regression is a false alarm
#   inject:P    side B with SKB_INJECT_SLOWDOWN=M:P, M rotating through
#               --methods: detected when compare names M's kernels
# Columns: detected (either gate), timing_detected (the A/B gate alone),
# icount_detected (the instruction-count gate alone), any_regression, and
# the methods the A/B gate flagged.  The counts are made once per method
# and percent (callgrind, deterministic) and reused.
# Usage: scripts/gate-trials.sh --kind aa|inject:P --trials T --out DIR
#          [--bin SKINBENCH] [--methods m1,m2,...] [--first N]
# --first N numbers the trials from N (several kinds interleaved in one
# loop, trial by trial, see the same hours of machine load).
# Summarise with scripts/gate-summary.sh DIR (writes DIR/gate-validation.json).
set -u
cd "$(dirname "$0")/.."
kind=; trials=20; out=; bin=./skinbench; methods=dlb,linear,qb,sb,dib; first=1
while [ $# -gt 0 ]; do
  case "$1" in
    --kind) kind=$2; shift ;;
    --trials) trials=$2; shift ;;
    --out) out=$2; shift ;;
    --bin) bin=$2; shift ;;
    --methods) methods=$2; shift ;;
    --first) first=$2; shift ;;
    --icount) ;;   # always on (kept for old command lines)
    *) echo "gate-trials: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
case "$kind" in aa) pct= ;; inject:[0-9]*) pct=${kind#inject:} ;;
  *) echo "gate-trials: --kind aa or inject:PERCENT" >&2; exit 2 ;; esac
case "$trials$first" in *[!0-9]*) echo "gate-trials: --trials/--first: expected positive integers" >&2; exit 2 ;; esac
[ -n "$out" ] || { echo "gate-trials: need --out DIR" >&2; exit 2; }
mkdir -p -- "$out" || exit 2
# one frozen copy of the build: both sides run the same bytes
[ -x "$out/skinbench.bin" ] || cp -- "$bin" "$out/skinbench.bin" || exit 2
exe=$out/skinbench.bin
IFS=, read -r -a mlist <<< "$methods"
[ -f "$out/trials.tsv" ] || printf 'kind\tpercent\tmethod\ttrial\texit\tdetected\ttiming_detected\ticount_detected\tany_regression\tflagged\tseconds\n' > "$out/trials.tsv"

counts() {   # counts NAME [ENV]: icount.json of the build (with ENV) in OUT/icount/NAME, once
  local d=$out/icount/$1
  [ -f "$d/icount.json" ] && return 0
  env ${2:+"$2"} "$exe" run icount --quick --quiet --out "$d"
}

for t in $(seq "$first" $((first + trials - 1))); do
  m=-; benv=(); bcount=a
  if [ -n "$pct" ]; then
    m=${mlist[$(( (t - 1) % ${#mlist[@]} ))]}
    benv=(--b-env "SKB_INJECT_SLOWDOWN=$m:$pct")
    bcount=$m-$pct
  fi
  d=$out/$kind-$t
  d=${d//:/-}
  t0=$(date +%s)
  counts a || { echo "gate-trials: icount failed" >&2; exit 1; }
  [ "$bcount" = a ] || counts "$bcount" "SKB_INJECT_SLOWDOWN=$m:$pct" || { echo "gate-trials: icount failed" >&2; exit 1; }
  bash scripts/nightly-ab.sh --a "$exe" --b "$exe" --out "$d" ${benv[@]+"${benv[@]}"} > /dev/null || {
    echo "gate-trials: trial $t: sitting failed" >&2; continue; }
  cp "$out/icount/a/icount.json" "$d/round-1/a/"
  cp "$out/icount/$bcount/icount.json" "$d/round-1/b/"
  "$exe" compare "$d/round-1/a" "$d/round-1/b" --ab "$d" --summary "$d/compare.json" > "$d/compare.txt"
  rc=$?
  secs=$(( $(date +%s) - t0 ))
  read -r det tdet idet anyreg flagged < <(python3 - "$d/compare.json" "$m" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); m = sys.argv[2]
grp = lambda n: n.split("/")[1].split("@")[0].split("+")[0]
flag = [r["group"] for r in s.get("ab", {}).get("per_method", []) if r["verdict"] == "REGRESSION"]
ic = {grp(r["benchmark"]) for r in s.get("icount", []) if r["verdict"] == "REGRESSION"}
t, i = int(m in flag), int(m in ic)
print(int(t or i), t, i, int(len(s.get("regressions", [])) > 0), ",".join(flag + ["icount:" + x for x in sorted(ic)]) or "-")
PY
)
  printf '%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%d\n' "$kind" "${pct:-0}" "$m" "$t" "$rc" "$det" "$tdet" "$idet" \
    "$anyreg" "$flagged" "$secs" >> "$out/trials.tsv"
  echo "gate-trials: $kind trial $t ($m): exit $rc, detected $det (timing $tdet, icount $idet), flagged $flagged, ${secs}s"
done
