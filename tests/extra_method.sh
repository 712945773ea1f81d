#!/usr/bin/env bash
# a new method reaches every table, plot and gate.
# On a copy of the tree, tests/extra/nlerp_mat.c is added by exactly the
# steps of ARCHITECTURE.md "Adding a method" (copy it to methods/, one extern and one
# line in methods/registry.c), the copy is built (incrementally, from a copy
# of this build's objects), and `run all --quick`, `report` and `compare`
# (against a run of this build, which lacks the method) must show it: a row
# in every per-method section (a number, or "not applicable" with the reason
# its hooks give), a series in every per-method plot or a "not plotted" note
# naming it with that reason, and "NEW method nlerp_mat" from compare.
. "$(dirname "$0")/lib/preamble.sh"
src=$PWD
. "$src/tests/extra/copy_tree.sh"
extra_setup extra_method

# ARCHITECTURE.md "Adding a method", step 1: the method file
cp "$src/tests/extra/nlerp_mat.c" "$tree/methods/nlerp_mat.c"
# step 2: its extern above the table, its line in the table
reg="$tree/methods/registry.c"
sed -i '0,/^extern const struct skb_method skb_method_/s//extern const struct skb_method skb_method_nlerp_mat;\n&/' "$reg"
sed -i '/^const struct skb_method \*const skb_methods\[\] = {/,/^};/s/^    NULL$/    \&skb_method_nlerp_mat,\n    NULL/' "$reg"
[ "$(grep -c 'skb_method_nlerp_mat' "$reg")" -eq 2 ] && ok "registry.c: extern and table line added" \
  || { bad "registry.c edit"; exit 1; }

build_copy "the extra method"
"$xsb" list methods | grep -q '^  nlerp_mat ' && ok "list methods shows nlerp_mat" || bad "list methods lacks nlerp_mat"

# the baseline: this build, without the method; then the copy's run
"$exe" run all --quick --quiet --out "$tmp/base" 2> "$tmp/base.log" || { bad "baseline run all"; tail -5 "$tmp/base.log"; }
"$xsb" run all --quick --quiet --out "$tmp/cur" 2> "$tmp/cur.log" || { bad "run all with nlerp_mat"; tail -5 "$tmp/cur.log"; }
grep -q '"nlerp_mat"' "$tmp/cur/properties.json" && ok "properties.json has nlerp_mat" || bad "properties.json lacks nlerp_mat"
"$xsb" report --results "$tmp/cur" --out "$tmp/rep" > "$tmp/report.log" 2>&1 || { bad "report"; cat "$tmp/report.log"; }

# every per-method section (skinbench list experiments marks them) has a row
"$xsb" list experiments > "$tmp/exps"
sections=$(grep -o 'sections:[^;]*' "$tmp/exps" | grep -o '[a-z0-9_]* (per method: [a-z0-9]*)' | awk '{print $1}')
nsec=$(echo "$sections" | grep -c .)
[ "$nsec" -ge 8 ] && ok "$nsec per-method sections listed" || bad "only $nsec per-method sections listed"
html="$tmp/rep/report.html"
for id in $sections; do
  row=$(awk -v id="id=\"t-$id\"" 'index($0, id) { on = 1 } on && /<td>nlerp_mat<\/td>|<td>method: nlerp_mat<\/td>/ { print; exit }
        on && /<\/table>/ { exit }' "$html")
  if [ -z "$row" ]; then bad "section $id: no row for nlerp_mat"; continue; fi
  # a number, or "not applicable" with a reason from the hooks
  if echo "$row" | grep -q 'not applicable'; then
    echo "$row" | grep -qE 'no f32 kernel|no refit hook|no shader|no blend form|no skin path' \
      && ok "section $id: nlerp_mat not applicable, with its reason" || bad "section $id: not applicable without a hook reason"
  elif echo "$row" | grep -q 'class="not-run"'; then
    bad "section $id: nlerp_mat not run: $(echo "$row" | sed 's/<[^>]*>/ /g' | tr -s ' ' | cut -c1-200)"
  else
    echo "$row" | grep -qE '<td>[0-9.e+-]+[^<]*</td>|<td>[+-] / ' && ok "section $id: nlerp_mat has a result" \
      || bad "section $id: nlerp_mat row without a number"
  fi
done
# report.md: the same rows in as many sections
nmd=$(awk '/^## /{s=$0} /^\| (— \| )?(nlerp_mat|method: nlerp_mat) \|/ || /\| nlerp_mat \|/ {seen[s]=1} END {print length(seen)}' "$tmp/rep/report.md")
[ "$nmd" -ge "$nsec" ] && ok "report.md: nlerp_mat in $nmd sections" || bad "report.md: nlerp_mat in $nmd of $nsec sections"
# numbers where its hooks allow them: Table 4.1 verdicts, FLOP fit, CPU time
for id in table41 flops fig18; do
  awk -v id="id=\"t-$id\"" 'index($0, id) { on = 1 } on && /<td>nlerp_mat<\/td>/ { print; exit }' "$html" \
    | grep -q 'not-run' && bad "section $id: nlerp_mat has the hooks but no result" || ok "section $id: nlerp_mat measured"
done

# every per-method plot: a series, or a note naming it with the hook reason
plots=$(grep -o 'plots:[^;]*' "$tmp/exps" | grep -o '[a-z0-9-]* (per method: [a-z0-9]*)' | awk '{print $1}')
for stem in $plots; do
  n=0
  for gp in "$tmp/rep/plots/$stem"*.gp; do
    [ -f "$gp" ] || continue
    n=$((n+1))
    name=$(basename "$gp" .gp)
    # a series under its name or its title (struct skb_method .title)
    if grep -qE "title '(nlerp_mat|NLERP matrix)'" "$gp"; then ok "plot $name: nlerp_mat series"; continue; fi
    awk -v p="plots/$name.png" 'index($0, p) { on = 1; next } on && /^### / { exit } on && /^not plotted:/ { print }' \
      "$tmp/rep/report.md" | grep -qE 'nlerp_mat \((no refit hook|no shader|no f32 kernel)' \
      && ok "plot $name: nlerp_mat not plotted, with its reason" || bad "plot $name: no series and no note for nlerp_mat"
  done
  [ $n -gt 0 ] || bad "plot $stem: none written"
done
grep -qE "title '(nlerp_mat|NLERP matrix)'" "$tmp/rep/plots/cpu-times.gp" && ok "cpu-times plots nlerp_mat" || bad "cpu-times lacks nlerp_mat"

# compare against the run without it: listed as new, per results file
"$xsb" compare "$tmp/base" "$tmp/cur" > "$tmp/cmp.out" 2>&1
for f in properties.json flops.json cpu.json; do
  grep -q "NEW method nlerp_mat in $f" "$tmp/cmp.out" && ok "compare: nlerp_mat new in $f" || bad "compare: nlerp_mat not new in $f"
done
[ $fail -eq 0 ] || { echo "--- compare output"; head -30 "$tmp/cmp.out"; }
exit $fail
