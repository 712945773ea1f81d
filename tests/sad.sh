#!/usr/bin/env bash
# End-to-end: `skinbench run sad --quick` (thesis ch. 7, Skinning Arbitrary
# Deformations) writes sad.json with every field README's SAD section lists
# for each animation (curtain, sydney, bcn_human); the fitter alone on the
# baked clip's own rig recovers the clip (affine on the LBS bake, rigid on
# the eq. 7.5 bake: below 0.1 %); corrections never make the quick fit
# worse than no fit; the report has the Table 7.1 section with Table 7.2 as
# not applicable and the error-against-p plot; a broken sad.json is named
# with its field.
. "$(dirname "$0")/lib/preamble.sh"
"$exe" run sad --quick --quiet --out "$tmp/run" 2>"$tmp/err" && ok "run sad --quick" \
  || { bad "run sad --quick: $(head -c 300 "$tmp/err")"; exit 1; }
python3 - "$tmp/run/sad.json" <<'PY' && ok "sad.json fields and the fitter alone" || bad "sad.json"
import json, sys
r = json.load(open(sys.argv[1]))
errs = []
an = r["animations"]
for name in ("curtain", "sydney", "bcn_human"):
    a = an.get(name)
    if a is None:
        errs.append(f"no animation {name}"); continue
    for k in ("vertices", "triangles", "keyframes", "p", "preprocess_s", "compression", "radius", "max_influences"):
        if not isinstance(a.get(k), (int, float)): errs.append(f"{name}.{k}")
    for kind in ("rigid", "affine"):
        f = a[kind]
        for k in ("distortion", "fit_s", "lsqr_iterations", "lsqr_capped"):
            if not isinstance(f.get(k), (int, float)): errs.append(f"{name}.{kind}.{k}")
        if sorted(f["corrected"]) != ["0", "1", "10"]: errs.append(f"{name}.{kind}.corrected")
        if abs(f["corrected"]["0"] - f["distortion"]) > 1e-9 * max(1, f["distortion"]): errs.append(f"{name}.{kind}: f=0 differs")
    if "normal_error_deg" not in a["rigid"]: errs.append(f"{name}: no normals")
    ps = [row["p"] for row in a["error_vs_p"]]
    if not ps or max(ps) > a["vertices"] // 3: errs.append(f"{name}: error_vs_p p {ps}")
    if a["compression"] <= 0: errs.append(f"{name}: compression")
if "quantisation_floor" not in an["sydney"]: errs.append("sydney: no quantisation floor")
own = an["bcn_human"]["own_rig"]
for k in ("affine_on_lbs_bake", "rigid_on_eq75_bake"):
    if not own[k]["distortion"] < 0.1: errs.append(f"own rig {k}: {own[k]['distortion']} % >= 0.1 %")
if errs: print("\n".join(errs))
sys.exit(1 if errs else 0)
PY
"$exe" report --results "$tmp/run" --out "$tmp/rep" >/dev/null 2>"$tmp/rep.err" && ok "report" || bad "report: $(cat "$tmp/rep.err")"
md="$tmp/rep/report.md"
grep -q '^## Thesis Table 7.1: Skinning Arbitrary Deformations' "$md" && ok "report has Table 7.1" || bad "no Table 7.1 section"
grep -q '^| curtain | 280 |' "$md" && ok "Table 7.1: the curtain's row" || bad "Table 7.1: no curtain row"
grep -q '^| thesis: Curtain | 6409 |' "$md" && ok "Table 7.1: the thesis's rows beside ours" || bad "Table 7.1: no thesis rows"
grep -q 'Table 7.2 (SAD vs SMA).*not applicable.*not public' "$md" && ok "Table 7.2 not applicable" || bad "Table 7.2 row"
if command -v gnuplot >/dev/null; then
  [ -s "$tmp/rep/plots/sad-error-vs-p.png" ] && ok "plot sad-error-vs-p" || bad "no plot sad-error-vs-p"
fi
grep -q '| Table 7.1 | performance of skinning arbitrary deformations (SAD) | context | \[\?table71' "$md" \
  && ok "coverage: Table 7.1 is context" || bad "coverage row of Table 7.1"
cp -r "$tmp/run" "$tmp/bad"
sed -i '0,/"distortion":[[:space:]]*[-0-9.e+]*/s//"distortion": "big"/' "$tmp/bad/sad.json"
"$exe" report --results "$tmp/bad" --out "$tmp/rep-bad" >/dev/null 2>"$tmp/bad.err"
grep -q 'sad.json: field "animations"."curtain"."rigid"."distortion": expected a non-negative number' "$tmp/bad.err" \
  && ok "a broken sad.json is named with its field" || bad "broken sad.json: $(cat "$tmp/bad.err")"
exit $fail
