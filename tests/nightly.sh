#!/usr/bin/env bash
# scripts/nightly.sh end to end, with the suite in --quick mode (a smoke
# test of the script, not a nightly): the first night with --update-baseline
# stores the run and makes it this machine's baseline, its binary kept in
# the store; the second night runs the A/B sitting against that binary (2
# rounds here: too few to decide, so exit 3, never a pass), enters the
# store too, and its report carries the history of both nights
# (history.html, history.csv) and the night's verdict.
. "$(dirname "$0")/lib/preamble.sh"
export SKB_AB_ROUNDS=2 SKB_AB_REPS=2
st=$tmp/store.sqlite
common=(--exe "$exe" --quick --store "$st" --validation "$tmp/none.json" --no-bisect
        --import-baseline "$tmp/none" --import-history "$tmp/none")
bash scripts/nightly.sh "${common[@]}" --out "$tmp/n1" --update-baseline > "$tmp/n1.log" 2>&1; rc=$?
"$exe" store baseline --store "$st" > "$tmp/b.out" 2>&1
[ $rc -eq 0 ] && grep -q "run 1 " "$tmp/b.out" && grep -qv 'binary none' "$tmp/b.out" \
  && ok "first night with --update-baseline: stored as run 1, this machine's baseline, with its binary" \
  || { bad "first night (exit $rc)"; tail -5 "$tmp/n1.log"; cat "$tmp/b.out"; }
bash scripts/nightly.sh "${common[@]}" --out "$tmp/n2" > "$tmp/n2.log" 2>&1; rc=$?
[ -s "$tmp/n2/ab/round-2/b/cpu-gbench.json" ] && ok "second night: A/B sitting against the baseline's binary from the store" \
  || { bad "no A/B sitting"; tail "$tmp/n2.log"; }
[ $rc -eq 3 ] && grep -q 'INCONCLUSIVE' "$tmp/n2.log" && ok "2 rounds cannot decide: exit 3 (never a pass)" \
  || { bad "second night exit $rc"; tail -20 "$tmp/n2.log"; }
[ "$(cat "$tmp/n2/gate-exit" 2>/dev/null)" = 3 ] && [ "$(cat "$tmp/n1/gate-exit" 2>/dev/null)" = 0 ] \
  && ok "gate-exit beside each night: 0, then 3 (what make nightly, which can only exit 2, cannot pass on)" \
  || bad "gate-exit: '$(cat "$tmp/n1/gate-exit" 2>&1)' '$(cat "$tmp/n2/gate-exit" 2>&1)'"
if [ -n "${SKB_ASAN:-}" ] || ! command -v valgrind > /dev/null; then
  echo "skip instruction gate (valgrind missing or ASan build)"
else
  grep -q '^instructions: ' "$tmp/n2.log" && ok "the instruction-count gate ran" || bad "no instruction gate"
fi
"$exe" store list --store "$st" > "$tmp/l.out"
[ "$(grep -c 'complete' "$tmp/l.out")" -eq 2 ] && grep -q '^1 .*BASE complete' "$tmp/l.out" \
  && ok "both nights stored; the baseline stayed night 1 (the second was not passed)" || { bad "store list"; cat "$tmp/l.out"; }
md=$tmp/n2/report.md
# the night's page carries the gate's verdict on that night (its compare.json)
grep -q 'id="verdict"><b>The gate on this run (its compare.json):</b> INCONCLUSIVE against the baseline' "$tmp/n2/report.html" \
  && python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["verdict"]; sys.exit(not v.startswith("INCONCLUSIVE"))' "$tmp/n2/report.json" \
  && ok "the second night's report.html and report.json carry its verdict (INCONCLUSIVE)" \
  || { bad "the night's report lacks its verdict"; grep -o 'id="verdict".\{0,200\}' "$tmp/n2/report.html"; }
grep -q 'Nightly history' "$md" && grep -q '2 stored night(s) of 1 machine' "$md" && ok "report: history of both nights" \
  || { bad "report lacks the two-night history"; grep -A3 'Nightly history' "$md"; }
[ -s "$tmp/n2/history.html" ] && [ "$(grep -c ',dlb,' "$tmp/n2/history.csv")" -eq 2 ] \
  && ok "history.html and history.csv: dlb on both nights" || bad "history pages"
python3 - "$tmp/n2/history.csv" <<'PY' && ok "history.csv: the second night's paired A/B estimates, from the store" || bad "no paired estimates in the history"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["ab_delta"]]
assert rows and len({r["night"] for r in rows}) == 1, rows[:3]
PY
exit $fail
