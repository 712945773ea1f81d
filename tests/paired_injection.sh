#!/usr/bin/env bash
# A planted slow-down moves Figure 18's ratio by what was planted: QB's
# double kernel gets 15 % more real work (SKB_INJECT_SLOWDOWN=qb:15: its
# skin runs again over 15 % of the vertices, its prepare once per 6.7
# deformations), and the report's Figure 18 ratio QB / LBS on bcn_human —
# timed against LBS (common/skb_timing.h) — moves by 15 ± 3 % against the
# same kernel left alone (SKB_INJECT_TWIN=1: "qb+uninjected").  The two
# are timed in one trio with LBS (skb_time_trio: LBS, QB and the twin back
# to back, the six orders in turn), so the move is read trio by trio: a
# neighbour's memory traffic changes QB / LBS (LBS is memory-bound, QB is
# not) but not QB over its twin.  Two rows timed one after the other under
# `make check`'s other test read +26.6 % once (CI).  The injected row's
# judged interval (the pairs' widened by the A/A floor or the declared
# minimum) must leave out the unchanged estimate.  A ratio of timings in one
# run, never an absolute time; a sitting whose own interval of the move is
# wider than the +-3 % asked, or whose own A/A floor is above 6 % (the
# judged interval is widened by it: a 2-vCPU VM whose sibling the host kept
# busy gave [1.17, 2.83] around 1.82), cannot decide it and is timed again
# (three at most).
source "$(dirname "$0")/lib/preamble.sh"

# one attempt: its exit 0 (15 +- 3 % read, the interval leaving out the
# unchanged estimate), 1 (read otherwise in an undisturbed sitting: the
# test fails) or 4 (the sitting was disturbed: the trio-by-trio interval of
# the move is wider than +-3 %, or its A/A floor above 6 %, so no
# reading decides; up to three sittings are tried, and three disturbed ones
# fail)
attempt() {
  local d="$tmp/r$1"
  SKB_INJECT_SLOWDOWN=qb:15 SKB_INJECT_TWIN=1 "$exe" run cpu --datasets bcn_human --methods linear,qb --quiet \
    --out "$d" 2>"$tmp/err" && "$exe" report --results "$d" --no-plots >/dev/null 2>>"$tmp/err" \
    || { echo "run cpu / report: $(head -c 300 "$tmp/err")"; return 1; }
  python3 - "$d" <<'PY'
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
prow = {q["kernel"]: q for q in cpu["datasets"]["bcn_human"]["paired"]["rows"]
        if q["control"] == "linear" and q["treatment"] == "positions"}
if "qb+uninjected" not in prow or prow["qb"].get("timed_with") != "qb+uninjected":
    raise SystemExit("no qb / linear row timed with qb+uninjected")
q, b = prow["qb"], prow["qb+uninjected"]["ratio"]
moved = q["over_timed_with"] - 1
print("QB / LBS on bcn_human, positions: left alone %.4g, injected %.4g [%.4g, %.4g] (judged: %r); "
      "moved, trio by trio: %+.1f %% [%+.1f, %+.1f] (the estimates' quotient: %+.1f %%)"
      % (b, inj["measured"], inj["paired_interval"][0], inj["paired_interval"][1], inj["interval"], 100 * moved,
         100 * (q["over_timed_with_ci_low"] - 1), 100 * (q["over_timed_with_ci_high"] - 1),
         100 * (inj["measured"] / b - 1)))
if q["over_timed_with_ci_high"] / q["over_timed_with_ci_low"] > 1.06:
    print("a disturbed sitting: the move's interval is wider than +-3 %; timed again")
    sys.exit(4)
if q.get("aa_floor", 0) > 0.06:
    # the sitting's own A/A (LBS against itself) spread more than +-6 %:
    # the judged interval is widened by it, as the engine must, and this
    # sitting cannot resolve the 15 % it is asked to
    print("a disturbed sitting: this sitting's A/A floor is %.1f %%; timed again" % (100 * q["aa_floor"]))
    sys.exit(4)
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
}

for n in 1 2 3; do
  attempt "$n"; rc=$?
  [ "$rc" -ne 4 ] && break
done
[ "$rc" -eq 0 ] && ok "Figure 18's QB / LBS moves by 15 ± 3 % with 15 % planted, its interval leaving out the unchanged estimate" \
  || bad "planted 15 %: see above"
