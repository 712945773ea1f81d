#!/usr/bin/env bash
# table-4.1.md and run's [table-4.1] lines agree with the report's "fewer
# than paper": a FLOP fit at or below the thesis's at every
# n = 1..8 is shown as "fewer than paper" (table-4.1.md is the report's own
# FLOP table), and run prints no difference line for it; every [table-4.1]
# line is at most 200 characters.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
[ -x "$(dirname "$exe")/skinbench-flops" ] || { echo "skip: no skinbench-flops next to $exe"; exit 0; }

"$exe" run flops --quick --methods linear,dlb --out "$tmp/out" >"$tmp/log" 2>&1 || bad "run flops failed: $(tail -2 "$tmp/log")"
md="$tmp/out/table-4.1.md"
# table-4.1.md is the report's own FLOP table (one renderer): one row per method
flops=$(awk '/^## FLOPs per blend/ { on = 1; next } /^## / { on = 0 } on && /^\| (linear|dlb) \|/' "$md" 2>/dev/null)
[ "$(grep -c . <<<"$flops")" -eq 2 ] && ok || bad "no FLOPs rows for linear and dlb in $md"
# DLB (46n+48 against 49n+65) and linear (24n-12 against 23n) are fewer at every n
[ "$(grep -c '| fewer than paper | fewer FLOPs than the thesis at every n = 1..8' <<<"$flops")" -eq 2 ] && ok \
  || bad "not marked fewer: $flops"
grep -q 'lower at n = 4\|⚠' <<<"$flops" && bad "a fewer fit still shown as a difference: $flops" || ok
grep -q 'FLOPs differ\|\[table-4.1\].*flops' "$tmp/log" && bad "stderr reports a fewer fit as a difference: $(grep 'table-4.1' "$tmp/log")" || ok
# a judged row's stderr line stays short (the whole row is in table-4.1.md):
# properties' qlb0 differs with a counterexample story of ~1,500 characters
"$exe" run properties --quick --methods qlb0 --out "$tmp/out" >"$tmp/plog" 2>&1 || bad "run properties failed: $(tail -2 "$tmp/plog")"
long=$(grep '^\[table-4.1\]' "$tmp/plog" | awk 'length($0) > 200' | head -1)
grep -q '^\[table-4.1\] qlb0' "$tmp/plog" && [ -z "$long" ] && ok || bad "a [table-4.1] line over 200 characters (or none for qlb0): ${long:0:120}"
summary table41_fewer
