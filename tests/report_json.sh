#!/usr/bin/env bash
# End-to-end: `skinbench report` writes report.json beside report.md/html:
# schema_version, counts per status equal to the CLI summary line and to the
# rows, and every row's status decided again here from its own fields (rule
# band, interval, trivial band, setup) by an independent reading of the rule
# vocabulary (reports/reference.json tolerance_rules); every "differs" and
# "differs (setup)" row has a cause.  A user's model (results carrying
# "user_dataset", run --dataset) yields no reproduced / differs / differs
# (setup) / inconclusive row, and no headline claim reads "mixed" for it.
source "$(dirname "$0")/lib/preamble.sh"

check() {   # check RESULTS_DIR OUT_DIR [user]
    "$exe" report --results "$1" --out "$2" --no-plots >"$2.out" 2>"$2.err" || { bad "report $1: exit $? ($(head -c 300 "$2.err"))"; return; }
    [ -f "$2/report.json" ] || { bad "no report.json in $2"; return; }
    python3 - "$2/report.json" "$2.out" "${3:-}" <<'PY' && ok "report.json of $1: statuses recomputed" || bad "report.json of $1"
import json, math, re, sys
doc = json.load(open(sys.argv[1]))
summary = open(sys.argv[2]).read()
user = sys.argv[3] == "user"
errs = []
if doc.get("schema_version") != 1: errs.append("schema_version %r" % doc.get("schema_version"))
counts = doc["counts"]
rows = doc["rows"]
seen = {}
for r in rows: seen[r["status"]] = seen.get(r["status"], 0) + 1
for k, v in counts.items():
    if seen.get(k, 0) != v: errs.append("count %s: %d, rows %d" % (k, v, seen.get(k, 0)))
    if not re.search(r"(?<![0-9])%d %s(?=[,;])" % (v, re.escape(k)), summary): errs.append("CLI summary lacks '%d %s'" % (v, k))
for k in ("reproduced (trivial)", "inconclusive", "differs (setup)"):
    if k not in counts: errs.append("no count for " + k)
def num(x):
    return {"inf": math.inf, "-inf": -math.inf}.get(x, x) if isinstance(x, str) else x
judged = 0
for r in rows:
    for k in ("id", "seed", "where", "method", "dataset", "variant", "measured", "interval", "paper", "rule", "margin", "status", "cause"):
        if k not in r: errs.append("%s lacks %s" % (r.get("id"), k))
    st, rule = r["status"], r["rule"]
    if st in ("differs", "differs (setup)") and not (r["cause"] or "").strip():
        errs.append("%s: %s without a cause" % (r["id"], st))
    if rule is None:
        if st in ("reproduced", "differs", "differs (setup)", "inconclusive", "reproduced (trivial)"):
            errs.append("%s: %s but no rule" % (r["id"], st))
        continue
    judged += 1
    m, p = r["measured"], r["paper"]
    lo, hi = [num(x) for x in (r["interval"] or [m, m])]
    # a ratio timed pair by pair: its interval is the pairs' widened by its floor
    pv, fl = r.get("paired_interval"), r.get("floor")
    if pv and isinstance(fl, (int, float)) and not (abs(lo - pv[0] / (1 + fl)) <= 1e-9 * lo and abs(hi - pv[1] * (1 + fl)) <= 1e-9 * hi):
        errs.append("%s: interval %r is not the pairs' %r widened by %r" % (r["id"], r["interval"], pv, fl))
    lo, hi = min(lo, m), max(hi, m)
    blo, bhi = num(rule["band"][0]), num(rule["band"][1])
    t = rule.get("trivial_band", 0)
    pv = p[1] if isinstance(p, list) else p
    if t > 0 and abs(lo - 1) <= t and abs(hi - 1) <= t and abs(pv - 1) <= t: want = "reproduced (trivial)"
    elif blo <= lo and hi <= bhi: want = "reproduced"
    elif hi < blo or lo > bhi: want = "differs (setup)" if rule["setup"] else "differs"
    else: want = "inconclusive"
    if want != st: errs.append("%s (%s %s): status %s, its fields say %s" % (r["id"], r["where"], r["method"], st, want))
    margin = min(m - blo, bhi - m)
    if r["margin"] is not None and abs(num(r["margin"]) - margin) > 1e-9 * max(1, abs(margin)):
        errs.append("%s: margin %r, fields say %r" % (r["id"], r["margin"], margin))
    if st == "differs (setup)" and "here" not in r["cause"]:
        errs.append("%s: setup cause names no measured driver: %s" % (r["id"], r["cause"][:120]))
if user:
    for r in rows:
        if r["status"] in ("reproduced", "differs", "differs (setup)", "inconclusive", "reproduced (trivial)"):
            errs.append("user model: %s is %s" % (r["id"], r["status"]))
    for h in doc["headline"]:
        if h["status"] == "mixed": errs.append("user model: headline '%s' mixed" % h["claim"])
elif judged < 20:
    errs.append("only %d judged rows" % judged)
if errs:
    print("\n".join(errs[:30]))
    sys.exit(1)
PY
}

check tests/fixtures/run-a "$tmp/a"
# the same results as a user's model: nothing judged against a paper
cp -r tests/fixtures/run-a "$tmp/user"
python3 - "$tmp/user" <<'PY'
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/*.json"):
    d = json.load(open(f))
    if isinstance(d, dict) and "schema_version" in d and "seed" in d:
        d["user_dataset"] = "/tmp/toy.fbx"
        json.dump(d, open(f, "w"))
PY
check "$tmp/user" "$tmp/u" user
grep -q "not judged against a paper" "$tmp/u/report.md" && ok "user-model rows say why" || bad "user-model rows do not say why"
# report.json carries every cell the page shows: the FLOP fit and the Table
# 4.1 verdicts as text, each equal to its report.md cell
python3 - "$tmp/a/report.json" "$tmp/a/report.md" <<'PY' && ok "report.json: the FLOP fits and Table 4.1's '+ / -' cells as the page shows them" || bad "report.json cells"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
md = open(sys.argv[2], encoding="utf-8").read()
fl = [r for r in rows if r["id"].startswith("flops-") and r["method"] == "dlb"]
t41 = [r for r in rows if r["id"].startswith("table41-") and r["method"] == "dlb"]
assert fl and "n" in fl[0]["cells"]["measured a·n + b"], fl
assert t41 and all(v in ("+ / +", "+ / -", "- / +", "- / -") for k, v in t41[0]["cells"].items() if k != "method"), t41
for r in fl + t41:
    line = "| " + " | ".join(r["cells"].values()) + " |"
    assert line in md, line
PY
exit $fail
