#!/usr/bin/env bash
# Hostile and careless inputs, second round (docs/security.md "Security"): links are
# never followed into deletion, leaks or foreign writes; a model reads only
# its own folder; the nightly gate never passes a run it could not judge;
# every input is read by the one reader (regular files only, size caps).
# Each check names the README rule it guards; run against the code before
# these rules, every check below but the ones marked "(also before)" fails.
. "$(dirname "$0")/lib/preamble.sh"
fx=tests/fixtures/run-a
to=30   # seconds: a hang guard, not a speed target
root=0; [ "$(id -u)" = 0 ] && root=1

# a copy of the fixture run as a distinct run (own start time, a marker file)
mkrun() {  # dir [marker]
  rm -rf "$1"; mkdir -p "$(dirname "$1")"; cp -r "$fx" "$1"
  [ -n "${2:-}" ] && echo "$2" > "$1/MARKER"
  return 0
}
. "$(dirname "$0")/lib/jedit.sh"   # jedit FILE CODE: edit a results file in place
one_line_err() { [ "$(wc -l < "$1")" -eq 1 ]; }

# ---- 1, 2. baselines are rows of the results store, one per machine key: a
# linked store path, and one machine's baseline replacing another's, are
# tests/store.sh's cases ----

# ---- 3. only regular PNG files are embedded in report.html ----
d=$tmp/l3; mkrun "$d/run"; printf 'root:x:0:0:SECRET-PASSWD-LINE\n' > "$d/secret"
ln -s "$d/secret" "$d/run/images/zz.png"
real=$(ls "$d/run/images" | grep -v zz.png | head -1)
mv "$d/run/images/$real" "$d/real.png"; ln -s "$d/secret" "$d/run/images/$real"
printf 'SECRET-NOT-A-PNG' > "$d/run/images/fake.png"
timeout $to "$exe" report --results "$d/run" --no-plots > "$d/out" 2>&1; rc=$?
python3 - "$d/run/report.html" <<'PY' && ok "report.html: no linked or non-PNG file embedded (exit $rc)" || { bad "picture embedding leaks a file (exit $rc)"; }
import base64, re, sys
html = open(sys.argv[1]).read()
for m in re.finditer(r'data:[^;]+;base64,([A-Za-z0-9+/=]*)', html):
    b = base64.b64decode(m.group(1))
    if b"SECRET" in b:
        sys.exit(1)
PY

# ---- 4. no write below --out goes through a link ----
d=$tmp/l4; mkrun "$d/run"; mkdir -p "$d/victim"; ln -s ../victim "$d/run/plots"
timeout $to "$exe" report --results "$d/run" > "$d/out" 2> "$d/err"; rc=$?
if [ $rc -ne 0 ] && [ -z "$(ls -A "$d/victim")" ] && one_line_err "$d/err" && grep -q 'plots: is a symbolic link' "$d/err"; then
  ok "report: a linked plots/ is refused in one line, nothing written through it"
else bad "report through a linked plots/ (exit $rc, $(ls -A "$d/victim" | wc -l) files in the victim)"; head -3 "$d/err"; fi
mkdir -p "$d/p" "$d/victim2"; ln -s ../victim2 "$d/p/counterexamples"
timeout 120 "$exe" run properties --quick --quiet --out "$d/p" > "$d/out2" 2>&1; rc=$?
if [ $rc -ne 0 ] && [ -z "$(ls -A "$d/victim2")" ] && grep -q 'counterexamples: is a symbolic link' "$d/out2"; then
  ok "run properties: a linked counterexamples/ is refused, nothing written through it"
else bad "run through a linked counterexamples/ (exit $rc, $(ls -A "$d/victim2" | wc -l) files in the victim)"; head -3 "$d/out2"; fi

