#!/usr/bin/env bash
# The nightly history from the results store (`report --history STORE`):
# 40 synthetic nights on each of 3 machine keys (tests/lib/mkyear.py: noise
# as a shared VM gives it, planted steps in instructions and in time, one of
# them undone later) — every planted step is found at its night, on every
# kernel of its method, with the revision range of that night, and no other
# step anywhere; history.html (inline SVG, the report's style, nothing
# fetched), history.csv and history-steps.csv; the report's table of steps;
# a hostile benchmark name escaped on the page and defused in the CSV; one
# night; a missing store; an old history folder (store import, once).
# scripts/store-year.sh runs the same at 365 nights and measures it.
. "$(dirname "$0")/lib/preamble.sh"
S=$tmp/h.sqlite
python3 tests/lib/mkyear.py "$tmp/year" --nights 40 || bad "mkyear"
"$exe" store add "$tmp"/year/*/2026* --store "$S" > /dev/null 2> "$tmp/add.err" \
  && [ "$("$exe" store list --store "$S" | grep -c complete)" -eq 120 ] \
  && ok "120 nights (40 on each of 3 machines) stored" || { bad "storing the nights"; head -3 "$tmp/add.err"; }
"$exe" report --history "$S" --out "$tmp/h" > "$tmp/h.out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ -s "$tmp/h/history.html" ] && [ -s "$tmp/h/history.csv" ] && [ -s "$tmp/h/history-steps.csv" ] \
  && ok "report --history alone: history.html, history.csv, history-steps.csv" || { bad "report --history (exit $rc)"; cat "$tmp/h.out"; }
python3 - "$tmp/year/truth.json" "$tmp/h/history-steps.csv" <<'EOF' && ok "every planted step at its night on every kernel of its method, with its revision range; no other step" || bad "steps differ from the planted ones (above)"
import csv, datetime, json, sys
truth = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
start = datetime.date(2026, 1, 1)
want = {}
for t in truth:
    night = (start + datetime.timedelta(days=t["night"])).isoformat()
    want[(t["machine"], t["method"], "instructions" if t["measure"] == "icount" else "cpu_ms", night)] = t
got = {}
for r in rows:
    k = (r["machine"], r["method"], r["measure"], r["first_night"][:10])
    got.setdefault(k, []).append(r)
errs = [f"missing {k}" for k in want if k not in got] + [f"not planted {k}" for k in got if k not in want]
for k, rs in got.items():
    t = want.get(k)
    if not t:
        continue
    n = 4   # 2 kinds x 2 datasets per method
    if len(rs) != n:
        errs.append(f"{k}: {len(rs)} kernels stepped, not {n}")
    night = t["night"]
    for r in rs:
        if int(r["revision_of_night"][:8], 16) != night + 1 or int(r["revision_before"][:8], 16) != night:
            errs.append(f"{k}: revisions {r['revision_before']}..{r['revision_of_night']}")
        if t["measure"] == "icount" and abs(float(r["change"]) - (t["factor"] - 1)) > 1e-6:
            errs.append(f"{k}: change {r['change']} vs planted {t['factor'] - 1}")
        if t["measure"] == "time" and abs(float(r["change"]) - (t["factor"] - 1)) > 0.04:
            errs.append(f"{k}: change {r['change']} vs planted {t['factor'] - 1}")
print("\n".join(errs[:10]))
sys.exit(1 if errs else 0)
EOF
python3 - "$tmp/h/history.csv" <<'EOF' && ok "history.csv: a row per machine, method and night; instructions exact around the steps" || bad "history.csv (above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
dlb = [r for r in rows if r["machine"] == "lab-0/2-core" and r["method"] == "dlb"]
assert len(rows) == 3 * 6 * 40 and len(dlb) == 40, (len(rows), len(dlb))
ratio = [float(r["instructions_ratio"]) for r in dlb]
assert ratio[9] == 1 and abs(ratio[10] - 1.1) < 1e-9 and abs(ratio[32] - 1) < 1e-9, ratio
assert [int(r["steps"]) for r in dlb].count(4) == 2, [r["steps"] for r in dlb]
EOF
h=$tmp/h/history.html
[ "$(grep -c '<svg' "$h")" -eq 18 ] && ! grep -q '<script\|src="http\|href="http\|@import\|url(' "$h" \
  && grep -q '<style>' "$h" && ok "history.html: one inline SVG per machine and method, the report's style, nothing fetched" \
  || bad "history.html: $(grep -c '<svg' "$h") plots, or something fetched"
# in the report: the table of steps, next to a run's tables
"$exe" report --results tests/fixtures/run-a --history "$S" --out "$tmp/r" --no-plots > "$tmp/r.out" 2>&1
md=$tmp/r/report.md
grep -q 'Nightly history' "$md" && grep -q '120 stored night(s) of 3 machine(s)' "$md" \
  && grep -Eq '\| lab-0/2-core \| double/dlb/cloth \| instructions \| 40 \| 2026-01-11T03:00:00Z \| 0000000a0000\.\.0000000b0000 \| [0-9]+ \| [0-9]+ \| \+10\.0 % \|' "$md" \
  && [ -s "$tmp/r/history.html" ] && ok "report: the steps table with machine, first night and revision range" \
  || { bad "report's history table"; grep -A6 'Nightly history' "$md" | head; }

# a hostile name: escaped on the page, defused in the CSV, never run
S2=$tmp/evil.sqlite
python3 tests/lib/mkrun.py "$tmp/e1" --machine '<b>m</b>' --methods 'dlb,x"<script>alert(1)</script>' --rng 1
python3 tests/lib/mkrun.py "$tmp/e2" --machine '<b>m</b>' --methods 'dlb,x"<script>alert(1)</script>' --rng 2 \
  --stamp 2026-01-02T03:00:00Z --icount 'x"<script>alert(1)</script>=1.5'
python3 tests/lib/mkrun.py "$tmp/e3" --machine '=HYPERLINK("http://x","y")' --rng 3
"$exe" store add "$tmp/e1" "$tmp/e2" "$tmp/e3" --store "$S2" > /dev/null
"$exe" report --history "$S2" --out "$tmp/e" > /dev/null 2>&1
! grep -q '<script>\|<b>' "$tmp/e/history.html" && grep -q '&lt;script&gt;' "$tmp/e/history.html" \
  && ! grep -q '^=' "$tmp/e/history.csv" && grep -q "^\"'=HYPERLINK" "$tmp/e/history.csv" \
  && ok "a hostile benchmark or machine name: escaped in history.html, defused in the CSV" || bad "hostile names reached the page or CSV raw"

# one night; a missing store; an old history folder
"$exe" report --results tests/fixtures/run-a --history "$tmp/one.sqlite" --out "$tmp/o1" --no-plots > "$tmp/o1.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'no results store here' "$tmp/o1.out" && ok "a missing store: exit 1, named, with how to make one" \
  || { bad "missing store (exit $rc)"; cat "$tmp/o1.out"; }
"$exe" store add "$tmp/e1" --store "$tmp/one.sqlite" > /dev/null
"$exe" report --results tests/fixtures/run-a --history "$tmp/one.sqlite" --out "$tmp/o2" --no-plots > /dev/null 2>&1
grep -q 'one night so far' "$tmp/o2/report.md" && ok "one night: the table says so" || bad "one-night history"
mkdir -p "$tmp/old"
"$exe" report --history "$tmp/old" --out "$tmp/o3" > /dev/null 2> "$tmp/o3.err"; rc=$?
[ $rc -eq 1 ] && grep -q "store import --history" "$tmp/o3.err" && ok "an old history folder: refused, naming store import" \
  || { bad "history folder (exit $rc)"; cat "$tmp/o3.err"; }
exit $fail
