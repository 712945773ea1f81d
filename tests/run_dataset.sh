#!/usr/bin/env bash
# `skinbench run --dataset FILE`: a rigged, animated model that is
# not in the catalogue (FBX/huesitos.fbx, and a glTF 2 file) goes through
# every experiment that can take a mesh — cpu, gpu, spheres, cd and the
# DLB-DIB gap of bounds name it in their results, all from one import of
# the file — while properties and flops say in one line why they cannot; a
# malformed file, a model without an animation, a missing file and a
# directory each get one line naming the file and a non-zero exit, before
# any results are written.
# Skipped when Debian's assimp-testmodels is not installed.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
M=/usr/share/assimp/models
model=$M/FBX/huesitos.fbx
if [ ! -r "$model" ]; then echo "skip: assimp-testmodels not installed"; exit 0; fi

"$exe" run all --quick --dataset "$model" --out "$tmp/a" >"$tmp/a.out" 2>"$tmp/a.err"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "run all --dataset $model: exit $rc: $(grep -v '^\[' "$tmp/a.err" | head -3)"
# the run imports the model once, to check it, and every experiment shares
# that import (harness/run_datasets.c), however many take the model
grep -qxF "skinbench run: $model imported 1 time(s)" "$tmp/a.err" && ok \
  || bad "the model is not imported exactly once: $(grep 'imported' "$tmp/a.err")"
# the GPU compute path does not take a model: its row says why (not "gpu.json has no compute")
if [ -s "$tmp/a/gpu.json" ] && ! grep -q '"skipped"' "$tmp/a/gpu.json"; then
  "$exe" report --results "$tmp/a" --no-plots >/dev/null 2>&1 \
    && grep -A8 '^## GPU compute path' "$tmp/a/report.md" | grep -q 'not run: run --dataset: the compute path sweeps copies' \
    && ok || bad "the GPU compute table does not say why it did not run: $(grep -A8 '^## GPU compute path' "$tmp/a/report.md" | tail -1)"
fi
# without --quick too: cd's scaling series once read the file again as a
# quick load (its catalogue models' small mesh), a second import (~17 s)
"$exe" run cd --dataset "$model" --out "$tmp/full-cd" >/dev/null 2>"$tmp/full-cd.err" \
  && grep -qxF "skinbench run: $model imported 1 time(s)" "$tmp/full-cd.err" && ok \
  || bad "run cd --dataset without --quick: $(grep -E 'imported|error' "$tmp/full-cd.err" | head -2)"
# a judged scenario speed-up is timed in two sittings (after every
# scenario's first, the second), its pairs kept and read on the quiet state
python3 - "$tmp/full-cd/cd.json" <<'PY' && ok || bad "cd scenario rows not timed in two sittings (above)"
import json, sys
sc = json.load(open(sys.argv[1]))["scenarios"]
n = 0
for name, s in sc.items():
    for key, m in s["methods"].items():
        p = m.get("paired")
        if not p:
            continue
        row = p["rows"][0]
        if row.get("pairs_timed") != 2 * p["pairs_per_row"] or "quiet" not in row or len(p["aa"]) != 1 \
                or len(row.get("pair_ms", [])) != row["pairs_timed"]:
            sys.exit("%s/%s: pairs_timed %r of %r a sitting, quiet %r" % (name, key, row.get("pairs_timed"),
                                                                          p["pairs_per_row"], row.get("quiet")))
        n += 1
if n == 0:
    sys.exit("no scenario row timed pair by pair")
PY
for e in properties flops icount; do
  n=$(grep -c "^\[$e\] not run on $model: .*takes no mesh" "$tmp/a.err")
  [ "$n" -eq 1 ] && ok || bad "$e: $n 'not run on' lines (want 1 saying why)"
  [ ! -e "$tmp/a/$e.json" ] && ok || bad "$e.json written although $e takes no model"
done
# every experiment's line says what runs on the model or why not: none ends empty
n=$(grep -cE "^\[[a-z0-9_.-]+\] (not run )?on $model: *$" "$tmp/a.err")
[ "$n" -eq 0 ] && ok || bad "$n experiment lines give no reason"
python3 - "$tmp/a" <<'EOF' && ok || bad "the model is not what the experiments ran on (above)"
import json, sys
d = sys.argv[1]; errs = []
def j(n): return json.load(open("%s/%s.json" % (d, n)))
cpu = j("cpu")
if list(cpu["datasets"]) != ["huesitos.fbx"]: errs.append("cpu datasets %s" % list(cpu["datasets"]))
ms = cpu["datasets"].get("huesitos.fbx", {}).get("ms", {})
for m in ["linear", "qlb0", "sb", "logm", "dlb", "dib", "qb"]:
    if not ms.get(m, 0) > 0: errs.append("cpu: no time for %s on the model" % m)
