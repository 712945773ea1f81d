#!/usr/bin/env bash
# device-gpu.sh DIR — `skinbench run gpu` (full) on a GPU machine from the
# folder scripts/device-pack.sh made (docs/experiments.md "GPU experiment"): restores the
# models to /usr/share/assimp/models, puts DIR's libraries and the NVIDIA
# driver's (/usr/local/nvidia/lib64) on LD_LIBRARY_PATH, selects the NVIDIA
# EGL vendor file where it exists (else glvnd's default vendors: Mesa),
# writes $OUT/gpu (gpu.json, images), then `skinbench report --no-plots`
# into $OUT/report, and prints a compact summary of gpu.json.
# OUT defaults to ./device-out.  SKB_DEVICE_TIMEOUT bounds the run (s, 230).
set -u
dir=$(cd "${1:?usage: scripts/device-gpu.sh DIR}" && pwd) || exit 2
out=${OUT:-./device-out}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
nv=/usr/local/nvidia
models=/usr/share/assimp/models
if [ -d "$dir/models" ]; then
  # copy only what is missing: an installed assimp's models stay as they are
  (mkdir -p "$models" && cd "$dir/models" && find . -type f | while read -r f; do
     [ -f "$models/$f" ] || { mkdir -p "$models/$(dirname "$f")" && cp "$f" "$models/$f"; }
   done) || echo "device-gpu.sh: could not restore the models to $models: those datasets are skipped" >&2
fi
export LD_LIBRARY_PATH="$dir:$nv/lib64:$dir/fallback${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
vendor=$nv/share/glvnd/egl_vendor.d/10_nvidia.json
if [ -f "$vendor" ]; then
  export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
  echo "device-gpu.sh: EGL vendor $vendor"
else
  echo "device-gpu.sh: no $vendor: glvnd's default EGL vendors (Mesa)"
fi
sb=$dir/skinbench
"$sb" --version
t0=$(date +%s)
timeout "${SKB_DEVICE_TIMEOUT:-230}" "$sb" run gpu --out "$out/gpu" >"$out/run.log" 2>&1
rc=$?
tail -4 "$out/run.log"
echo "device-gpu.sh: run gpu exit $rc after $(( $(date +%s) - t0 )) s (progress in $out/run.log)"
timeout 60 "$sb" report --results "$out/gpu" --out "$out/report" --no-plots --reference "$dir/reports/reference.json" \
  >"$out/report.log" 2>&1 && tail -1 "$out/report.log" || echo "device-gpu.sh: report failed (see $out/report.log)"
# the summary, from the report: DQ paper Fig. 1's rows (vertex and compute
# path), then the GPU compute table without its notes
md=$out/report/report.md
if [ -f "$md" ]; then
  echo "== DQ paper Fig. 1 rows (dataset | pair | ms | measured | paper | status | note)"
  awk '/^## GPU skinning time/ {p=1; next} /^## / {p=0} p && / \/ dlb \|/' "$md" | cut -c1-170
  echo "== GPU compute path (method | vertices/s | fraction of copy | bytes/vertex | ratio to LBS | verified | max err/size | status)"
  awk '/^## GPU compute path/ {p=1; next} /^## / {p=0} p && /^\| [a-z]/' "$md" | cut -d'|' -f2-9
  awk '/^## GPU compute path/ {p=1; next} /^## / {p=0} p && /^\| (copy roofline|dib|vertex path) /' "$md" \
    | awk -F'|' '{print "note:" $2 ":" $10}' | cut -c1-300
fi
echo "== compute sweep: ms per dispatch (median) per vertex count"
tr -d ' \n\t' <"$out/gpu/gpu.json" | grep -o '"sweep":\[[^]]*\]' | sed 's/"ms_q1":{[^}]*},"ms_q3":{[^}]*}//g; s/},{"vertices"/}\n{"vertices"/g'
echo
grep -o '"renderer": "[^"]*"' "$out/gpu/gpu.json" | head -1
grep -o '"dib_iterations": {[^}]*}' "$out/gpu/gpu.json"
grep -o '"phase_seconds": {[^}]*}' "$out/gpu/gpu.json"
grep -o '"pipeline_bound": {[^}]*}' "$out/gpu/gpu.json"
exit $rc
