#!/usr/bin/env python3
"""mkyear.py — a year of synthetic nights for the results store (tests/history.sh
at a few dozen nights, scripts/store-year.sh at 365): NIGHTS nights on each
of MACHINES machine keys, each a complete run folder made by mkrun.py, with
planted steps in instructions and in time, and truth.json listing them.

Noise, as the nightly sees it on a shared VM: every night a machine-wide
load factor (lognormal, sd 3 %; one night in fifty a loaded one, +20 %), and
per benchmark a further 2 % on its median of 5 repetitions; instruction
counts are exact.  A time step is permanent from its night on; an
instruction step may be undone later (a fix), which is a second step.

  mkyear.py DIR [--nights N] [--machines M] [--variants V] [--datasets L] [--methods L]
"""
import argparse, datetime, json, math, os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkrun

# (machine index, method, "time" | "icount", first night as a fraction of the year, factor[, undone at])
PLANTED = [(0, "dlb", "icount", 0.27, 1.10, 0.80), (0, "qb", "time", 0.55, 1.15),
           (1, "sb", "icount", 0.41, 0.92), (1, "linear", "time", 0.30, 1.20),
           (2, "dib", "icount", 0.14, 1.02), (2, "logm", "time", 0.66, 1.12)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("--nights", type=int, default=365)
    p.add_argument("--machines", type=int, default=3)
    p.add_argument("--variants", type=int, default=1)
    p.add_argument("--datasets", default="cloth,arm")
    p.add_argument("--methods", default="linear,dlb,qb,sb,dib,logm")
    a = p.parse_args()
    rng = random.Random(36)
    start = datetime.datetime(2026, 1, 1, 3, 0)
    truth = []
    for m in range(a.machines):
        for pl in PLANTED:
            if pl[0] != m:
                continue
            night = max(3, int(pl[3] * a.nights))
            truth.append({"machine": f"lab-{m}/2-core", "method": pl[1], "measure": pl[2], "night": night, "factor": pl[4]})
            if len(pl) > 5:
                truth.append({"machine": f"lab-{m}/2-core", "method": pl[1], "measure": pl[2],
                              "night": max(night + 3, int(pl[5] * a.nights)), "factor": 1 / pl[4]})
    for m in range(a.machines):
        key = f"lab-{m}/2-core"
        for k in range(a.nights):
            stamp = (start + datetime.timedelta(days=k)).strftime("%Y-%m-%dT%H:%M:%SZ")
            t, c = {}, {}
            for pl in truth:
                if pl["machine"] == key and k >= pl["night"]:
                    d = t if pl["measure"] == "time" else c
                    d[pl["method"]] = d.get(pl["method"], 1.0) * pl["factor"]
            load = math.exp(rng.gauss(0, 0.03)) * (1.2 if rng.random() < 0.02 else 1.0)
            args = mkrun.parser().parse_args([os.path.join(a.dir, key.replace("/", "_"), stamp[:10]),
                                              "--machine", key, "--stamp", stamp, "--rev", ("%08x" % (k + 1)) * 5,
                                              "--rng", str(1000 * m + k), "--variants", str(a.variants),
                                              "--datasets", a.datasets, "--methods", a.methods,
                                              "--load", "%.6f" % load]
                                             + sum((["--time", f"{x}={f:.6f}"] for x, f in t.items()), [])
                                             + sum((["--icount", f"{x}={f:.6f}"] for x, f in c.items()), []))
            mkrun.make(args)
    json.dump(truth, open(os.path.join(a.dir, "truth.json"), "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
