#!/usr/bin/env bash
# End-to-end: `run gpu --quick` draws every registry method's CPU
# skin in every scene (or says why not), the heat map against DIB, and the
# arm's volume / cross-section curve; the report shows them; a hostile image
# name in gpu.json is not embedded.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
py() { python3 - "$@"; }

out="$tmp/run"
if "$exe" run gpu --quick --quiet --out "$out" 2>"$tmp/err"; then ok; else bad "run gpu exit $? ($(cat "$tmp/err"))"; fi
methods=$("$exe" list methods 2>/dev/null | awk '/^  [^ ]/ {print $1}' | tr '\n' ' ')

# the volume curve runs with or without a GL context
py "$out/gpu.json" <<'EOF2' && ok || bad "arm_volume: $(cat "$tmp/py" 2>/dev/null)"
import json, sys
d = json.load(open(sys.argv[1])); av = d["arm_volume"]; tw = av["twist_deg"]
assert tw[0] == 0 and tw[-1] == 180 and 90 in tw and 135 in tw, tw
ran = {m: o for m, o in av["methods"].items() if "volume_ratio" in o}
assert len(ran) >= 7, av["methods"].keys()
for m, o in ran.items():
    # untwisted: every method reproduces the rest mesh, so both ratios are 1
    assert abs(o["volume_ratio"][0] - 1) < 1e-12 and abs(o["section_area_ratio"][0] - 1) < 1e-12, (m, o)
# the candy wrapper: LBS's elbow ring collapses at 180 deg, DLB keeps it
assert ran["linear"]["section_area_ratio"][-1] < 0.01, ran["linear"]
assert abs(ran["dlb"]["section_area_ratio"][-1] - 1) < 1e-6, ran["dlb"]
for m, o in av["methods"].items():
    assert "volume_ratio" in o or o.get("not_run"), (m, o)
EOF2

# a gpu.json of the wrong shape (method maps as arrays, a scene without a
# name, markup in the heat map's strings): the report still renders, with
# the strings escaped (was a NULL strdup / strcmp, and raw markup)
mkdir -p "$tmp/shape" && cp "$out/gpu.json" "$tmp/shape/"
python3 - "$tmp/shape/gpu.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
d["arm_volume"]["methods"] = [{"not_run": "x"}, {"volume_ratio": [1]}]
d["method_pictures"] = {"how": "h", "renderer": "r", "scenes": [{"caption": "c"}, {"name": "s1"}],
    "images": [{"method": "m", "scene": "s1", "kind": "deformation", "file": "images/methods/a.png"}],
    "not_drawn": [{"method": "m"}],
    "heat_map": {"scene": "s1", "reference": "<b>ref", "caption": "<i>cap", "model_size": 1,
                 "scale_max_rel": 0.5, "methods": [{"max_rel": 1}]}}
json.dump(d, open(sys.argv[1], "w"))
EOF2
if "$exe" report --results "$tmp/shape" --out "$tmp/shape" >"$tmp/shape.out" 2>&1; then ok
else bad "report on a wrongly shaped gpu.json: exit $? ($(tail -3 "$tmp/shape.out"))"; fi
if grep -q '&lt;b&gt;ref' "$tmp/shape/report.html" && ! grep -q '<b>ref\|<i>cap' "$tmp/shape/report.html"; then ok
else bad "heat-map reference/caption from gpu.json not escaped in report.html"; fi

if [ "$(python3 -c "import json,sys; print('skipped' in json.load(open(sys.argv[1])))" "$out/gpu.json")" = True ]; then
  echo "SKIP pictures: no GL context here"
  echo "pictures.sh: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]; exit
fi

py "$out" $methods <<'EOF2' && ok || bad "method_pictures contract"
import json, sys, struct, os
out, methods = sys.argv[1], sys.argv[2:]
mp = json.load(open(out + "/gpu.json"))["method_pictures"]
size = mp["image_size"]; scenes = [s["name"] for s in mp["scenes"]]
assert len(scenes) >= 6, scenes
drawn = {(i["method"], i["scene"], i["kind"]) for i in mp["images"]}
refused = {(n["method"], n["scene"]) for n in mp["not_drawn"]}
for m in methods:                    # every registry method: a picture or a reason, per scene
    for s in scenes:
        assert (m, s, "deformation") in drawn or (m, s) in refused, (m, s)
for n in mp["not_drawn"]:
    assert n["reason"], n
for i in mp["images"]:               # valid PNGs of the stated size
    b = open(os.path.join(out, i["file"]), "rb").read(32)
    assert b[:8] == b"\x89PNG\r\n\x1a\n", i
    w, h = struct.unpack(">II", b[16:24])
    assert w == size and h == size, (i, w, h)
