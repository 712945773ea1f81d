#!/usr/bin/env bash
# End-to-end: `skinbench run sad --quick` (thesis ch. 7, Skinning Arbitrary
# Deformations) writes sad.json with every field README's SAD section lists
# for each animation (curtain, sydney, bcn_human); the fitter alone on the
# baked clip's own rig recovers the clip (affine on the LBS bake, rigid on
# the eq. 7.5 bake: below 0.1 %); corrections never make the quick fit
# worse than no fit; the report has the Table 7.1 section with Table 7.2 as
# not applicable and the error-against-p plot; a broken sad.json is named
# with its field.  Pictures: each animation's worst keyframe is a PNG of
# the stated size under images/sad/, the exact mesh grey on the left and
# the approximation in heat colours on the right; the report's
# sad_pictures section names and embeds them; a planted path outside
# images/sad/ is refused with its field and one to a missing file is a
# "not run" row; without a GL context the pictures are skipped with the
# reason (SKB_GPU_DISABLE=1).
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
        if sorted(f["corrected"], key=int) != ["0", "1", "2", "3", "5", "10"]: errs.append(f"{name}.{kind}.corrected")
        # thesis 7.3 fitted where the skin is judged: more eigen-displacements are never worse
        cs = [f["corrected"][k] for k in ("0", "1", "2", "3", "5", "10")]
        if any(b > a * (1 + 1e-9) for a, b in zip(cs, cs[1:])): errs.append(f"{name}.{kind}: corrections worsen {cs}")
        if abs(f["corrected"]["0"] - f["distortion"]) > 1e-9 * max(1, f["distortion"]): errs.append(f"{name}.{kind}: f=0 differs")
    if "normal_error_deg" not in a["rigid"]: errs.append(f"{name}: no normals")
    ps = [row["p"] for row in a["error_vs_p"]]
    if not ps or max(ps) > a["vertices"] // 3: errs.append(f"{name}: error_vs_p p {ps}")
    if a["compression"] <= 0: errs.append(f"{name}: compression")
if "quantisation_floor" not in an["sydney"]: errs.append("sydney: no quantisation floor")
# the curtain again in calmer wind and without the wind's travelling wave
ws = an["curtain"].get("wind_study", [])
if sorted((w["wind_scale"], w["wave"]) for w in ws) != [(0.25, 0.35), (0.5, 0.35), (1, 0)]: errs.append(f"wind_study rows {ws}")
for w in ws:
    if not (w["distortion"] > 0 and w["sheet_travel"] > 0 and w["p"] == an["curtain"]["p"]): errs.append(f"wind_study row {w}")
travel = {w["wind_scale"]: w["sheet_travel"] for w in ws if w["wave"] > 0}
if travel and not travel[0.25] < travel[0.5]: errs.append(f"wind_study: calmer wind travels farther {travel}")
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
  [ -s "$tmp/rep/plots/sad-corrections.png" ] && ok "plot sad-corrections (thesis Fig. 7.6)" || bad "no plot sad-corrections"
fi
grep -q '| Table 7.1 | performance of skinning arbitrary deformations (SAD) | context | \[\?table71' "$md" \
  && ok "coverage: Table 7.1 is context" || bad "coverage row of Table 7.1"
# the pictures: PNGs of the stated size, grey exact | coloured approximation
python3 - "$tmp/run" <<'PY' && ok "pictures: PNGs of the stated size, exact grey | SAD coloured" || bad "pictures"
import json, struct, sys, zlib
run = sys.argv[1]
r = json.load(open(run + "/sad.json"))
pics = r["pictures"]
if "not_run" in pics:
    print("SKIP pictures: " + pics["not_run"]); sys.exit(0)
W, H = pics["image_width"], pics["image_height"]
def rgba(path):
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n", path + ": not a PNG"
    w, h, depth, ctype = struct.unpack(">IIBB", d[16:26])
    assert (w, h, depth, ctype) == (W, H, 8, 6), (path, w, h, depth, ctype)
    i, idat = 8, b""
    while i < len(d):
        n = struct.unpack(">I", d[i:i+4])[0]
        if d[i+4:i+8] == b"IDAT": idat += d[i+8:i+8+n]
        i += 12 + n
    raw, rows, prev, st = zlib.decompress(idat), [], bytearray(4 * w), 4 * w
    for y in range(h):                       # undo the PNG row filters
        f, line = raw[y * (st + 1)], bytearray(raw[y * (st + 1) + 1:(y + 1) * (st + 1)])
        for x in range(st):
            a = line[x - 4] if x >= 4 else 0; b = prev[x]; c = prev[x - 4] if x >= 4 else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    return rows