if cpu["datasets"].get("huesitos.fbx", {}).get("vertices") != 128: errs.append("cpu: not the 128-vertex model")
gpu = j("gpu")
if "ms" in gpu:   # no "ms": no GL context here (a clean skip)
    if list(gpu["ms"]) != ["huesitos.fbx"]: errs.append("gpu timed %s" % list(gpu["ms"]))
    if not any("character_huesitos" in i["file"] for i in gpu["images"]): errs.append("gpu: no picture of the model")
    mp = gpu.get("method_pictures", {}).get("scenes")
    if mp is not None and not any(sc.get("dataset") == "huesitos.fbx" for sc in mp):
        errs.append("gpu: the picture grid has no scene of the model")
sp = j("spheres")
if list(sp["datasets"]) != ["huesitos.fbx"]: errs.append("spheres datasets %s" % list(sp["datasets"]))
cd = j("cd")
if not cd["scaling_setup"]["model"].endswith("huesitos.fbx"): errs.append("cd scaling on %s" % cd["scaling_setup"]["model"])
if not all(s["model"].endswith("huesitos.fbx") for s in cd["scenarios"].values()): errs.append("cd scenarios not on the model")
if j("bounds")["dlb_dib_skinning"]["dataset"] != "huesitos.fbx": errs.append("bounds: DLB-DIB gap not on the model")
for e in errs: print("FAIL:", e)
sys.exit(1 if errs else 0)
EOF
# another format (glTF 2) through the mesh experiments
g=$M/glTF2/simple_skin/simple_skin.gltf
"$exe" run cpu spheres --quick --quiet --dataset "$g" --out "$tmp/g" 2>"$tmp/g.err" \
  && python3 -c "import json,sys; sys.exit(list(json.load(open('$tmp/g/cpu.json'))['datasets']) != ['simple_skin.gltf'])" \
  && ok || bad "glTF 2 model: $(head -2 "$tmp/g.err")"
# no --out: the model's own folder results/<model>-<UTC time>, never
# results/latest (a full run's files there stay as they were)
mkdir -p "$tmp/w/results/latest" && echo '{"kept": 1}' > "$tmp/w/results/latest/cpu.json"
(cd "$tmp/w" && "$exe" run cpu --quick --quiet --dataset "$g" 2>"$tmp/w.err")
own=$(ls -d "$tmp"/w/results/simple_skin-*Z 2>/dev/null)
[ "$(cat "$tmp/w/results/latest/cpu.json")" = '{"kept": 1}' ] && [ -n "$own" ] && [ -s "$own/cpu.json" ] \
  && [ "$(ls "$tmp/w/results" | wc -l)" -eq 2 ] && ok \
  || bad "--dataset without --out: latest $(cat "$tmp/w/results/latest/cpu.json"), own folder '$own': $(head -2 "$tmp/w.err")"
# only experiments that take no mesh: a usage error, one line
"$exe" run flops properties --quick --dataset "$model" --out "$tmp/f" >"$tmp/f.out" 2>"$tmp/f.err"; rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/f.err")" -eq 1 ] && ok || bad "run flops --dataset: exit $rc, $(cat "$tmp/f.err")"

# bad files: one line naming the file, non-zero exit, nothing written
head -c 3000 "$M/FBX/animation_with_skeleton.fbx" >"$tmp/truncated.fbx"
printf 'not a model\n' >"$tmp/garbage.fbx"
mkdir "$tmp/dir.fbx"
for f in "$tmp/truncated.fbx" "$tmp/garbage.fbx" "$M/X/test_cube_text.x" "$tmp/missing.fbx" "$tmp/dir.fbx"; do
  "$exe" run cpu --quick --dataset "$f" --out "$tmp/bad" >"$tmp/b.out" 2>"$tmp/b.err"; rc=$?
  if [ "$rc" -ne 0 ] && [ "$(wc -l <"$tmp/b.err")" -eq 1 ] && grep -qF "$f" "$tmp/b.err" && [ ! -e "$tmp/bad" ]; then ok
  else bad "--dataset $f: exit $rc, stderr: $(head -3 "$tmp/b.err")"; fi
done
grep -q "no animation clip" <("$exe" run cpu --quick --dataset "$M/X/test_cube_text.x" --out "$tmp/bad" 2>&1) \
  && ok || bad "a model without an animation is not named as such"

summary run_dataset
