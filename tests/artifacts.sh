#!/usr/bin/env bash
# End-to-end: `skinbench run artifacts --quick` writes artifacts.json that
# `schema --check` accepts, with a row for every registry method on the arm
# (numbers, or the reason it did not run); the facts the papers show hold:
# LBS's elbow section collapses at 180 degrees of twist (below 0.05 of rest)
# while DLB's stays (at least 0.9), DLB's skin jumps between 179 and 181
# degrees (DQ paper Fig. 20) and LBS's does not; the report has one table
# per artifact, judges dlb's flip against Fig. 20 and draws the curves; a
# planted field of the wrong type is refused naming it; the gate catches a
# changed flip verdict.  Prints the seconds
# the run took (the time --quick adds to make check).
. "$(dirname "$0")/lib/preamble.sh"
t0=$(date +%s.%N)
"$exe" run artifacts --quick --quiet --out "$tmp/run" 2>"$tmp/err" && ok "run artifacts --quick" \
  || { bad "run artifacts --quick: $(head -c 300 "$tmp/err")"; exit 1; }
echo "     run artifacts --quick took $(echo "$(date +%s.%N) - $t0" | bc) s"
"$exe" schema --check "$tmp/run" >/dev/null 2>"$tmp/check.err" && ok "schema --check accepts artifacts.json" \
  || bad "schema --check: $(cat "$tmp/check.err")"
"$exe" list methods > "$tmp/methods" 2>/dev/null
python3 - "$tmp/run/artifacts.json" "$tmp/methods" <<'PY' && ok "artifacts.json: every method, LBS collapses, DLB keeps and flips" || bad "artifacts.json facts"
import json, sys
r = json.load(open(sys.argv[1]))
arm = r["arm"]
ms = arm["methods"]
errs = []
tw = arm["twist_deg"]
i180 = tw.index(180)
for name, m in ms.items():
    if "not_run" in m:
        continue
    for k in ("section_area_ratio", "volume_ratio_twist", "bulge", "volume_ratio_bend", "dib_rms", "dib_max"):
        if not isinstance(m.get(k), list) or not m[k]:
            errs.append(f"{name}: no {k}")
    for k in ("flip_jump", "self_intersections"):
        if not isinstance(m.get(k), (int, float)):
            errs.append(f"{name}: no {k}")
import re
names = [m.group(1) for m in (re.match(r"^  ([a-z0-9_]+)  ", l) for l in open(sys.argv[2])) if m]
missing = [n for n in names if n not in ms]
if len(names) < 10 or missing:
    errs.append(f"registry methods missing on the arm: {missing} (of {len(names)})")
lin, dlb = ms["linear"], ms["dlb"]
if not lin["section_area_ratio"][i180] < 0.05:
    errs.append(f"LBS area at 180: {lin['section_area_ratio'][i180]} >= 0.05")
if not dlb["section_area_ratio"][i180] >= 0.9:
    errs.append(f"DLB area at 180: {dlb['section_area_ratio'][i180]} < 0.9")
# the mix painted onto the elbow (DLB's share 1 - d / (3 limb radii), about 2/3 on the elbow ring)
# keeps more of the section than the even global mix and less than DLB
pm, gm = ms.get("blend_lbs_dqs+painted"), ms.get("blend_lbs_dqs")
if not pm or not gm or "not_run" in pm:
    errs.append("no painted LBS/DQS mix on the arm")
elif not gm["section_area_ratio"][i180] + 0.1 < pm["section_area_ratio"][i180] < dlb["section_area_ratio"][i180] - 0.1:
    errs.append(f"painted mix area at 180: {pm['section_area_ratio'][i180]}, global mix {gm['section_area_ratio'][i180]}")
thr = arm["flip_threshold"]
if not (dlb["flip_jump"] > thr and dlb["flipped"] is True):
    errs.append(f"DLB does not flip: jump {dlb['flip_jump']}, threshold {thr}")
if not (lin["flip_jump"] < thr / 5 and lin["flipped"] is False):
    errs.append(f"LBS flips: jump {lin['flip_jump']}, threshold {thr}")
if "f32_error" not in r["precision"]["methods"]["linear"]:
    errs.append("no f32 error of linear far from the origin")
if errs:
    print("\n".join(errs))
sys.exit(1 if errs else 0)
PY
"$exe" report --results "$tmp/run" --out "$tmp/rep" >/dev/null 2>"$tmp/rep.err" && ok "report" || bad "report: $(cat "$tmp/rep.err")"
md="$tmp/rep/report.md"
for s in "Candy wrapper: elbow cross-section area" "Joint bulge at 60°, 90°, 120° bends" "Volume / rest over twist and bend" \
         "Flipping: the largest vertex jump" "Self-intersections at a 150° bend" "Distance to DIB over every pose" \
         "f32 kernels far from the origin"; do
  grep -q "^## $s" "$md" && ok "report section: $s" || bad "no report section $s"
done
grep -q '^| linear | arm | 0.5 | 0.1464 | .*| new |' "$md" && ok "candy table: LBS's row" || bad "candy table: no LBS row"
grep -q '^| dlb | 0.25 | yes | yes | reproduced | rule exact' "$md" && ok "flip table: dlb judged against Fig. 20, reproduced" \
  || bad "flip table: dlb row not judged reproduced"
grep -q '^| linear | 0.004[0-9]* | no | — | new |' "$md" && ok "flip table: linear new, no flip" || bad "flip table: linear row"
grep -q '^| sclerp | arm | .*not applicable | no skin path' "$md" && ok "a blend-only method: not applicable with why" \
  || bad "sclerp's row"
grep -q '| Fig. 20 | skin flipping when a joint passes 180° | judged | \[\?artifacts_flip' "$md" \
  && ok "coverage: Fig. 20 judged" || bad "coverage row of Fig. 20"
if command -v gnuplot >/dev/null; then
  for p in artifacts-section artifacts-volume-twist artifacts-volume-bend artifacts-bulge; do
    [ -s "$tmp/rep/plots/$p.png" ] && ok "plot $p" || bad "no plot $p"
  done
fi
# a field of the wrong type: refused by schema --check, naming file and field
mkdir -p "$tmp/bad"
python3 - "$tmp/run/artifacts.json" "$tmp/bad/artifacts.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["arm"]["methods"]["dlb"]["flipped"] = "yes"
json.dump(r, open(sys.argv[2], "w"))
PY
if "$exe" schema --check "$tmp/bad" >/dev/null 2>"$tmp/bad.err"; then
  bad "schema --check accepted a string for flipped"
else
  grep -q 'artifacts.json.*flipped' "$tmp/bad.err" && ok "planted field refused, named" || bad "refusal: $(cat "$tmp/bad.err")"
fi
# the nightly gate (reports/exp_artifacts.c, its descriptor's .gate): the run (artifacts only:
# --only names the gate judged) against itself passes; dlb no longer flipping is a regression naming it
"$exe" compare "$tmp/run" "$tmp/run" --only artifacts >/dev/null 2>&1 && ok "compare against itself passes" || bad "compare self"
mkdir -p "$tmp/noflip"
python3 - "$tmp/run/artifacts.json" "$tmp/noflip/artifacts.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["arm"]["methods"]["dlb"]["flipped"] = False
json.dump(r, open(sys.argv[2], "w"))
PY
"$exe" compare "$tmp/run" "$tmp/noflip" > "$tmp/cmp.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'REGRESSION artifacts.json: dlb does not flip' "$tmp/cmp.out" \
  && ok "gate: dlb's flip lost is a regression" || bad "gate: exit $rc, $(grep -i artifacts "$tmp/cmp.out" | head -2)"
exit $fail
