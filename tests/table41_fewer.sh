#!/usr/bin/env bash
# table-4.1.md and run's [table-4.1] lines agree with the report's "fewer
# than paper" (issue 14): a FLOP fit at or below the thesis's at every
# n = 1..8 is shown as "fewer", without the warning sign and without a
# "FLOPs differ" line on stderr.
set -u
sb=${1:-./skinbench}
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
[ -x "$(dirname "$sb")/skinbench-flops" ] || { echo "skip: no skinbench-flops next to $sb"; exit 0; }

"$sb" run flops --quick --methods linear,dlb --out "$tmp/out" >"$tmp/log" 2>&1 || bad "run flops failed: $(tail -2 "$tmp/log")"
md="$tmp/out/table-4.1.md"
row=$(grep '^| FLOPs (fit' "$md" 2>/dev/null)
[ -n "$row" ] && ok || bad "no FLOPs row in $md"
# DLB (46n+48 against 49n+65) and linear (24n-12 against 23n) are fewer at every n
[ "$(grep -o 'fewer at every n = 1..8' <<<"$row" | wc -l)" -ge 2 ] && ok || bad "not marked fewer: $row"
grep -q 'lower at n = 4' <<<"$row" && bad "a fewer fit still shown as 'lower at n = 4': $row" || ok
grep -q 'FLOPs differ' "$tmp/log" && bad "stderr reports a fewer fit as a difference: $(grep 'FLOPs differ' "$tmp/log")" || ok
echo "table41_fewer: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
