#!/usr/bin/env bash
# The report's plots say what they show: times on a log scale as
# medians with interquartile bars (the quartiles recomputed here from the
# repetitions), a ratio-to-LBS plot with DQ paper Fig. 18 as its last
# column, a distinct colour + marker for each of 20 series, axis labels,
# display names instead of JSON keys, degrees and % of α_ε on separate
# axes, the paper's values (from reports/reference.json, never from
# plots.c) overlaid, sphere radii as ratios to the reference, GPU images
# captioned by method, scene and joint angle.  Bounds and spheres come from a real quick
# run; cpu and gpu results are synthetic with known repetitions.
# Skipped when gnuplot is not installed.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
here=$PWD/tests
ref="$here/../reports/reference.json"
if ! command -v gnuplot >/dev/null; then echo "skip: gnuplot not installed"; exit 0; fi

"$exe" run bounds spheres --quick --quiet --out "$tmp/run" || bad "run bounds spheres failed"
python3 - "$here/fixtures/run-a" "$tmp/run" <<'EOF'
import json, shutil, sys, os
fx, run = sys.argv[1], sys.argv[2]
# 20 series: the registry's methods, DIB precisions and made-up keys
ser = ["linear", "qlb0", "sb", "logm", "dlb", "dib", "qb", "dlb_scale", "dib@p=0.001", "dib@p=1e-07"] + \
      ["extra_%02d" % i for i in range(10)]
c = json.load(open(fx + "/cpu.json"))
c["datasets"] = {}
bench = []
for di, ds in enumerate(["arm", "body"]):
    ms = {}
    for si, s in enumerate(ser):
        reps = [(1 + si) * (10 ** (2 * di)) * f for f in (0.9, 1.0, 1.1, 1.5, 2.0)]   # ms
        ms[s] = sorted(reps)[2]
        for r in reps:
            bench.append({"name": "double/%s/%s" % (s, ds), "run_name": "double/%s/%s" % (s, ds),
                          "run_type": "iteration", "cpu_time": r * 1e6, "real_time": r * 1e6, "time_unit": "ns"})
    c["datasets"][ds] = {"vertices": 100, "joints": 2, "ms": ms,
                         "ratio_to_linear": {s: ms[s] / ms["linear"] for s in ser}}
# the synthetic files join the real run: its machine, seed, run id and binary (a file of
# another run would be refused), and its manifest goes (the folder is no longer what it lists)
real = json.load(open(run + "/bounds.json"))
ident = {k: real[k] for k in ("machine", "seed", "run_id", "binary_sha256") if k in real}
c.update(ident)
json.dump(c, open(run + "/cpu.json", "w"))
g = json.load(open(fx + "/cpu-gbench.json"))
g["benchmarks"] = bench
g["context"].update({"skinbench_seed": str(real["seed"]), "skinbench_run_id": real.get("run_id", "")})
json.dump(g, open(run + "/cpu-gbench.json", "w"))
gp = json.load(open(fx + "/gpu.json"))
# the caption as the harness writes it (harness/exp_gpu.c states the pose it drew)
gp["images"] = [{"scene": "candy_wrapper", "dataset": "arm", "pose": 3, "shader": "dlb_pivot",
                 "caption": "arm, elbow twisted 180°", "file": "images/candy_wrapper_dlb_pivot.png"}]
gp["shaders"] = [{"name": "dlb_pivot", "title": "DLB'"}]   # display names come from gpu.json, as in a real run
os.makedirs(run + "/images", exist_ok=True)
shutil.copy(fx + "/images/candy-wrapper-dlb.png", run + "/images/candy_wrapper_dlb_pivot.png")
gp.update(ident)
json.dump(gp, open(run + "/gpu.json", "w"))
os.remove(run + "/manifest.json")
EOF
"$exe" report --results "$tmp/run" --out "$tmp/rep" >"$tmp/out" 2>&1 || bad "report failed: $(tail -2 "$tmp/out")"
P="$tmp/rep/plots"
for n in cpu-times cpu-ratio bounds-qlb-slerp-curve bounds-dlb-sclerp-curve bounds-logm-speed dib-iterations sphere-radii-creature; do
  [ -s "$P/$n.png" ] && [ ! -s "$P/$n.log" ] && ok || bad "$n: no PNG or gnuplot complained: $(head -3 "$P/$n.log" 2>/dev/null)"
done
grep -q "^set logscale y" "$P/cpu-times.gp" && ok || bad "cpu-times: not on a log scale"

