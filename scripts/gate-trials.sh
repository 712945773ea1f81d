#!/usr/bin/env bash
# Measure the nightly gates themselves (issue 16), replayably: T trials of
# one kind, each a full A/B sitting (scripts/nightly-ab.sh) judged by
# `skinbench compare --ab`, appended as one line each to OUT/trials.tsv:
#   aa          both sides the same build: any regression is a false alarm
#   inject:P    side B with SKB_INJECT_SLOWDOWN=M:P, M rotating through
#               --methods: detected when compare names M as a regression
# and, per trial of an injected kind, the instruction-count gate on the
# same injection (one callgrind count of B against a count of A, made once
# per method: the counts are deterministic).
# Usage: scripts/gate-trials.sh --kind aa|inject:P --trials T --out DIR
#          [--bin SKINBENCH] [--methods m1,m2,...] [--icount] [--first N]
# --first N numbers the trials from N (several kinds interleaved in one
# loop, trial by trial, see the same hours of machine load).
# Summarise with scripts/gate-summary.sh DIR (writes DIR/gate-validation.json).
set -u
cd "$(dirname "$0")/.."
kind=; trials=20; out=; bin=./skinbench; methods=dlb,linear,qb,sb,dib; icount=0; first=1
while [ $# -gt 0 ]; do
  case "$1" in
    --kind) kind=$2; shift ;;
    --trials) trials=$2; shift ;;
    --out) out=$2; shift ;;
    --bin) bin=$2; shift ;;
    --methods) methods=$2; shift ;;
    --icount) icount=1 ;;
    --first) first=$2; shift ;;
    *) echo "gate-trials: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
case "$kind" in aa) pct= ;; inject:[0-9]*) pct=${kind#inject:} ;;
  *) echo "gate-trials: --kind aa or inject:PERCENT" >&2; exit 2 ;; esac
case "$trials" in ''|*[!0-9]*) echo "gate-trials: --trials: expected a positive integer" >&2; exit 2 ;; esac
[ -n "$out" ] || { echo "gate-trials: need --out DIR" >&2; exit 2; }
mkdir -p -- "$out" || exit 2
# one frozen copy of the build: both sides run the same bytes
[ -x "$out/skinbench.bin" ] || cp -- "$bin" "$out/skinbench.bin" || exit 2
exe=$out/skinbench.bin
IFS=, read -r -a mlist <<< "$methods"
[ -f "$out/trials.tsv" ] || printf 'kind\tpercent\tmethod\ttrial\texit\tdetected\tany_regression\tflagged\tseconds\n' > "$out/trials.tsv"

icount_check() {   # icount_check METHOD: 1 when the icount gate flags METHOD's kernels at pct
  local m=$1 d=$out/icount
  mkdir -p "$d"
  [ -f "$d/a/icount.json" ] || "$exe" run icount --quick --quiet --out "$d/a" || return 2
  [ -f "$d/$m-$pct/icount.json" ] || SKB_INJECT_SLOWDOWN="$m:$pct" "$exe" run icount --quick --quiet \
      --out "$d/$m-$pct" || return 2
  python3 - "$d/a/icount.json" "$d/$m-$pct/icount.json" "$m" <<'EOF'
import json, sys
a = json.load(open(sys.argv[1]))["kernels"]; b = json.load(open(sys.argv[2]))["kernels"]; m = sys.argv[3]
grp = lambda n: n.split("/")[1].split("@")[0].split("+")[0]
flag = {k for k in a if k in b and b[k] > a[k] * 1.005}
own = {k for k in a if k.split("/")[0] in ("double", "f32") and grp(k) == m}
print(1 if flag and flag <= own and own <= flag else 0)
EOF
}

for t in $(seq "$first" $((first + trials - 1))); do
  m=-; benv=()
  if [ -n "$pct" ]; then
    m=${mlist[$(( (t - 1) % ${#mlist[@]} ))]}
    benv=(--b-env "SKB_INJECT_SLOWDOWN=$m:$pct")
  fi
  d=$out/$kind-$t
  d=${d//:/-}
  t0=$(date +%s)
  bash scripts/nightly-ab.sh --a "$exe" --b "$exe" --out "$d" ${benv[@]+"${benv[@]}"} > /dev/null || {
    echo "gate-trials: trial $t: sitting failed" >&2; continue; }
  "$exe" compare "$d/round-1/a" "$d/round-1/b" --ab "$d" --summary "$d/compare.json" > "$d/compare.txt"
  rc=$?
  secs=$(( $(date +%s) - t0 ))
  read -r det anyreg flagged < <(python3 - "$d/compare.json" "$m" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1])); m = sys.argv[2]
rows = s.get("ab", {}).get("per_method", [])
flag = [r["group"] for r in rows if r["verdict"] == "REGRESSION"]
print(int(m in flag), int(len(s.get("regressions", [])) > 0), ",".join(flag) or "-")
EOF
)
  printf '%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%d\n' "$kind" "${pct:-0}" "$m" "$t" "$rc" "$det" "$anyreg" "$flagged" \
    "$secs" >> "$out/trials.tsv"
  echo "gate-trials: $kind trial $t ($m): exit $rc, detected $det, flagged $flagged, ${secs}s"
  if [ "$icount" = 1 ] && [ -n "$pct" ]; then
    printf 'icount\t%s\t%s\t%d\t-\t%s\t-\t-\t-\n' "$pct" "$m" "$t" "$(icount_check "$m")" >> "$out/trials.tsv"
  fi
done
