#!/usr/bin/env bash
# End-to-end: `skinbench run spheres cd --quick` records where each way's
# time went.  cd.json: per scenario and method, the wall-clock
# split (prepare + query = on-demand; prepare, skin, refit + query =
# bottom-up) adds up to the judged times, the thread CPU times and the
# re-timed on-demand refits are there, and the load average of the run;
# spheres.json: the per-sphere refit times are the fastest pass (the
# estimator is named, both repetition counts given), so the report can set
# them beside cd.json's best-of frames.  No time is compared with a bound.
. "$(dirname "$0")/lib/preamble.sh"
"$exe" run spheres cd --quick --quiet --out "$tmp" 2>"$tmp/err" || { echo "FAIL: run spheres cd --quick: $(head -c 300 "$tmp/err")"; exit 1; }
python3 - "$tmp/cd.json" "$tmp/spheres.json" <<'PY' || fail=1
import json, math, sys
cd, sp = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
errs = []
for k in ("load_average_at_start", "load_average_at_end"):
    if not isinstance(cd.get(k, {}).get("online_cores"), (int, float)):
        errs.append(f"cd.json: {k}.online_cores missing")
keys = ("on_demand_prepare_ms", "on_demand_query_ms", "bottom_up_prepare_skin_refit_ms", "bottom_up_query_ms",
        "on_demand_cpu_ms", "bottom_up_cpu_ms", "on_demand_prepare_cpu_ms", "bottom_up_prepare_skin_refit_cpu_ms",
        "on_demand_refit_cpu_ms_retimed", "on_demand_skin_cpu_ms_retimed")
def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
n = 0
for sc, s in cd["scenarios"].items():
    for m, r in s["methods"].items():
        miss = [k for k in keys if not isinstance(r.get(k), (int, float)) or r[k] < 0]
        if miss:
            errs.append(f"{sc}/{m}: missing or negative {miss}"); continue
        n += 1
        # 002 Fig. 6's one frame: the deepest contact has at least the average's colliding pairs
        df = r.get("deepest_frame")
        if not df or df["colliding_pairs"] * 1.0 < r.get("colliding_pairs", 0) - 1e-9 \
           or len(df["refitted_share_by_level_on_demand"]) != len(r["refitted_share_by_level_on_demand"]):
            errs.append(f"{sc}/{m}: deepest_frame {df}")
        if not close(r["on_demand_prepare_ms"] + r["on_demand_query_ms"], r["on_demand_ms"]):
            errs.append(f"{sc}/{m}: on-demand split {r['on_demand_prepare_ms']} + {r['on_demand_query_ms']} != {r['on_demand_ms']}")
        if not close(r["bottom_up_prepare_skin_refit_ms"] + r["bottom_up_query_ms"], r["bottom_up_ms"]):
            errs.append(f"{sc}/{m}: bottom-up split does not add up to {r['bottom_up_ms']}")
        if r["spheres_refitted_on_demand"] > 0 and not r["on_demand_refit_cpu_ms_retimed"] > 0:
            errs.append(f"{sc}/{m}: spheres refitted on demand but no re-timed refit time")
if n == 0:
    errs.append("cd.json: no scenario method")
# thesis 5.4: rigid-body CD on rebuilt trees beside the rigid series' level 0
if cd.get("scaling_setup", {}).get("rigid"):
    rr = cd["scaling"][0].get("rigid_rebuilt_tree", {})
    if not (isinstance(rr.get("query_ms"), (int, float)) and rr["query_ms"] > 0 and rr.get("colliding_pairs") == cd["scaling"][0].get("collisions")):
        errs.append(f"scaling[0]: rigid_rebuilt_tree {rr!r}")
# SBS on demand solves a joint set's centre when one of its spheres is refitted,
# timed beside SBS with every centre solved in prepare; both count the centres
for sc, s in cd["scenarios"].items():
    lz, eg = s["methods"].get("sb"), s["methods"].get("sb+all_centres")
    if lz is None:
        continue
    if eg is None:
        errs.append(f"{sc}: sb without sb+all_centres"); continue
    a, b = lz.get("sbs_centres_solved_on_demand"), eg.get("sbs_centres_solved_on_demand")
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and 0 <= a <= b):
        errs.append(f"{sc}: sbs centres solved on demand {a!r}, all {b!r}")
    if "on demand" not in lz.get("centres", "") or "every" not in eg.get("centres", ""):
        errs.append(f"{sc}: sbs centres mode not stated")
for name, ds in sp["datasets"].items():
    for m, rt in ds.get("refit_time", {}).items():
        if "fastest single pass" not in rt.get("estimator", "") or "CPU time" not in rt["estimator"] or not rt.get("repetitions_bottom_up", 0) >= 1:
            errs.append(f"spheres.json {name}/{m}: refit_time without the fastest-pass estimator")
for e in errs: print("FAIL:", e)
sys.exit(1 if errs else 0)
PY
[ "$fail" -eq 0 ] && echo "cd_split: ok"
exit "$fail"
