#!/usr/bin/env bash
# A planted slow-down moves Figure 18's ratio by what was planted: QB's
# double kernel gets 15 % more real work (SKB_INJECT_SLOWDOWN=qb:15: its
# skin runs again over 15 % of the vertices, its prepare once per 6.7
# deformations), and the report's Figure 18 ratio QB / LBS on bcn_human —
# timed pair by pair against LBS (common/skb_timing.h) — moves by 15 ± 3 %
# against the same kernel left alone in the same run (SKB_INJECT_TWIN=1:
# "qb+uninjected", timed in the same sitting, so a neighbour's load or a
# faster or slower process shifts both alike), and the injected row's
# judged interval (the pairs' widened by the A/A floor or the declared
# minimum) leaves out the unchanged estimate.  A ratio of two timings in one
# run, never an absolute time.
source "$(dirname "$0")/lib/preamble.sh"

SKB_INJECT_SLOWDOWN=qb:15 SKB_INJECT_TWIN=1 "$exe" run cpu --datasets bcn_human --methods linear,qb --quiet \
  --out "$tmp/r" 2>"$tmp/err" && "$exe" report --results "$tmp/r" --no-plots >/dev/null 2>>"$tmp/err" \
  || { bad "run cpu / report: $(head -c 300 "$tmp/err")"; exit 1; }
python3 - "$tmp/r" <<'PY' && ok "Figure 18's QB / LBS moves by 15 ± 3 % with 15 % planted, its interval leaving out the unchanged estimate" || bad "planted 15 %: see above"
import json, sys
d = sys.argv[1]
rows = json.load(open(d + "/report.json"))["rows"]
def row(method):
    for r in rows:
        if r["id"].startswith("fig18-") and r["method"] == method and r["dataset"] == "bcn_human":
            return r
    raise SystemExit("no Figure 18 row %s on bcn_human" % method)
inj = row("qb")
cpu = json.load(open(d + "/cpu.json"))
base = [q for q in cpu["datasets"]["bcn_human"]["paired"]["rows"]
        if q["kernel"] == "qb+uninjected" and q["control"] == "linear" and q["treatment"] == "positions"]
if not base:
    raise SystemExit("no paired qb+uninjected / linear row")
b, j = base[0]["ratio"], inj["measured"]
moved = j / b - 1
print("QB / LBS on bcn_human, positions: left alone %.4g [%.4g, %.4g], injected %.4g [%.4g, %.4g] (judged: %r): moved %+.1f %%"
      % (b, base[0]["ci_low"], base[0]["ci_high"], j, inj["paired_interval"][0], inj["paired_interval"][1],
         inj["interval"], 100 * moved))
errs = []
if cpu.get("injected_slowdown", {}).get("method") != "qb":
    errs.append("cpu.json does not record the injection: %r" % cpu.get("injected_slowdown"))
if not 0.12 <= moved <= 0.18:
    errs.append("moved %+.1f %%, not 15 ± 3 %%" % (100 * moved))
if not inj["interval"][0] > b:
    errs.append("the injected row's interval %r does not leave out the unchanged estimate %.4g" % (inj["interval"], b))
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