hm = mp["heat_map"]
assert hm["methods"]["dib"]["max_rel"] == 0 and hm["scale_max_rel"] > 0, hm
assert sum(1 for i in mp["images"] if i["kind"] == "error_heat_map") >= 7
EOF2

# a wrong deformation shows: LBS and DLB at 180 deg twist differ in many pixels,
# while the same method drawn twice is identical; the arm carries a seam along
# the bone axis (gpu.json "stripe") so a twist shows as a spiral: the untwisted
# arm has seam-coloured (orange) pixels
py "$out" <<'EOF2' && ok || bad "pictures do not show the deformation or the seam"
import json, sys, zlib, struct
def chunks(p):
    d = open(p, "rb").read(); i = 8; idat = b""; hdr = None
    while i < len(d):
        l = struct.unpack(">I", d[i:i+4])[0]; t = d[i+4:i+8]
        if t == b"IHDR": hdr = struct.unpack(">IIBB", d[i+8:i+18])
        if t == b"IDAT": idat += d[i+8:i+8+l]
        i += 12 + l
    return hdr, zlib.decompress(idat)     # filtered rows are enough to compare equal / different
def pixels(p):
    return chunks(p)[1]
def rgb(p):                                # unfiltered pixels (PNG filters 0-4)
    (w, h, depth, ctype), raw = chunks(p)
    assert depth == 8 and ctype in (2, 6), (depth, ctype)
    bpp = 3 if ctype == 2 else 4; stride = w * bpp; prev = bytearray(stride); px = []
    for y in range(h):
        f = raw[y * (stride + 1)]; row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = row[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            paeth = a if pa <= pb and pa <= pc else b if pb <= pc else c
            row[x] = (row[x] + [0, a, b, (a + b) // 2, paeth][f]) & 255
        px += [tuple(row[k:k + 3]) for k in range(0, stride, bpp)]; prev = row
    return px
out = sys.argv[1] + "/images/methods/"
a, b = pixels(out + "arm_twist_180_linear.png"), pixels(out + "arm_twist_180_dlb.png")
c = pixels(out + "arm_twist_180_dlb_scale.png")
assert a != b, "linear and dlb identical at the candy wrapper"
assert b == c, "dlb and dlb_scale (no scale part) should draw the same mesh"
assert "stripe" in json.load(open(sys.argv[1] + "/gpu.json"))["method_pictures"]
seam = sum(1 for r, g, bl in rgb(out + "arm_twist_000_dlb.png") if r > 120 and r > 2 * bl)
assert seam > 50, seam
EOF2

# every scene's caption names its joint angle(s): a twisted and a straight arm
# never read alike
py "$out/gpu.json" <<'EOF2' && ok || bad "a picture caption names no angle"
import json, re, sys
mp = json.load(open(sys.argv[1]))["method_pictures"]
for s in mp["scenes"]:
    assert re.search(r"\d+°", s["caption"]), s
    if s["name"].startswith("arm_twist_"):   # the angle in the name is the one in the caption
        assert "twisted %d°" % int(s["name"][10:13]) in s["caption"], s
# the shader pictures too: the harness that posed them says how (gpu.json)
for im in json.load(open(sys.argv[1]))["images"]:
    assert re.search(r"\d+°", im["caption"]), im
    if im["scene"] == "candy_wrapper":
        assert "twisted 180°" in im["caption"], im
EOF2

"$exe" report --results "$out" --out "$out" >/dev/null 2>&1 && ok || bad "report failed"
grep -q 'id="pictures-0"' "$out/report.html" && ok || bad "report.html has no picture grid"
grep -q '^## Arm volume and elbow cross-section' "$out/report.md" && ok || bad "report.md has no arm volume table"
grep -q '^## Distance to DIB per vertex' "$out/report.md" && ok || bad "report.md has no heat-map table"
[ -s "$out/plots/arm-volume.png" ] && [ -s "$out/plots/arm-section.png" ] && ok || bad "no volume plots"

# a hostile file name in gpu.json is not embedded
cp -r "$out" "$tmp/evil"
python3 - "$tmp/evil/gpu.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
d["method_pictures"]["images"][0]["file"] = "images/methods/../../../../etc/passwd.png"
d["images"][0]["caption"] = "<script>cap</script>"   # a shader picture's caption is data from the file
json.dump(d, open(sys.argv[1], "w"))
EOF2
"$exe" report --results "$tmp/evil" --out "$tmp/evil" >/dev/null 2>&1
grep -q 'image name refused' "$tmp/evil/report.html" && ok || bad "hostile image name not refused"
! grep -q '<script>cap' "$tmp/evil/report.html" && grep -q '&lt;script&gt;cap' "$tmp/evil/report.html" \
  && ok || bad "a shader picture's caption from gpu.json not escaped in report.html"

summary pictures.sh
