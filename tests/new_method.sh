#!/usr/bin/env bash
# `make new-method NAME=mylerp` on a copy of the tree writes methods/mylerp.c
# from scripts/templates/method.c.in and registers it; the copy then builds,
# `run all --quick` and `report` exit 0, and the method has a row in every
# per-method section of report.md.  Bad names are usage errors (exit 2) that
# write nothing.
. "$(dirname "$0")/lib/preamble.sh"
src=$PWD
. "$src/tests/extra/copy_tree.sh"
extra_setup new_method

# bad names: one line, exit 2, nothing written
for args in "NAME=" "NAME=Bad-Name" "NAME=linear" "NAME=x;rm" "NAME=ok TITLE=a\"b"; do
  make -s -C "$tree" new-method $args > "$tmp/nm.out" 2> "$tmp/nm.err"; rc=$?
  [ $rc -ne 0 ] && grep -q '^new-method: ' "$tmp/nm.err" && ok "new-method $args refused" \
    || bad "new-method $args: exit $rc, stderr '$(cat "$tmp/nm.err")'"
done
[ -z "$(cd "$tree" && ls methods | grep -E '^(Bad|x|ok)')" ] && ok "refused names wrote no file" || bad "a refused name left a file"
grep -q 'skb_method_ok\b' "$tree/methods/registry.c" && bad "a refused name was registered" || ok "registry untouched by refused names"

make -s -C "$tree" new-method NAME=mylerp TITLE="My LERP" > "$tmp/nm.out" 2>&1 && ok "make new-method NAME=mylerp" \
  || { bad "make new-method: $(cat "$tmp/nm.out")"; exit 1; }
[ -f "$tree/methods/mylerp.c" ] && [ "$(grep -c 'skb_method_mylerp\b' "$tree/methods/registry.c")" -eq 2 ] \
  && ok "methods/mylerp.c written and registered" || bad "file or registry lines missing"
make -s -C "$tree" new-method NAME=mylerp > "$tmp/nm.out" 2>&1 && bad "a second new-method mylerp was accepted" || ok "an existing method is refused"

build_copy "the scaffolded method"
"$xsb" list methods | grep -q '^  mylerp ' && ok "list methods shows mylerp" || bad "list methods lacks mylerp"
"$xsb" run all --quick --quiet --out "$tmp/cur" 2> "$tmp/cur.log" && ok "run all --quick exits 0" \
  || { bad "run all --quick with mylerp"; tail -5 "$tmp/cur.log"; }
"$xsb" report --results "$tmp/cur" --out "$tmp/rep" > "$tmp/report.log" 2>&1 && ok "report exits 0" \
  || { bad "report"; tail -5 "$tmp/report.log"; }
"$xsb" list experiments > "$tmp/exps"
nsec=$(grep -o 'sections:[^;]*' "$tmp/exps" | grep -o '[a-z0-9_]* (per method: [a-z0-9]*)' | grep -c .)
nmd=$(awk '/^## /{s=$0} /\| (method: )?mylerp \|/ {seen[s]=1} END {print length(seen)}' "$tmp/rep/report.md")
[ "$nsec" -ge 8 ] && [ "$nmd" -ge "$nsec" ] && ok "report.md: mylerp in $nmd sections ($nsec per-method)" \
  || bad "report.md: mylerp in $nmd of $nsec per-method sections"
[ "$fail" -eq 0 ]
