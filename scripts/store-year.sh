#!/usr/bin/env bash
# A year of nights in the results store, measured (issue 36's acceptance;
# tests/history.sh runs the same at 40 nights): 365 nights on each of 3
# machine keys made by tests/lib/mkyear.py — about a thousand timed
# benchmarks and three hundred counted kernels a night, as the full suite
# writes; noise as a shared VM gives it; planted steps in instructions and
# in time — each stored by `skinbench store add` as a nightly would, then
# `skinbench report --history`.  Prints, and writes to OUT/year.json: the
# time to store them, the store's size, the time of report --history, and
# whether the steps found are exactly the planted ones.
# Usage: scripts/store-year.sh [--exe BIN] [--out DIR] [--nights N] [--keep]
set -u
cd "$(dirname "$0")/.."
exe=./skinbench; out=; nights=365; keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --exe) exe=$2; shift ;;
    --out) out=$2; shift ;;
    --nights) nights=$2; shift ;;
    --keep) keep=1 ;;
    *) echo "store-year: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$out" ] || out=$(mktemp -d)
mkdir -p "$out" || exit 2
methods=linear,dlb,qb,sb,dib,logm,qlb0,sclerp,cor,ddm,blend_lbs_dqs,dlb_scale
echo "store-year: generating $nights nights x 3 machines into $out/nights"
s=$(date +%s.%N)
python3 tests/lib/mkyear.py "$out/nights" --nights "$nights" --variants 7 \
  --datasets cloth,arm,bcn_human,wuson,creature,cylinder --methods "$methods" || exit 1
g=$(date +%s.%N)
echo "store-year: storing them ($(du -sh "$out/nights" | cut -f1) of run folders)"
rm -f "$out/year.sqlite"*
ls -d "$out"/nights/*/2026* "$out"/nights/*/2027* 2> /dev/null | xargs "$exe" store add --store "$out/year.sqlite" > /dev/null || exit 1
a=$(date +%s.%N)
"$exe" report --history "$out/year.sqlite" --out "$out/history" > /dev/null || exit 1
r=$(date +%s.%N)
python3 - "$out" "$s" "$g" "$a" "$r" "$nights" <<'EOF'
import csv, datetime, json, os, sys
out, s, g, a, r, nights = sys.argv[1], *map(float, sys.argv[2:6]), int(sys.argv[6])
truth = json.load(open(os.path.join(out, "nights", "truth.json")))
rows = list(csv.DictReader(open(os.path.join(out, "history", "history-steps.csv"))))
start = datetime.date(2026, 1, 1)
want = {(t["machine"], t["method"], "instructions" if t["measure"] == "icount" else "cpu_ms",
         (start + datetime.timedelta(days=t["night"])).isoformat()) for t in truth}
got = {}
for x in rows:
    got.setdefault((x["machine"], x["method"], x["measure"], x["first_night"][:10]), 0)
    got[(x["machine"], x["method"], x["measure"], x["first_night"][:10])] += 1
res = {"nights_per_machine": nights, "machines": 3, "runs": 3 * nights,
       "planted_steps": len(want), "steps_found": len(got), "step_rows": len(rows),
       "missing": sorted(map(list, want - set(got))), "unplanted": sorted(map(list, set(got) - want)),
       "kernels_per_step": sorted(set(got.values())),
       "generate_s": round(g - s, 1), "store_add_s": round(a - g, 1), "report_history_s": round(r - a, 2),
       "store_bytes": os.path.getsize(os.path.join(out, "year.sqlite")),
       "history_html_bytes": os.path.getsize(os.path.join(out, "history", "history.html"))}
json.dump(res, open(os.path.join(out, "year.json"), "w"), indent=1)
print(json.dumps(res, indent=1))
sys.exit(0 if not res["missing"] and not res["unplanted"] else 1)
EOF
rc=$?
[ $keep -eq 1 ] || rm -rf "$out/nights"
echo "store-year: $out/year.json, $out/history/history.html; $([ $rc -eq 0 ] && echo 'every planted step found, no other' || echo 'STEPS DIFFER from the planted ones')"
exit $rc
