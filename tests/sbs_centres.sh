#!/usr/bin/env bash
# End-to-end: `skinbench run spheres --quick` records, per dataset, SBS's
# joint sets (trivial / solved / regularised, seed 003 section 4), the centre
# bound it used and the worst centre distance in model reaches; the counts
# add up and the bound holds (offset <= bound * extent, extent <= 2 reaches);
# and each paper table gets its own posture (Table 6.1: a neck twist).
. "$(dirname "$0")/lib/preamble.sh"
"$exe" run spheres --quick --quiet --out "$tmp" 2>"$tmp/err" || { echo "FAIL: run spheres --quick: $(head -c 300 "$tmp/err")"; exit 1; }
python3 - "$tmp/spheres.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
errs = []
for name, ds in r["datasets"].items():
    c = ds.get("sbs_centres")
    if c is None:
        errs.append(f"{name}: no sbs_centres"); continue
    for k in ("poses", "joint_sets", "trivial_min", "trivial_max", "solved_min", "solved_max",
              "regularised_max", "parent_child_fallback_max", "centre_bound_extents",
              "centre_offset_max_reach", "centre_norm_max_reach"):
        if not isinstance(c.get(k), (int, float)):
            errs.append(f"{name}: sbs_centres.{k} missing")
    if errs: continue
    if c["trivial_max"] + c["solved_min"] > c["joint_sets"]:
        errs.append(f"{name}: trivial {c['trivial_max']} + solved {c['solved_min']} > sets {c['joint_sets']}")
    if c["regularised_max"] > c["solved_max"]:
        errs.append(f"{name}: more regularised than solved")
    if not 0 <= c["centre_offset_max_reach"] <= 2 * c["centre_bound_extents"] * (1 + 1e-9):
        errs.append(f"{name}: centre offset {c['centre_offset_max_reach']} reaches outside the bound")
    # one posture per table: Table 6.1's is the walk pose with the
    # neck twisted (thesis Fig. 6.4), with SBS's bottom-up/best; Table 5.2's the walk pose
    p = ds.get("postures", {})
    p61, p52 = p.get("table_6_1", {}), p.get("table_5_2", {})
    if not p61.get("levels") or "posture" not in p52:
        errs.append(f"{name}: postures.table_6_1.levels or postures.table_5_2 missing"); continue
    if p61.get("bottom_up_best_method") != "sb":
        errs.append(f"{name}: Table 6.1 bottom-up/best not of sbs")
    if name == "creature":
        if p61.get("neck_twist_deg") != 90 or p61.get("neck_joint") != 10:
            errs.append(f"{name}: Table 6.1 posture without the 90 deg twist of neck joint 10: {p61.get('posture')}")
        if not p61["pose_strength_rad"] > ds["pose_strength_rad"] + 1.0:
            errs.append(f"{name}: twisted posture no stronger than the walk pose")
        if p61["levels"][0]["linear"]["avg"] == ds["levels"][0]["linear"]["avg"]:
            errs.append(f"{name}: Table 6.1 levels equal Table 5.2's")
for e in errs: print("FAIL:", e)
sys.exit(1 if errs else 0)
PY
[ "$fail" -eq 0 ] && echo "sbs_centres: ok"
exit "$fail"