# ---- 5. a model reads only its own folder ----
d=$tmp/l5; mkdir -p "$d/m"; printf 'TOPSECRET-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ' > "$d/secret"
python3 tests/fixtures/hostile/make_leak_gltf.py "$d/m/leak.gltf" ../secret
timeout 120 "$exe" skin --method linear --model "$d/m/leak.gltf" --out "$d/leak.obj" > /dev/null 2> "$d/err"; rc=$?
if [ $rc -ne 0 ] && [ ! -e "$d/leak.obj" ] && grep -q "external reference '.*\.\./secret' (outside the model's folder) refused" "$d/err"; then
  ok "model: a buffer URI leaving the model's folder is refused, naming it"
else bad "model reads outside its folder (exit $rc)"; head -3 "$d/err"; fi
cp "$d/secret" "$d/m/inside.bin"; python3 tests/fixtures/hostile/make_leak_gltf.py "$d/m/ok.gltf" inside.bin
timeout 120 "$exe" skin --method linear --model "$d/m/ok.gltf" --out "$d/ok.obj" > /dev/null 2> "$d/err2"; rc=$?
[ $rc -eq 0 ] && [ -s "$d/ok.obj" ] && ok "model: a buffer inside the model's folder still loads (also before)" \
  || { bad "model with its own buffer (exit $rc)"; head -3 "$d/err2"; }
ln -s ../secret "$d/m/link.bin"; python3 tests/fixtures/hostile/make_leak_gltf.py "$d/m/link.gltf" link.bin
timeout 120 "$exe" skin --method linear --model "$d/m/link.gltf" --out "$d/link.obj" > /dev/null 2> "$d/err3"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$d/link.obj" ] && grep -q "link.bin' (outside the model's folder)" "$d/err3" \
  && ok "model: a link in its folder pointing outside is refused (links resolved)" || { bad "model through a link (exit $rc)"; head -3 "$d/err3"; }

