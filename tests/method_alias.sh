#!/bin/bash
# method_alias.sh — results files of schema_version 1 named two methods by the
# thesis's words (lbs, sbs; docs/outputs.md "Method names"); this build writes every
# method by its registry name (schema_version 2) and maps the old names as it
# reads.  An old run must compare and report exactly as the same run written
# with the new names: `compare` old vs current exits as new vs current, with
# the same output, and report.md of the old run is that of the new one.
# The old run: $SKB_OLD_EXE's quick runs when set (a binary from before the
# rename), else the schema-1 fixture tests/fixtures/run-a.
# Usage: tests/method_alias.sh [skinbench]
. "$(dirname "$0")/lib/preamble.sh"
seed=20070601
mkdir -p "$tmp/old" "$tmp/cur"
if [ -n "${SKB_OLD_EXE:-}" ]; then
    "$SKB_OLD_EXE" run spheres cd flops --quick --seed $seed --out "$tmp/old" --quiet || bad "old binary's run failed"
    "$exe" run spheres cd flops --quick --seed $seed --out "$tmp/cur" --quiet || bad "new binary's run failed"
else
    cp -r tests/fixtures/run-a/. "$tmp/old/"
fi
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d["schema_version"] != 1 or "\"lbs\"" not in open(sys.argv[1]).read())' \
    "$tmp/old/spheres.json" && ok "the old run has schema 1 and the old names" || bad "the old run is not a schema-1 run with old names"

# the same run with every old name written as its registry name, schema 2
# (the alias map of methods/registry.c, as docs/outputs.md "Method names" lists it)
python3 - "$tmp/old" "$tmp/new" <<'EOF'
import json, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
alias = {"lbs": "linear", "sbs": "sb", "sbs+all_centres": "sb+all_centres"}
def canon(x):
    if isinstance(x, dict):
        return {alias.get(k, k): canon(v) for k, v in x.items()}
    if isinstance(x, list):
        return [canon(v) for v in x]
    return alias.get(x, x) if isinstance(x, str) else x
shutil.copytree(src, dst)
for name in os.listdir(dst):
    p = os.path.join(dst, name)
    if not name.endswith(".json"):
        continue
    d = json.load(open(p))
    if isinstance(d, dict) and d.get("schema_version") == 1:
        d = canon(d)
        d["schema_version"] = 2
        json.dump(d, open(p, "w"), indent=1)
EOF
[ -n "${SKB_OLD_EXE:-}" ] || cp -r "$tmp/new/." "$tmp/cur/"

"$exe" compare "$tmp/old" "$tmp/cur" --summary "$tmp/old.json" > "$tmp/old.out" 2>&1; rc_old=$?
"$exe" compare "$tmp/new" "$tmp/cur" --summary "$tmp/new.json" > "$tmp/new.out" 2>&1; rc_new=$?
[ "$rc_old" -eq "$rc_new" ] && [ "$rc_new" -ne 2 ] && ok "compare exits $rc_old with an old baseline, as with a new one" \
    || bad "compare exits $rc_old with an old baseline, $rc_new with a new one"
sed "s#$tmp/old#DIR#g" "$tmp/old.out" > "$tmp/old.txt"; sed "s#$tmp/new#DIR#g" "$tmp/new.out" > "$tmp/new.txt"
diff -q "$tmp/old.txt" "$tmp/new.txt" > /dev/null && ok "compare says the same of both" \
    || { bad "compare's output differs:"; diff "$tmp/old.txt" "$tmp/new.txt" | head -20; }

for side in old new; do
    "$exe" report --results "$tmp/$side" --out "$tmp/report-$side" --no-plots > /dev/null 2>&1 \
        || bad "report of the $side run failed"
    sed "s#$tmp/$side#DIR#g" "$tmp/report-$side/report.md" > "$tmp/$side.md"
done
diff -q "$tmp/old.md" "$tmp/new.md" > /dev/null && ok "report.md of the old run is that of the new one" \
    || { bad "report.md differs:"; diff "$tmp/old.md" "$tmp/new.md" | head -20; }
exit $fail
