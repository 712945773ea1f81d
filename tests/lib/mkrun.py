#!/usr/bin/env python3
"""mkrun.py — a synthetic complete run folder for the store and nightly
tests (tests/store.sh, tests/history.sh, scripts/store-year.sh): every
results file of tests/fixtures/run-a (made-up test inputs, marked "fixture")
with its metadata set to this run (machine key, seed, run id, binary), a
cpu-gbench.json and an icount.json of chosen benchmarks whose times and
counts carry planted factors, and the manifest.json `run` writes last
(reports/run_manifest.c: the same fields, the files' SHA-256).  Every number
is a test input, never a measurement.

  mkrun.py OUT [--machine KEY] [--seed N] [--run-id HEX] [--stamp ISO] [--rev SHA]
               [--binary FILE] [--methods a,b] [--datasets x,y] [--variants N] [--reps N]
               [--time METHOD=FACTOR]... [--icount METHOD=FACTOR]... [--load F]
               [--noise SD] [--rng N] [--unverified] [--omit FILE]... [--no-manifest]
               [--unit UNIT] [--quick] [--injected SPEC] [--failed EXPERIMENT] [--legacy]
--legacy: as skinbench wrote runs before manifests (no run id or binary in the files, no manifest)
"""
import argparse, hashlib, json, math, os, random, shutil, sys, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures", "run-a")
# every registered results file and its experiment (reports/experiment_list.c)
FILES = {"properties.json": "properties", "flops.json": "flops", "bounds.json": "bounds", "cpu.json": "cpu",
         "cpu-gbench.json": "cpu", "gpu.json": "gpu", "spheres.json": "spheres", "cd.json": "cd",
         "icount.json": "icount", "sad.json": "sad", "artifacts.json": "artifacts"}
EXPERIMENTS = ["properties", "flops", "bounds", "cpu", "gpu", "spheres", "cd", "icount", "sad", "artifacts"]
VARIANTS = ["", "@slot4", "+nrm_none", "@2t", "+alg2", "@slot8", "+nrm_fast", "@4t"]


def factors(pairs):
    out = {}
    for p in pairs or []:
        m, f = p.split("=")
        out[m] = float(f)
    return out


def names(a, datasets):
    return [f"{k}/{m}{v}/{ds}" for m in a.methods.split(",") for ds in datasets
            for k in ("double", "f32") for v in VARIANTS[:a.variants]]


def base_of(name, lo, hi):
    """a fixed base value per name (its CRC), the same on every night"""
    return lo + (zlib.crc32(name.encode()) % 1000) / 1000.0 * (hi - lo)


def method_of(name):
    return name.split("/")[1].split("@")[0].split("+")[0]


def meta(doc, a, exp):
    doc["seed"] = a.seed
    doc["experiment"] = exp
    doc["machine"]["key"] = a.machine
    doc["run_id"] = a.run_id
    doc["binary_sha256"] = a.binsha
    doc["started_utc"] = a.stamp
    doc["quick"] = a.quick
    if a.injected:
        doc["injected"] = a.injected
    if a.legacy:
        del doc["run_id"], doc["binary_sha256"]
    return doc


def gbench(a, rng):
    tf = factors(a.time)
    rows = []
    for n in names(a, a.datasets.split(",")):
        base = base_of(n, 2e5, 4e6) * tf.get(method_of(n), 1.0) * a.load * math.exp(rng.gauss(0, a.noise))
        for r in range(a.reps):
            t = base * math.exp(rng.gauss(0, a.noise / 2))
            rows.append({"name": n, "run_name": n, "run_type": "iteration", "repetitions": a.reps,
                         "repetition_index": r, "iterations": 10, "real_time": t, "cpu_time": t,
                         "time_unit": "ns"})
    if a.unit:
        rows[0]["time_unit"] = a.unit
    ctx = {"date": a.stamp, "num_cpus": 2, "library_build_type": "debug", "skinbench_seed": str(a.seed),
           "skinbench_experiment": "cpu", "skinbench_run_id": a.run_id}
    if a.legacy:
        del ctx["skinbench_run_id"]
    return {"context": ctx, "benchmarks": rows}