# ---- 6. the gate never passes what it could not judge ----
gate() {  # name, expected exit, python edit of the current run's FILE, FILE, [pattern in stdout]
  local name=$1 want=$2 code=$3 file=$4 pat=${5:-} d="$tmp/g-$1"
  mkrun "$d/base"; mkrun "$d/cur"
  jedit "$d/cur/$file" "$code"
  timeout $to "$exe" compare "$d/base" "$d/cur" --summary "$d/s.json" > "$d/out" 2> "$d/err"; local rc=$?
  if [ $rc -eq "$want" ] && { [ -z "$pat" ] || grep -q -- "$pat" "$d/out"; }; then ok "gate, $name: exit $rc"
  else bad "gate, $name: exit $rc (want $want)"; grep -m3 'INCONCLUSIVE\|REGRESSION\|compare:' "$d/out" "$d/err"; fi
}
gate no-benchmarks 3 'd["benchmarks"] = []' cpu-gbench.json 'no usable benchmark rows'
gate zero-times 3 '[b.update(real_time=0, cpu_time=0) for b in d["benchmarks"]]' cpu-gbench.json 'not a finite positive'
gate negative-times 3 '[b.update(real_time=-1, cpu_time=-1) for b in d["benchmarks"]]' cpu-gbench.json 'not a finite positive'
gate nan-times 3 '[b.update(real_time="nan", cpu_time="nan") for b in d["benchmarks"]]' cpu-gbench.json 'no usable benchmark rows'
gate all-errors 3 '[b.update(error_occurred=True, error_message="x", real_time=0, cpu_time=0) for b in d["benchmarks"]]' cpu-gbench.json
gate all-aggregates 3 '[b.update(run_type="aggregate") for b in d["benchmarks"]]' cpu-gbench.json 'no usable benchmark rows'
gate renamed 3 '[b.update(name="x" + b["name"], run_name="x" + b["run_name"]) for b in d["benchmarks"]]' cpu-gbench.json 'missing in the current run'
gate method-missing 3 'd["benchmarks"] = [b for b in d["benchmarks"] if not b["name"].endswith("/dlb")]' cpu-gbench.json 'missing in the current run'
gate icount-unavailable 3 'd["available"] = False; d.pop("kernels", None)' icount.json 'instruction counts unavailable'
gate icount-empty 3 'd["kernels"] = {}' icount.json 'counted no kernels'
gate icount-zero 3 'd["kernels"] = {k: 0 for k in d["kernels"]}' icount.json 'not a finite positive'
gate icount-nan 3 'd["kernels"] = {k: "nan" for k in d["kernels"]}' icount.json 'not a finite positive'
# the machine key of every file of the current run changed, no --ab: inconclusive naming both keys
d=$tmp/g-key; mkrun "$d/base"; mkrun "$d/cur"
for f in "$d"/cur/*.json; do sed -i 's#"key": "fixture-host/2-core"#"key": "ci-runner-7/2-core"#' "$f"; done
timeout $to "$exe" compare "$d/base" "$d/cur" --summary "$d/s.json" > "$d/out" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q "machines differ: baseline key 'fixture-host/2-core', current key 'ci-runner-7/2-core'" "$d/out" \
  && ok "gate, machine key changed: exit 3 naming both keys" || { bad "gate, machine key changed: exit $rc"; grep -m2 'machine' "$d/out"; }
# an unverified baseline no longer lets an unverified run pass; --update-baseline installs nothing
d=$tmp/g-ver; mkrun "$d/base" old-base; mkrun "$d/cur" unverified
jedit "$d/base/cpu.json" 'd["verified"] = False'; jedit "$d/cur/cpu.json" 'd["verified"] = False; d["failures"] = {"double/dlb/arm": "max error 1"}'
timeout $to "$exe" compare "$d/base" "$d/cur" --summary "$d/s.json" > "$d/out" 2>&1; rc=$?
[ $rc -ne 0 ] && [ "$(cat "$d/base/MARKER")" = old-base ] \
  && ok "gate, unverified run against an unverified baseline: exit $rc" || { bad "gate, unverified run (exit $rc)"; tail -3 "$d/out"; }
timeout $to "$exe" compare --store "$d/s.sqlite" "$d/cur" --update-baseline > "$d/out2" 2>&1; rc=$?
[ $rc -eq 2 ] && ! "$exe" store list --store "$d/s.sqlite" 2> /dev/null | grep -q unverified && grep -q 'unverified run is never installed' "$d/out2" \
  && ok "an unverified run never becomes a baseline" || { bad "unverified run became a baseline (exit $rc)"; head -2 "$d/out2"; }
# the injection marker is in every results file: a run without cpu.json is still refused as a baseline
d=$tmp/g-inj; SKB_INJECT_SLOWDOWN=dlb:30 timeout 120 "$exe" run bounds --quick --quiet --out "$d/run" > /dev/null 2>&1
grep -q '"injected"' "$d/run/bounds.json" && ok "injection marker written into bounds.json" || bad "no injection marker in bounds.json"
timeout $to "$exe" compare --store "$d/s.sqlite" "$d/run" --update-baseline > "$d/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'injected' "$d/out" && ! "$exe" store baseline --store "$d/s.sqlite" 2> /dev/null | grep -q 'run 1' \
  && ok "an injected run without cpu.json never becomes a baseline" || { bad "injected run became a baseline (exit $rc)"; head -2 "$d/out"; }
# the machine key: hardware plus an optional name, never the hostname
timeout 120 "$exe" run bounds --quick --quiet --out "$tmp/k1" > /dev/null 2>&1
SKB_MACHINE_NAME=lab-7 timeout 120 "$exe" run bounds --quick --quiet --out "$tmp/k2" > /dev/null 2>&1
python3 - "$tmp/k1/bounds.json" "$tmp/k2/bounds.json" "$(hostname)" <<'PY' && ok "machine key from the hardware (no hostname; SKB_MACHINE_NAME prefixes it; hostname recorded beside)" || bad "machine key still depends on the hostname"
import json, sys
a = json.load(open(sys.argv[1]))["machine"]; b = json.load(open(sys.argv[2]))["machine"]; host = sys.argv[3]
ok = host not in a["key"] and a["hostname"] == host and b["key"] == "lab-7/" + a["key"] and "-core/" in a["key"]
sys.exit(0 if ok else 1)
PY

# ---- 7. non-regular inputs: refused at once, never read or waited on ----
dev_ok=0; why_dev="not root"
if [ $root -eq 1 ]; then
  if mknod "$tmp/zero" c 1 5 2> /dev/null; then
    if head -c 1 "$tmp/zero" > /dev/null 2>&1; then dev_ok=1; else why_dev="$tmp is mounted nodev"; fi
    rm -f "$tmp/zero"
  else why_dev="mknod refused"; fi
fi
[ $dev_ok -eq 1 ] || echo "skip device-node cases: $why_dev"
# make PATH a NODE: fifo | dev (a private /dev/zero in the temp dir) | dir | link-fifo | big
mknode() {  # kind path
  rm -rf "$2"
  case $1 in
    fifo) mkfifo "$2" ;;
    dev) mknod "$2" c 1 5 ;;
    dir) mkdir -p "$2" ;;
    link-fifo) mkfifo "$2.target"; ln -s "$(basename "$2").target" "$2" ;;
    big) head -c $((300 << 20)) /dev/zero | tr '\0' ' ' > "$2" ;;
  esac
}
kinds=(fifo dir link-fifo); [ $dev_ok -eq 1 ] && kinds+=(dev)
# an input path replaced: the command ends within the guard, non-zero, naming the file
in_case() {  # label kind path cmd...
  local label=$1 kind=$2 p=$3; shift 3
  mknode "$kind" "$p"
  timeout $to "$@" > "$tmp/in.out" 2> "$tmp/in.err"; local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "$(basename "$p")" "$tmp/in.err"; then ok "input $label as $kind: exit $rc, named"
  else bad "input $label as $kind: exit $rc$([ $rc -eq 124 ] && echo ' (hung)')"; head -2 "$tmp/in.err"; fi
  rm -rf "$p" "$p.target"
}
d=$tmp/i7; mkrun "$d/run"; mkrun "$d/base"
for k in "${kinds[@]}"; do
  mkrun "$d/run"; in_case "report RUN/cpu.json" "$k" "$d/run/cpu.json" "$exe" report --results "$d/run" --no-plots
  mkrun "$d/run"; in_case "compare CUR/cpu.json" "$k" "$d/run/cpu.json" "$exe" compare "$d/base" "$d/run" --summary "$d/s.json"
  mkrun "$d/run"; in_case "compare BASE/cpu-gbench.json" "$k" "$d/base/cpu-gbench.json" "$exe" compare "$d/base" "$d/run" --summary "$d/s.json"; mkrun "$d/base"
  mkrun "$d/run"; in_case "report --reference" "$k" "$d/ref.json" "$exe" report --results "$d/run" --no-plots --reference "$d/ref.json"
  in_case "compare --validation" "$k" "$d/val.json" "$exe" compare "$d/base" "$d/run" --validation "$d/val.json" --summary "$d/s.json"
  in_case "skin --pose" "$k" "$d/pose.json" "$exe" skin --method linear --model arm --pose "$d/pose.json" --out "$d/o.obj"
  in_case "blend --input" "$k" "$d/in.json" "$exe" blend --method dlb --input "$d/in.json"
  in_case "skin --model" "$k" "$d/model.gltf" "$exe" skin --method linear --model "$d/model.gltf" --out "$d/o.obj"
  in_case "run --dataset" "$k" "$d/model2.gltf" "$exe" run bounds --quick --dataset "$d/model2.gltf" --out "$d/rr"
done
# FIFOs where the report reads without naming: a picture, the fuzz log (never a hang)
mkrun "$d/run"; mkfifo "$d/run/images/zz.png" "$d/run/fuzz.log"
timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2>&1; rc=$?
[ $rc -ne 124 ] && ok "report: FIFO picture and FIFO fuzz log skipped, no hang (exit $rc)" || bad "report hangs on a FIFO picture or fuzz log"
mkrun "$d/run"; mkfifo "$d/fz"
timeout $to "$exe" report --results "$d/run" --no-plots --fuzz-log "$d/fz" > /dev/null 2> "$d/err"; rc=$?
[ $rc -ne 124 ] && grep -q 'fuz' "$d/err" && ok "report --fuzz-log FIFO: no hang, named" || bad "report --fuzz-log FIFO (exit $rc)"
if [ $dev_ok -eq 1 ]; then
  mknod "$d/fzdev" c 1 5
  timeout $to "$exe" report --results "$d/run" --no-plots --fuzz-log "$d/fzdev" > /dev/null 2>&1; rc=$?
  [ $rc -ne 124 ] && ok "report --fuzz-log device node: no endless read" || bad "report --fuzz-log device hangs"
  rm -f "$d/fzdev"   # a folder holding a device node is no output folder (hostile_inputs3.sh)
fi
# size caps: a 300 MB results file and a 5 MB pose are refused unread
mkrun "$d/run"; mknode big "$d/run/cpu.json"
timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2> "$d/err"; rc=$?
[ $rc -ne 0 ] && grep -q 'cpu.json: .*larger than the limit' "$d/err" && ok "a 300 MB cpu.json is refused by its size cap" \
  || { bad "oversized cpu.json (exit $rc)"; head -2 "$d/err"; }
head -c $((5 << 20)) /dev/zero | tr '\0' ' ' > "$d/pose.json"
timeout $to "$exe" skin --method linear --model arm --pose "$d/pose.json" --out "$d/o.obj" > /dev/null 2> "$d/err"; rc=$?
[ $rc -ne 0 ] && grep -q 'larger than the limit' "$d/err" && ok "a 5 MB --pose is refused by its size cap" || { bad "oversized pose (exit $rc)"; head -2 "$d/err"; }

# ---- outputs: a link, FIFO, device node or directory is never replaced ----
out_case() {  # label kind path cmd...
  local label=$1 kind=$2 p=$3; shift 3
  rm -rf "$p" "$p.target"
  case $kind in
    link) echo precious > "$p.target"; ln -s "$(basename "$p").target" "$p" ;;
    *) mknode "$kind" "$p" ;;
  esac
  timeout $to "$@" > "$tmp/o.out" 2> "$tmp/o.err"; local rc=$?
  local same=1
  case $kind in
    link) [ -L "$p" ] && [ "$(cat "$p.target")" = precious ] || same=0 ;;
    fifo|link-fifo) [ -p "$p" ] || [ -L "$p" ] || same=0 ;;
    dev) [ -c "$p" ] || same=0 ;;
    dir) [ -d "$p" ] || same=0 ;;
  esac
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $same -eq 1 ]; then ok "output $label as $kind: refused (exit $rc), not replaced"
  else bad "output $label as $kind: exit $rc, $([ $same -eq 1 ] && echo kept || echo REPLACED)"; head -2 "$tmp/o.err"; fi
  rm -rf "$p" "$p.target"
}
okinds=(link fifo dir); [ $dev_ok -eq 1 ] && okinds+=(dev)
for k in "${okinds[@]}"; do
  mkrun "$d/run"; out_case "report report.md" "$k" "$d/run/report.md" "$exe" report --results "$d/run" --no-plots
  # plots/ and counterexamples/ are directories: a directory there is their normal form
  [ "$k" = dir ] || { mkrun "$d/run"; out_case "report plots/" "$k" "$d/run/plots" "$exe" report --results "$d/run"; }
  mkrun "$d/run"; out_case "compare --summary" "$k" "$d/sum.json" "$exe" compare "$d/base" "$d/run" --summary "$d/sum.json"
  out_case "skin --out" "$k" "$d/o.obj" "$exe" skin --method linear --model arm --out "$d/o.obj"
  mkdir -p "$d/rb"; out_case "run RUN/bounds.json" "$k" "$d/rb/bounds.json" "$exe" run bounds --quick --quiet --out "$d/rb"
  [ "$k" = dir ] || mkdir -p "$d/rp" && [ "$k" = dir ] || out_case "run RUN/counterexamples" "$k" "$d/rp/counterexamples" "$exe" run properties --quick --quiet --out "$d/rp"
done

# ---- 8. duplicate keys are found in linear time (a hang guard, not a speed target) ----
mkrun "$d/run"; python3 - "$d/run/cpu.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["filler"] = {"k%d" % i: i for i in range(300000)}
open(sys.argv[1], "w").write(json.dumps(d))
PY
timeout 60 "$exe" report --results "$d/run" --no-plots > /dev/null 2>&1; rc=$?
[ $rc -ne 124 ] && ok "3x10^5 keys in cpu.json: report finishes (exit $rc)" || bad "3x10^5 keys: report past 60 s (quadratic duplicate-key check)"

# ---- 9. two reports into one --out: every plot drawn by both, none silently missing ----
if command -v gnuplot > /dev/null; then
  mkrun "$d/c9"
  "$exe" report --results "$d/c9" > "$d/c9a" 2> "$d/c9ae" & p1=$!
  "$exe" report --results "$d/c9" > "$d/c9b" 2> "$d/c9be" & p2=$!
  wait $p1; r1=$?; wait $p2; r2=$?
  n1=$(grep -o '[0-9]* of [0-9]* plots' "$d/c9a"); n2=$(grep -o '[0-9]* of [0-9]* plots' "$d/c9b")
  "$exe" report --results "$d/c9" > "$d/c9c" 2> /dev/null; n3=$(grep -o '[0-9]* of [0-9]* plots' "$d/c9c")
  [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ "$n1" = "$n3" ] && [ "$n2" = "$n3" ] \
    && ok "two reports at once into one --out: both drew $n3 (lock)" || bad "concurrent reports: '$n1' and '$n2' (alone: '$n3')"
  grep -q 'not drawn: ' "$d/c9ae" && ok "a plot not drawn is named on stderr" || bad "a missing plot is silent"
fi

# ---- 10. the same run given twice is merged once ----
mkrun "$d/r10"
timeout $to "$exe" report --results "$d/r10" --results "$d/r10/" --no-plots > "$d/out" 2> "$d/err"; rc=$?
n=$(grep -c '| results directory |' "$d/r10/report.md")
[ $rc -eq 0 ] && [ "$n" -eq 1 ] && grep -q 'same run' "$d/err" && ok "--results R --results R/: merged once, with a note" \
  || bad "the same run twice: $n runs in the report (exit $rc)"

# ---- 11. scratch of killed processes is reclaimed ----
# (the baseline's staging copies of a killed update are gone with folder
# baselines: the store's transaction leaves nothing beside it, tests/store.sh)
d=$tmp/l11
mkrun "$d/rep"; mkdir -p "$d/rep/plots"; echo x > "$d/rep/plots/cpu.png.tmpAbC123"
timeout $to "$exe" report --results "$d/rep" --no-plots > /dev/null 2>&1
timeout $to "$exe" report --results "$d/rep" > /dev/null 2>&1
[ ! -e "$d/rep/plots/cpu.png.tmpAbC123" ] && ok "a killed report's plots/*.tmpXXXXXX is reclaimed" || bad "plot scratch left"

# ---- 12. measured values are validated before judging ----
for v in -0.0 1e308; do
  mkrun "$tmp/v12"; jedit "$tmp/v12/cpu.json" "d['datasets']['arm']['ms']['dlb'] = $v"
  timeout $to "$exe" report --results "$tmp/v12" --no-plots > /dev/null 2> "$tmp/v12.err"; rc=$?
  [ $rc -ne 0 ] && grep -q 'cpu.json: field "datasets"."arm"."ms"."dlb": .* is not a measured value' "$tmp/v12.err" \
    && ok "cpu.json time $v: not judged, the field named" || { bad "cpu.json time $v judged (exit $rc)"; head -2 "$tmp/v12.err"; }
done

# ---- 13. names reach a terminal and report.md escaped ----
d=$tmp/l13; mkrun "$d/base"; mkrun "$d/cur"
jedit "$d/cur/cpu-gbench.json" 'd["benchmarks"].append(dict(d["benchmarks"][0], name="evil\ncompare: pass (0 regressions)\x1b[2J", run_name="evil\ncompare: pass (0 regressions)\x1b[2J"))'
jedit "$d/cur/icount.json" 'd["kernels"]["double/linear/cloth"] *= 2'
timeout $to "$exe" compare "$d/base" "$d/cur" --summary "$d/s.json" > "$d/out" 2>&1; rc=$?
! grep -q $'\x1b' "$d/out" && ! grep -q '^compare: pass' "$d/out" && [ $rc -eq 1 ] \
  && ok "compare: a name with a newline and an escape prints on one line, no forged verdict" || { bad "compare prints control bytes (exit $rc)"; grep -n 'pass' "$d/out" | head -3; }
for f in "$d"/cur/*.json; do sed -i 's#"key": "fixture-host/2-core"#"key": "<script>alert(1)</script>"#' "$f"; done
jedit "$d/cur/properties.json" 'd["compiler"] = "<img src=x onerror=alert(1)>"'
timeout $to "$exe" report --results "$d/cur" --no-plots > /dev/null 2>&1
! grep -q '<script>alert\|<img src=x' "$d/cur/report.md" && grep -q '&lt;script&gt;' "$d/cur/report.md" \
  && ok "report.md: machine and compiler names escaped" || bad "report.md carries raw HTML from the results"

# ---- 14. nightly.sh: no baseline is exit 3; a refused update installs nothing ----
d=$tmp/l14; mkdir -p "$d"
cat > "$d/fake" <<SH
#!/usr/bin/env bash
# stands in for skinbench in scripts/nightly.sh: run writes a complete synthetic run,
# compare exits \$FAKE_CMP when set, report does nothing, store is the real one
case \$1 in
  run) shift; while [ \$# -gt 0 ]; do [ "\$1" = --out ] && python3 tests/lib/mkrun.py "\$2" --rng \$RANDOM --binary "\$0"; shift; done; exit 0 ;;
  report) exit 0 ;;
  compare) [ -n "\${FAKE_CMP:-}" ] && { echo "fake compare \$*"; exit "\$FAKE_CMP"; }; exec "$exe" "\$@" ;;
  *) exec "$exe" "\$@" ;;
esac
SH
chmod +x "$d/fake"
common=(--exe "$d/fake" --store "$d/s.sqlite" --validation "$d/none.json" --no-bisect --import-baseline "$d/no" --import-history "$d/no")
bash scripts/nightly.sh "${common[@]}" --out "$d/n1" > "$d/n1.log" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q 'no baseline' "$d/n1.log" && ok "nightly without a baseline: exit 3" || { bad "nightly without a baseline: exit $rc"; tail -2 "$d/n1.log"; }
bash scripts/nightly.sh "${common[@]}" --out "$d/n2" --update-baseline > "$d/n2.log" 2>&1; rc=$?
last=$(tail -1 "$d/n2.log")
[ $rc -eq 0 ] && ! echo "$last" | grep -q "compare.json" && echo "$last" | grep -q 'pass (exit 0)' \
  && "$exe" store baseline --store "$d/s.sqlite" | grep -q 'run 2 ' \
  && ok "nightly first night with --update-baseline: its run is the baseline; names no file it did not write" || { bad "nightly first night (exit $rc): $last"; }
FAKE_CMP=2 bash scripts/nightly.sh "${common[@]}" --out "$d/n3" --update-baseline > "$d/n3.log" 2>&1; rc=$?
[ $rc -eq 2 ] && "$exe" store baseline --store "$d/s.sqlite" | grep -q 'run 2 ' && grep -q 'baseline not replaced' "$d/n3.log" \
  && ok "nightly: compare refused, the baseline (and its binary) stay night 2's" || { bad "nightly replaced the baseline after a refused compare (exit $rc)"; tail -3 "$d/n3.log"; }

# ---- 15. messages: UTF-16, not JSON, an infinite weight; apt waits for the dpkg lock ----
mkrun "$d/m15"; python3 -c "import sys; open(sys.argv[1],'wb').write(open(sys.argv[1]).read().encode('utf-16'))" "$d/m15/cpu.json"
"$exe" report --results "$d/m15" --no-plots > /dev/null 2> "$d/err"
grep -q 'cpu.json: not UTF-8 text (UTF-16' "$d/err" && ok "UTF-16 results file: said so" || { bad "UTF-16 message"; grep cpu.json "$d/err" | head -1; }
mkrun "$d/m15"; echo 'hello, not json' > "$d/m15/cpu.json"
"$exe" report --results "$d/m15" --no-plots > /dev/null 2> "$d/err"
grep -q 'cpu.json: not JSON' "$d/err" && ok "non-JSON results file: said so" || { bad "non-JSON message"; grep cpu.json "$d/err" | head -1; }
mkdir -p "$d/w15"; printf 'TOPSECRET-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ' > "$d/w15/pos.bin"
python3 tests/fixtures/hostile/make_leak_gltf.py "$d/w15/w.gltf" pos.bin inf-weight
timeout 120 "$exe" skin --method linear --model "$d/w15/w.gltf" --out "$d/w15/o.obj" > /dev/null 2> "$d/err"; rc=$?
[ $rc -ne 0 ] && grep -q 'weight inf' "$d/err" && ok "an infinite weight is reported as read (inf)" || { bad "infinite weight message (exit $rc)"; head -2 "$d/err"; }
mkdir -p "$d/bin15"
cat > "$d/bin15/dpkg-query" <<'SH'
#!/bin/sh
exit 1
SH
cat > "$d/bin15/apt-get" <<'SH'
#!/bin/sh
echo "apt-get $*" >> "$APT_LOG"
SH
cat > "$d/bin15/id" <<'SH'
#!/bin/sh
echo 0
SH
chmod +x "$d/bin15"/*
APT_LOG=$d/apt.log PATH="$d/bin15:$PATH" bash scripts/install-deps.sh > "$d/deps.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'DPkg::Lock::Timeout=[0-9]* install' "$d/apt.log" \
  && [ "$(grep -c . "$d/deps.out")" -eq 2 ] && grep -q 'installing 26 missing package(s) to build and run the reproduction' "$d/deps.out" \
  && ! grep -q chromium "$d/apt.log" \
  && ok "install-deps: the reproduction's 26 packages (no chromium), one line saying why, apt waiting for the dpkg lock (bounded)" \
  || { bad "install-deps (exit $rc)"; cat "$d/deps.out" "$d/apt.log" 2>/dev/null | head -4; }
: > "$d/apt.log"
APT_LOG=$d/apt.log PATH="$d/bin15:$PATH" bash scripts/install-deps.sh --tests > "$d/deps.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'installing 31 missing' "$d/deps.out" && grep -q chromium "$d/apt.log" \
  && ok "install-deps --tests: and the tests' 5 (chromium among them)" || { bad "install-deps --tests (exit $rc)"; head -2 "$d/deps.out"; }

exit $fail
