#!/usr/bin/env bash
# scripts/nightly.sh end to end, with the suite in --quick mode (a smoke
# test of the script, not a nightly): the first night with --update-baseline
# makes the baseline and saves its binary; the second night runs the A/B
# sitting against that binary (2 rounds here: too few to decide, so exit 3,
# never a pass), keeps both nights under the history directory, and the
# report shows the history table and trend plots.
. "$(dirname "$0")/lib/preamble.sh"
export SKB_AB_ROUNDS=2 SKB_AB_REPS=2
common=(--exe "$exe" --quick --baseline "$tmp/base" --history "$tmp/hist" --validation "$tmp/none.json")
bash scripts/nightly.sh "${common[@]}" --out "$tmp/hist/2026-01-01T0000Z" --update-baseline > "$tmp/n1.log" 2>&1
[ -x "$tmp/base/bin/skinbench" ] && [ -s "$tmp/base/icount.json" ] \
  && ok "first night with --update-baseline: baseline and its binary saved" || { bad "no baseline"; tail "$tmp/n1.log"; }
bash scripts/nightly.sh "${common[@]}" --out "$tmp/hist/2026-01-02T0000Z" > "$tmp/n2.log" 2>&1; rc=$?
[ -s "$tmp/hist/2026-01-02T0000Z/ab/round-2/b/cpu-gbench.json" ] && ok "second night: A/B sitting against the baseline's binary" \
  || { bad "no A/B sitting"; tail "$tmp/n2.log"; }
[ $rc -eq 3 ] && grep -q 'INCONCLUSIVE' "$tmp/n2.log" && ok "2 rounds cannot decide: exit 3 (never a pass)" \
  || { bad "second night exit $rc"; tail -20 "$tmp/n2.log"; }
if [ -n "${SKB_ASAN:-}" ] || ! command -v valgrind > /dev/null; then
  echo "skip instruction gate (valgrind missing or ASan build)"
else
  grep -q '^instructions: ' "$tmp/n2.log" && ok "the instruction-count gate ran" || bad "no instruction gate"
fi
md=$tmp/hist/2026-01-02T0000Z/report.md
grep -q 'Nightly history' "$md" && grep -q '2 nightly run(s)' "$md" && ok "report: history of both nights" \
  || bad "report lacks the two-night history"
if command -v gnuplot > /dev/null; then
  ls "$tmp/hist/2026-01-02T0000Z/plots/"hist-*.svg > /dev/null 2>&1 && ok "report: trend plots from the second night" \
    || bad "no trend plots"
fi
exit $fail