python3 - "$P" "$ref" "$tmp/run" "$here/../reports/plots.c" "$tmp/rep/report.md" <<'EOF'; rc=$?
import json, re, sys
P, ref, run, src, md = sys.argv[1:6]
R = json.load(open(ref))
errs = []
def gp(n): return open("%s/%s.gp" % (P, n)).read().split("set output '%s.svg'" % n)[0]
def dat(n): return [l.split() for l in open("%s/%s.dat" % (P, n)) if l.strip() and not l.startswith("#")]
def titles(script): return re.findall(r"title '((?:[^']|'')*)'", script.split("\nplot ", 1)[1])
def q(x, p):   # type-7 quantile
    x = sorted(x); h = (len(x) - 1) * p; lo = int(h)
    return x[lo] + (h - lo) * (x[min(lo + 1, len(x) - 1)] - x[lo])

# medians and quartiles of the repetitions, per series, in plot order
c = json.load(open(run + "/cpu.json")); g = json.load(open(run + "/cpu-gbench.json"))
s = gp("cpu-times"); ser = list(c["datasets"]["arm"]["ms"])
rows = dat("cpu-times")
for ri, ds in enumerate(["arm", "body"]):
    for si, m in enumerate(ser):
        reps = [b["cpu_time"] / 1e6 for b in g["benchmarks"] if b["name"] == "double/%s/%s" % (m, ds)]
        got = [float(v) for v in rows[ri][1 + 3 * si: 4 + 3 * si]]
        want = [c["datasets"][ds]["ms"][m], q(reps, .25), q(reps, .75)]
        if any(abs(a - b) > 1e-9 * b for a, b in zip(got, want)):
            errs.append("cpu-times %s/%s: median, q1, q3 %s, want %s" % (ds, m, got, want))
if "with yerrorbars" not in s or "interquartile" not in open("%s/%s.gp" % (P, "cpu-times")).read():
    errs.append("cpu-times: no interquartile bars")
# 20 series: 20 distinct colours, and distinct (colour, marker) pairs
st = re.findall(r"lc rgb '(#[0-9a-f]{6})' pt (\d+)", s.split("\nplot ", 1)[1])
if len(st) != 20 or len(set(c for c, _ in st)) != 20 or len(set(st)) != 20:
    errs.append("cpu-times: %d series styles, %d colours (want 20 distinct)" % (len(st), len(set(c for c, _ in st))))
t = titles(s)
for want in ["LBS (linear)", "DIB (precision 0.001)", "DLB", "extra_00"]:
    if want not in t: errs.append("cpu-times: legend lacks %r (%s)" % (want, t[:5]))
if not re.search(r"set ylabel '[^']*ms[^']*log", s): errs.append("cpu-times: no y label with ms and log scale")
# ratio plot: last row = Fig. 18 ratios from reference.json
r = gp("cpu-ratio"); rr = dat("cpu-ratio")
f18 = R["figure_18"]["ratio_to_linear"]
for si, m in enumerate(ser):
    v = rr[-1][1 + 3 * si]
    if m in f18 and abs(float(v) - f18[m]) > 1e-9: errs.append("cpu-ratio: paper %s %s, want %s" % (m, v, f18[m]))
    if m not in f18 and v != "?": errs.append("cpu-ratio: paper value %s for %s, which Fig. 18 lacks" % (v, m))
if abs(float(rr[1][1 + 3 * 5]) - c["datasets"]["body"]["ms"]["dib"] / c["datasets"]["body"]["ms"]["linear"]) > 1e-9:
    errs.append("cpu-ratio: body dib is not its time over LBS's")
if "Fig. 18" not in r or "set logscale y" not in r: errs.append("cpu-ratio: no log scale or Fig. 18 column")

# bound curves: y labels, paper markers from reference.json, degrees and % apart
E = {e["id"]: e for e in R["bounds"]["entries"]}
b = gp("bounds-qlb-slerp-curve")
pp = dat("bounds-qlb-slerp-curve-paper")
want = [(E["qlb_slerp_argmax_t"]["paper"], E["qlb_slerp_angle"]["paper"]), (E["qlb_slerp_argmax_t"]["alt_paper"], E["qlb_slerp_angle"]["paper"])]
if [(float(a), float(b_)) for a, b_ in pp] != want: errs.append("qlb curve: paper markers %s, want %s" % (pp, want))
if "set ylabel 'rotation-angle gap (degrees)'" not in b: errs.append("qlb curve: no y label in degrees")
if "angle_gap_deg" in " ".join(titles(b)): errs.append("qlb curve: raw JSON key in the legend")
d = gp("bounds-dlb-sclerp-curve")
if not re.search(r"using 1:3 axes x1y2[^,]*title 'translation gap", d) or "set y2label 'translation gap along the axis (% of" not in d:
    errs.append("dlb curve: the % series is not on its own labelled axis")
