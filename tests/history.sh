#!/usr/bin/env bash
# Nightly history in the report: `report --history DIR` reads
# every night under DIR, names the first night of each step (instruction
# counts: exact; median times: the best split, large and clear of noise),
# and draws per-method trend plots from the second night on.  Names from
# the results reach gnuplot only as data, sanitised.
. "$(dirname "$0")/lib/preamble.sh"

mk_nights() {   # mk_nights DIR N: nights 1..N; dlb time +30 % from night 3, its instructions +8 % from night 4
  python3 - "$@" <<'EOF'
import json, os, random, sys
d, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(3)
names = ["double/dlb/cloth", "double/linear/cloth", "f32/dlb/cloth", 'double/x"`$(touch PWNED)`\n/cloth']
for k in range(1, n + 1):
    night = os.path.join(d, f"2026-01-{k:02d}T0300Z")
    os.makedirs(night, exist_ok=True)
    rows = []
    for nm in names:
        base = 1e6 * (1.3 if k >= 3 and nm == "double/dlb/cloth" else 1.0)
        for r in range(5):
            t = base * (1 + rng.gauss(0, 0.02))
            rows.append({"name": nm, "run_name": nm, "run_type": "iteration", "real_time": t, "cpu_time": t,
                         "time_unit": "ns"})
    json.dump({"context": {}, "benchmarks": rows}, open(os.path.join(night, "cpu-gbench.json"), "w"))
    kern = {nm: 1000.0 * (1.08 if k >= 4 and nm == "f32/dlb/cloth" else 1) for nm in names}
    json.dump({"schema_version": 1, "experiment": "icount", "available": True, "kernels": kern},
              open(os.path.join(night, "icount.json"), "w"))
EOF
}

mk_nights "$tmp/h5" 5
cp -r tests/fixtures/run-a "$tmp/run"
(cd "$tmp" && "$exe" report --results run --history h5 --out out > report.log 2>&1); rc=$?
md=$tmp/out/report.md
[ -s "$md" ] && grep -q 'Nightly history' "$md" && ok "report --history: history section (exit $rc)" \
  || { bad "no history section (exit $rc)"; cat "$tmp/report.log"; }
grep -Eq '\| double/dlb/cloth \| CPU ms \(median\) \| 5 \| 2026-01-03T0300Z \|.*\+(29|30|31)\.' "$md" \
  && ok "time step of double/dlb/cloth named at its first night (2026-01-03), about +30 %" \
  || { bad "time step not named"; grep -A12 'Nightly history' "$md"; }
grep -q '| f32/dlb/cloth | instructions | 5 | 2026-01-04T0300Z | 1000 | 1080 | +8.0 % |' "$md" \
  && ok "instruction step of f32/dlb/cloth named at 2026-01-04 (+8.0 %)" || bad "instruction step not named"
grep -q '| double/linear/cloth |' "$md" && bad "a flat series reported as a step" || ok "flat series: no step"
if command -v gnuplot > /dev/null; then
  [ -s "$tmp/out/plots/hist-dlb.svg" ] && [ -s "$tmp/out/plots/hist-linear.png" ] \
    && ok "per-method trend plots written (hist-dlb, hist-linear)" || { bad "trend plots missing"; ls "$tmp/out/plots"; }
  grep -q 'hist-dlb' "$tmp/out/report.html" && ok "report.html embeds the trend plots" || bad "trend plots not in report.html"
  [ ! -e "$tmp/PWNED" ] && [ ! -e "$tmp/out/plots/PWNED" ] && ! grep -q '`\|\$(' "$tmp/out/plots/"hist-*.gp "$tmp/out/plots/"hist-*.dat \
    && ok "a hostile benchmark name reaches gnuplot as sanitised data only" || bad "hostile name reached the script"
else
  echo "skip trend plots (gnuplot not installed)"
fi

mk_nights "$tmp/h1" 1
(cd "$tmp" && "$exe" report --results run --history h1 --out out1 > r1.log 2>&1)
grep -q 'one night so far' "$tmp/out1/report.md" && ! ls "$tmp/out1/plots/"hist-* > /dev/null 2>&1 \
  && ok "one night: no trend plots, the table says so" || bad "one-night history"

(cd "$tmp" && "$exe" report --results run --history nosuch --out out2 > r2.log 2>&1); rc=$?
grep -q 'history' "$tmp/r2.log" && [ -s "$tmp/out2/report.md" ] && ok "missing history dir: one line, report still written" \
  || { bad "missing history dir (exit $rc)"; cat "$tmp/r2.log"; }
# many benchmarks of one method: at most 8 lines to a plot, the rest in further parts, none dropped
if command -v gnuplot > /dev/null; then
  python3 - "$tmp/hm" <<'EOF'
import json, os, sys
for k in (1, 2):
    night = os.path.join(sys.argv[1], f"2026-02-{k:02d}T0300Z"); os.makedirs(night)
    rows = [{"name": f"f32/linear/ds{i:02d}", "run_name": f"f32/linear/ds{i:02d}", "run_type": "iteration",
             "real_time": 1e6 + i, "cpu_time": 1e6 + i, "time_unit": "ns"} for i in range(20) for r in range(3)]
    json.dump({"context": {}, "benchmarks": rows}, open(os.path.join(night, "cpu-gbench.json"), "w"))
EOF
  (cd "$tmp" && "$exe" report --results run --history hm --out out3 > r3.log 2>&1)
  python3 - "$tmp/out3/plots" <<'EOF' && ok "20 benchmarks of one method: 3 plots of at most 8 lines, all 20 drawn" || bad "history plots not split by 8 (above)"
import glob, os, sys
d = sys.argv[1]; dats = sorted(glob.glob(os.path.join(d, "hist-linear*.dat")))
cols = [len(open(f).readline().split()) - 1 for f in dats]
print("series per plot:", dict(zip(map(os.path.basename, dats), cols)))
sys.exit(0 if len(dats) == 3 and max(cols) <= 8 and sum(cols) == 20 else 1)
EOF
fi
exit $fail