def icount(a):
    cf = factors(a.icount)
    doc = meta(json.load(open(os.path.join(FIX, "icount.json"))), a, "icount")
    ds = a.datasets.split(",")[:2]
    doc["kernels"] = {n: round(base_of(n, 1e5, 3e6) * cf.get(method_of(n), 1.0), 2) for n in names(a, ds)}
    return doc


def manifest(a, out):
    files = {}
    for f in sorted(os.listdir(out)):
        if f in FILES:
            b = open(os.path.join(out, f), "rb").read()
            d = json.loads(b)
            files[f] = {"experiment": FILES[f], "schema_version": d.get("schema_version", 0) if f != "cpu-gbench.json"
                        else None, "bytes": len(b), "sha256": hashlib.sha256(b).hexdigest()}
            if files[f]["schema_version"] is None:
                del files[f]["schema_version"]
    return {"manifest_version": 1, "run_id": a.run_id, "started_utc": a.stamp, "finished_utc": a.stamp,
            "seed": a.seed, "quick": a.quick, "machine": {"key": a.machine},
            "binary": {"sha256": a.binsha, "git_rev": a.rev, "git_describe": a.rev[:7], "compiler": "gcc fixture"},
            "experiments": {e: ("failed: planted by the test" if e == a.failed else "ok") for e in EXPERIMENTS},
            "files": files, "complete": not a.failed,
            "problems": [f"experiment {a.failed}: failed: planted by the test"] if a.failed else []}


def parser():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--machine", default="fixture-host/2-core")
    p.add_argument("--seed", type=int, default=20070601)
    p.add_argument("--run-id")
    p.add_argument("--stamp", default="2026-01-01T03:00:00Z")
    p.add_argument("--rev", default="0" * 40)
    p.add_argument("--binary")
    p.add_argument("--methods", default="linear,dlb,qb,sb,dib,logm")
    p.add_argument("--datasets", default="cloth,arm")
    p.add_argument("--variants", type=int, default=1)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--time", action="append")
    p.add_argument("--icount", action="append")
    p.add_argument("--load", type=float, default=1.0)
    p.add_argument("--noise", type=float, default=0.02)
    p.add_argument("--rng", type=int, default=1)
    p.add_argument("--unverified", action="store_true")
    p.add_argument("--omit", action="append", default=[])
    p.add_argument("--no-manifest", action="store_true")
    p.add_argument("--unit")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--injected")
    p.add_argument("--failed")
    p.add_argument("--legacy", action="store_true")
    return p


def make(a):
    """write the run a describes (parser()'s namespace) into a.out"""
    a.no_manifest = a.no_manifest or a.legacy
    rng = random.Random(a.rng)
    a.run_id = a.run_id or "%032x" % random.Random(str(a.rng) + a.machine + a.stamp).getrandbits(128)
    a.binsha = hashlib.sha256(open(a.binary, "rb").read()).hexdigest() if a.binary else "0" * 64
    os.makedirs(a.out, exist_ok=True)
    for f, exp in FILES.items():
        if f in a.omit:
            continue
        if f == "cpu-gbench.json":
            doc = gbench(a, rng)
        elif f == "icount.json":
            doc = icount(a)
        else:
            doc = meta(json.load(open(os.path.join(FIX, f))), a, exp)
            if f == "cpu.json":
                doc["verified"] = not a.unverified
        json.dump(doc, open(os.path.join(a.out, f), "w"))
    if os.path.isdir(os.path.join(FIX, "images")) and not os.path.exists(os.path.join(a.out, "images")):
        shutil.copytree(os.path.join(FIX, "images"), os.path.join(a.out, "images"))
    if not a.no_manifest:
        json.dump(manifest(a, a.out), open(os.path.join(a.out, "manifest.json"), "w"))


if __name__ == "__main__":
    sys.exit(make(parser().parse_args()))
