#!/usr/bin/env bash
# a new experiment is one file plus one line.  On a
# copy of the tree, tests/extra/exp_rigidity.c is added by exactly the steps
# of ARCHITECTURE.md "Adding an experiment" (copy it to reports/, one extern and one
# line in reports/experiment_list.c's list); the copy builds, and the
# experiment runs, its JSON is validated (a broken file is named with its
# field), it has its report section with a row per registry method, and
# compare lists it as new against a run without it and gates it.  The
# original binary, which lacks it, names its file as unknown instead of
# ignoring it.
. "$(dirname "$0")/lib/preamble.sh"
src=$PWD
. "$src/tests/extra/copy_tree.sh"
extra_setup extra_experiment

# ARCHITECTURE.md "Adding an experiment", step 1: the experiment file
cp "$src/tests/extra/exp_rigidity.c" "$tree/reports/exp_rigidity.c"
# step 2: its extern above the list, its line in the list -- first, before
# the built-in experiments: no results file has a fixed slot (the report finds
# each by name), so the position only orders `run all` and the report
lst="$tree/reports/experiment_list.c"
sed -i 's/^const struct skb_experiment_desc \*const skb_experiment_list\[\] = {$/extern const struct skb_experiment_desc skb_desc_rigidity;\n&\n    \&skb_desc_rigidity,/' "$lst"
[ "$(grep -c 'skb_desc_rigidity' "$lst")" -eq 2 ] && ok "experiment_list.c: extern and list line added" \
  || { bad "experiment_list.c edit"; exit 1; }
build_copy "the extra experiment"
"$xsb" list experiments | grep -q '^  rigidity ' && ok "list experiments shows rigidity" || bad "list experiments lacks rigidity"
"$xsb" run --help | grep -q '^  rigidity ' && ok "run --help shows rigidity" || bad "run --help lacks rigidity"

# it runs (alone and within run all's order) and writes its validated JSON
"$exe" run properties --quick --quiet --out "$tmp/base" 2> "$tmp/base.log" || bad "baseline run properties"
"$xsb" run properties rigidity --quick --quiet --out "$tmp/cur" 2> "$tmp/cur.log" \
  && ok "run properties rigidity" || { bad "run rigidity"; tail -5 "$tmp/cur.log"; }
grep -q '"experiment":[[:space:]]*"rigidity"' "$tmp/cur/rigidity.json" && ok "rigidity.json written with its metadata" \
  || bad "rigidity.json missing or without metadata"
"$xsb" report --results "$tmp/cur" --out "$tmp/rep" > "$tmp/report.log" 2>&1 && ok "report" || { bad "report"; cat "$tmp/report.log"; }
md="$tmp/rep/report.md"
grep -q '^## Rigidity of every blend' "$md" && ok "report.md has the rigidity section" || bad "report.md lacks the rigidity section"
for m in $("$xsb" list methods | awk 'NR > 1 && /^  [^ ]/ {print $1}'); do
  awk '/^## Rigidity/ { on = 1; next } on && /^## / { exit } on' "$md" | grep -qE "^\| $m \| ([0-9]|.*not applicable)" \
    && ok "rigidity section: $m has a row" || bad "rigidity section: no row for $m"
done
grep -q 'id="t-rigidity"' "$tmp/rep/report.html" && ok "report.html has the rigidity table" || bad "report.html lacks it"

# the build without the experiment names the file instead of ignoring it
"$exe" report --results "$tmp/cur" --out "$tmp/rep-old" > "$tmp/old.log" 2>&1
grep -q 'rigidity.json: unknown results file' "$tmp/old.log" && ok "a build without it names rigidity.json as unknown" \
  || bad "a build without it is silent about rigidity.json"
grep -q 'unknown results files.*rigidity.json' "$tmp/rep-old/report.md" && ok "its report lists the unknown file" \
  || bad "its report does not list the unknown file"

# compare: new against the baseline, gated against itself
"$xsb" compare "$tmp/base" "$tmp/cur" > "$tmp/cmp.out" 2>&1
grep -q 'NEW experiment rigidity: rigidity.json is not in the baseline' "$tmp/cmp.out" && ok "compare lists rigidity as new" \
  || { bad "compare does not list rigidity as new"; cat "$tmp/cmp.out"; }
cp -r "$tmp/cur" "$tmp/worse"
sed -i '0,/"failed":[[:space:]]*0/s//"failed": 7/' "$tmp/worse/rigidity.json"
rm "$tmp/worse/manifest.json"   # edited after the run: its manifest no longer vouches for it
"$xsb" compare "$tmp/cur" "$tmp/worse" --only properties,rigidity > "$tmp/gate.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'REGRESSION rigidity.json: .* failed 7 blends' "$tmp/gate.out" && ok "its gate fails a run with failed blends" \
  || { bad "its gate (exit $rc)"; head -20 "$tmp/gate.out"; }

# validated: a broken field is named, with a non-zero exit
cp -r "$tmp/cur" "$tmp/bad"
sed -i '0,/"max_rigid_error":[[:space:]]*[-0-9.e+]*/s//"max_rigid_error": "big"/' "$tmp/bad/rigidity.json"
rm "$tmp/bad/manifest.json"
"$xsb" report --results "$tmp/bad" --out "$tmp/rep-bad" > "$tmp/bad.log" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q 'rigidity.json: field "methods"\.".*"\."max_rigid_error": expected a non-negative number' "$tmp/bad.log" \
  && ok "a broken rigidity.json is named with its field (exit $rc)" || { bad "broken rigidity.json (exit $rc)"; cat "$tmp/bad.log"; }
"$xsb" compare "$tmp/cur" "$tmp/bad" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "compare refuses the broken file (exit 2)" || bad "compare on the broken file: exit $rc"
# its table of fields, declared once beside its writer, is the one `schema` prints
"$xsb" schema rigidity.json > "$tmp/schema.out" 2>&1 && grep -q 'max_rigid_error' "$tmp/schema.out" \
  && ok "skinbench schema prints rigidity.json's table" || { bad "schema rigidity.json"; cat "$tmp/schema.out"; }
exit $fail