errs = []
for name in ("curtain", "sydney", "bcn_human"):
    a = r["animations"][name]; p = a.get("picture")
    if not p: errs.append(f"{name}: no picture"); continue
    if not p["file"].startswith("images/sad/"): errs.append(f"{name}: file {p['file']}")
    if not 0 <= p["keyframe"] < a["keyframes"] or p["p"] != a["p"]: errs.append(f"{name}: keyframe/p {p}")
    if not p["max_error_pct"] >= p["rms_error_pct"] > 0 or p["scale_max_pct"] != p["max_error_pct"]: errs.append(f"{name}: errors {p}")
    for want in (name, f"keyframe {p['keyframe']} of", f"p = {p['p']}", "% of the model size"):
        if want not in p["caption"]: errs.append(f"{name}: caption lacks {want!r}")
    rows = rgba(run + "/" + p["file"])
    left = [tuple(r[4*x:4*x+3]) for r in rows for x in range(W // 2)]
    right = [tuple(r[4*x:4*x+3]) for r in rows for x in range(W // 2, W)]
    if not any(px != (255, 255, 255) for px in left): errs.append(f"{name}: left panel empty")
    if any(max(px) - min(px) > 2 for px in left): errs.append(f"{name}: left panel (exact) not grey")
    if sum(max(px) - min(px) > 30 for px in right) < 100: errs.append(f"{name}: right panel (SAD) not coloured")
if errs: print("\n".join(errs))
sys.exit(1 if errs else 0)
PY
if python3 -c 'import json,sys; sys.exit("not_run" in json.load(open(sys.argv[1]))["pictures"])' "$tmp/run/sad.json"; then
  for name in curtain sydney bcn_human; do
    f=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["animations"][sys.argv[2]]["picture"]["file"])' "$tmp/run/sad.json" $name)
    grep -q "^| $name | .* | $tmp/run/$f |\$" "$md" && ok "report names $name's picture" || bad "report.md: no row with $f"
  done
  n=$(sed -n '/id="s-sad_pictures"/,/<\/table>/p' "$tmp/rep/report.html" | grep -o 'src="data:image/png;base64,' | wc -l)
  [ "$n" -eq 3 ] && ok "report.html shows the three pictures in the SAD section" || bad "report.html: $n pictures in sad_pictures"
  # a planted path: outside images/sad/ refused with its field; a missing file a "not run" row
  for plant in evil missing; do
    cp -r "$tmp/run" "$tmp/$plant"
    python3 - "$tmp/$plant/sad.json" $plant <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["animations"]["sydney"]["picture"]["file"] = ("images/sad/../../../etc/passwd.png" if sys.argv[2] == "evil"
                                                else "images/sad/planted.png")
json.dump(r, open(sys.argv[1], "w"))
PY
    "$exe" report --results "$tmp/$plant" --out "$tmp/rep-$plant" >/dev/null 2>"$tmp/$plant.err"
  done
  grep -q 'sad.json: field "animations"."sydney"."picture"."file": expected a file name images/sad/' "$tmp/evil.err" \
    && ok "a picture path outside images/sad/ is refused with its field" || bad "evil path: $(cat "$tmp/evil.err")"
  grep -q "^| sydney | — | — | — | — | — | not run: images/sad/planted.png: not in the results dir $tmp/missing |" "$tmp/rep-missing/report.md" \
    && ok "a picture path to a missing file is a not-run row" || bad "missing picture not caught"
else
  echo "SKIP pictures in the report: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pictures"]["not_run"])' "$tmp/run/sad.json")"
fi
# no GL context: skipped with the reason, the rest of the run unchanged
SKB_GPU_DISABLE=1 "$exe" run sad --quick --out "$tmp/nogl" >"$tmp/nogl.out" 2>&1 && ok "run sad --quick without GL" \
  || bad "run sad without GL: $(tail -3 "$tmp/nogl.out")"
python3 - "$tmp/nogl/sad.json" "$tmp/run/sad.json" <<'PY' && ok "without GL: pictures skipped with the reason" || bad "no-GL skip"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert "SKB_GPU_DISABLE" in a["pictures"]["not_run"], a["pictures"]
assert not any("picture" in x for x in a["animations"].values())
assert a["animations"]["curtain"]["rigid"]["distortion"] == b["animations"]["curtain"]["rigid"]["distortion"]
PY
grep -q 'pictures skipped: no OpenGL context: disabled by SKB_GPU_DISABLE' "$tmp/nogl.out" \
  && ok "without GL: a progress line says why" || bad "no skip line: $(cat "$tmp/nogl.out")"
[ ! -e "$tmp/nogl/images/sad" ] || [ -z "$(ls "$tmp/nogl/images/sad")" ] && ok "without GL: no image files" || bad "images without GL"
cp -r "$tmp/run" "$tmp/bad"
sed -i '0,/"distortion":[[:space:]]*[-0-9.e+]*/s//"distortion": "big"/' "$tmp/bad/sad.json"
"$exe" report --results "$tmp/bad" --out "$tmp/rep-bad" >/dev/null 2>"$tmp/bad.err"
grep -q 'sad.json: field "animations"."curtain"."rigid"."distortion": expected a non-negative number' "$tmp/bad.err" \
  && ok "a broken sad.json is named with its field" || bad "broken sad.json: $(cat "$tmp/bad.err")"
exit $fail