if re.search(r"curve.dat' using 1:2 axes x1y2", d): errs.append("dlb curve: degrees on the % axis")
dp = [l for l in open(P + "/bounds-dlb-sclerp-curve-paper.dat").read().split("\n\n\n") if l.strip()]
if abs(float(dp[1].split()[1]) - 100 * E["dlb_sclerp_translation"]["paper"]) > 1e-9: errs.append("dlb curve: paper translation not in %")
l = dat("bounds-logm-speed-paper")
if [(float(a), float(b_)) for a, b_ in l] != [(0, E["logm_speed_t0"]["paper"]), (1, E["logm_speed_t1"]["paper"])]:
    errs.append("logm curve: paper markers %s" % l)
# the paper values are read, not typed: none of them in plots.c
code = open(src).read()
for v in ["8.15", "0.2386", "0.95885", "0.96022", "1.38", "2.95"]:
    if v in code: errs.append("plots.c contains the paper value %s" % v)

# spheres: avg / reference per level, Tables 5.2 / 6.1 overlaid as ratios
sp = json.load(open(run + "/spheres.json"))["datasets"]["creature"]["levels"]
s = gp("sphere-radii-creature"); sd = dat("sphere-radii-creature")
ser = [k for k in sp[0] if isinstance(sp[0][k], dict) and "avg" in sp[0][k] and k != "reference"]
for li, lv in enumerate(sp):
    for si, m in enumerate(ser):
        if m in lv and abs(float(sd[li][1 + si]) - lv[m]["avg"] / lv["reference"]["avg"]) > 1e-6:
            errs.append("spheres level %d %s: %s is not avg / reference" % (li + 1, m, sd[li][1 + si]))
if "reference radius (dimensionless)" not in s or "model units" not in s: errs.append("spheres: no ratio label / units")
t52 = R["spheres"]["table_5_2"]
blk = [l for l in open(P + "/sphere-radii-creature-paper.dat").read().split("\n\n\n") if l.strip()][0].split("\n")
if abs(float(blk[0].split()[1]) - t52["linear"][0] / t52["reference"][0]) > 1e-6: errs.append("spheres: Table 5.2 LBS ratio overlay wrong")
if "paper Table 5.2: LBS (linear)" not in titles(s): errs.append("spheres: no paper overlay in the legend")

# GPU images: captioned by method and scene
if "DLB' — candy wrapper (arm, elbow twisted 180°)" not in open(md).read(): errs.append("GPU image not captioned by method, scene and angle")
for e in errs: print("FAIL:", e)
sys.exit(1 if errs else 0)
EOF
[ "$rc" -eq 0 ] && ok || bad "plot contents (above)"
# a "not plotted: M (why)" note never names a method the plot draws: a series
# titled M, "... (M)" or M's refit key (`list methods`: sphere refit ("KEY"))
"$exe" list methods > "$tmp/methods.txt"
python3 - "$tmp/rep/report.md" "$tmp/rep/plots" "$tmp/methods.txt" <<'EOF' && ok || bad "a 'not plotted' note names a drawn method (above)"
import re, sys, os
md, plots, listing = open(sys.argv[1]).read().splitlines(), sys.argv[2], open(sys.argv[3]).read()
keys, cur = {}, None
for line in listing.splitlines():
    m = re.match(r"^  (\w+)\s", line)
    if m: cur = m.group(1); keys[cur] = {cur.lower()}
    r = re.search(r'sphere refit \("(\w+)"\)', line)
    if r and cur: keys[cur].add(r.group(1).lower())
stem, errs, notes = None, [], 0
for line in md:
    m = re.search(r"\(plots/([\w.-]+)\.png\)", line)
    if m: stem = m.group(1)
    if line.startswith("not plotted: ") and stem:
        notes += 1
        titles = [t.lower() for t in re.findall(r"title '((?:[^']|'')*)'", open(os.path.join(plots, stem + ".gp")).read())]
        for meth in re.findall(r"(?:^not plotted: |, )(\w+) \(", line):
            for t in titles:
                if t in keys.get(meth, {meth}) or t.endswith("(%s)" % meth):
                    errs.append("%s: note names %s, drawn as '%s'" % (stem, meth, t))
if not notes: errs.append("no 'not plotted' note found to check")
for e in errs: print(e)
sys.exit(1 if errs else 0)
EOF

summary plots
