#!/usr/bin/env bash
# Summarise the trials of scripts/gate-trials*.sh in DIR/trials.tsv into
# DIR/gate-validation.json (per kind: trials, injected method detected, any
# regression reported, inconclusive, mean sitting seconds; the icount gate
# on the same injections) and print it.  `compare --validation FILE` and
# scripts/nightly.sh (results/gate-validation.json) carry it into
# compare.json.  Usage: scripts/gate-summary.sh DIR [OUT.json]
set -u
dir=${1:?usage: gate-summary.sh DIR [OUT.json]}
dest=${2:-$dir/gate-validation.json}
python3 - "$dir/trials.tsv" "$dest" <<'PY'
import csv, json, os, stat, sys, datetime
def die(msg):
    print("gate-summary: " + msg, file=sys.stderr)
    sys.exit(2)
try:
    rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
except OSError as e:
    die("%s: %s" % (sys.argv[1], e.strerror))
need = {"kind", "method", "exit", "detected", "timing_detected", "icount_detected", "any_regression", "flagged", "seconds"}
if not rows or not need <= set(rows[0]):
    die("%s: no trial rows with the columns gate-trials.sh writes" % sys.argv[1])
kinds = {}
for r in rows:
    k = kinds.setdefault(r["kind"], {"trials": 0, "detected": 0, "timing_detected": 0, "icount_detected": 0,
                                     "any_regression": 0, "inconclusive": 0, "pass": 0, "seconds": 0,
                                     "methods": {}, "other_methods_flagged": 0})
    k["trials"] += 1
    for c in ("detected", "timing_detected", "icount_detected", "any_regression"):
        k[c] += r[c] == "1"
    k["inconclusive"] += r["exit"] == "3"
    k["pass"] += r["exit"] == "0"
    k["seconds"] += int(r["seconds"])
    flagged = [f for f in r["flagged"].split(",") if f not in ("-", "")]
    k["other_methods_flagged"] += any(f.replace("icount:", "") != r["method"] for f in flagged)
    if r["method"] != "-":
        m = k["methods"].setdefault(r["method"], {"trials": 0, "detected": 0, "timing_detected": 0})
        m["trials"] += 1
        m["detected"] += r["detected"] == "1"
        m["timing_detected"] += r["timing_detected"] == "1"
for key, k in kinds.items():
    n = k["trials"]
    k["mean_trial_s"] = round(k.pop("seconds") / n, 1)
    if key == "aa":
        for c in ("detected", "timing_detected", "icount_detected", "methods"):
            del k[c]
    else:
        k["detection_rate"] = round(k["detected"] / n, 3)
        k["timing_detection_rate"] = round(k["timing_detected"] / n, 3)
        k["icount_detection_rate"] = round(k["icount_detected"] / n, 3)
# the sitting's rounds, counted in the trials' own directories (DIR/KIND-T/round-K)
tdir = os.path.dirname(os.path.abspath(sys.argv[1]))
rounds = sorted({len([x for x in os.listdir(os.path.join(tdir, d)) if x.startswith("round-")])
                 for d in os.listdir(tdir) if os.path.isdir(os.path.join(tdir, d)) and d[:2] in ("aa", "in")})
out = {"what": "each trial judged as a nightly is: skinbench compare with both builds' instruction counts "
               "(icount.json) and an A/B sitting of `rounds` rounds (--ab). aa: both sides one build, any_regression = a "
               "false alarm; inject:P: side B with SKB_INJECT_SLOWDOWN=METHOD:P (method rotating), detected = "
               "compare names the method (timing_/icount_detected: by that gate alone)",
       "made": datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%MZ"), "source": os.path.abspath(sys.argv[1]),
       "rounds": rounds[0] if len(rounds) == 1 else rounds, "kinds": kinds}
# as root too: never replace a device, FIFO or symlink, never write through one
dest = sys.argv[2]
try:
    if not stat.S_ISREG(os.lstat(dest).st_mode):
        die("%s: exists and is not a regular file; not replaced" % dest)
except FileNotFoundError:
    pass
tmp = "%s.tmp.%d" % (dest, os.getpid())
try:
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w") as f:
        json.dump(out, f, indent=1)
    os.replace(tmp, dest)
except OSError as e:
    die("%s: %s" % (dest, e.strerror))
print(json.dumps(out, indent=1))
PY
