#!/usr/bin/env bash
# A planted slow-down moves Figure 18's ratio by what was planted: QB's
# double kernel gets 15 % more real work (SKB_INJECT_SLOWDOWN=qb:15: its
# skin runs again over 15 % of the vertices, its prepare once per 6.7
# deformations), and the report's Figure 18 ratio QB / LBS on bcn_human —
# timed pair by pair against LBS in the same process (common/skb_timing.h)
# — moves by 15 ± 3 %, and the injected run's judged interval (the pairs'
# widened by the A/A floor or the declared minimum) leaves out the
# unchanged run's estimate.  Two runs of each, alternating (B I B I), the
# movement taken between their medians: separate processes differ by a few
# per cent on this shared machine (docs/report-and-regression.md "Timed
# verdicts").  A ratio of two timings, never an absolute time.
source "$(dirname "$0")/lib/preamble.sh"

run() {   # run DIR [INJECTION]
  SKB_INJECT_SLOWDOWN="${2:-}" "$exe" run cpu --datasets bcn_human --methods linear,qb --quiet --out "$1" 2>"$1.err" \
    && "$exe" report --results "$1" --no-plots >/dev/null 2>>"$1.err" \
    || { bad "run cpu / report into $1: $(head -c 300 "$1.err")"; return 1; }
}
for i in 1 2; do
  run "$tmp/base$i" || exit 1
  run "$tmp/inj$i" qb:15 || exit 1
done
python3 - "$tmp" <<'PY' && ok "Figure 18's QB / LBS moves by 15 ± 3 % with 15 % planted, the interval leaving out the old estimate" || bad "planted 15 %: see above"
import json, statistics, sys
d = sys.argv[1]
def row(run):
    for r in json.load(open("%s/%s/report.json" % (d, run)))["rows"]:
        if r["id"].startswith("fig18-") and r["method"] == "qb" and r["dataset"] == "bcn_human":
            return r
    raise SystemExit("%s: no Figure 18 row qb on bcn_human" % run)
base = [row("base%d" % i) for i in (1, 2)]
inj = [row("inj%d" % i) for i in (1, 2)]
b = statistics.median(r["measured"] for r in base)
j = statistics.median(r["measured"] for r in inj)
moved = j / b - 1
print("QB / LBS on bcn_human, positions: unchanged %s, injected %s: moved %+.1f %%"
      % ([round(r["measured"], 4) for r in base], [round(r["measured"], 4) for r in inj], 100 * moved))
errs = []
if not 0.12 <= moved <= 0.18:
    errs.append("moved %+.1f %%, not 15 ± 3 %%" % (100 * moved))
for r in inj:
    lo = r["interval"][0]
    if not lo > max(x["measured"] for x in base):
        errs.append("injected interval %r does not leave out the unchanged estimates" % (r["interval"],))
    if not r.get("floor", 0) > 0 or "paired_interval" not in r:
        errs.append("the row does not carry its pairs' interval and floor: %r" % r)
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
PY
