#!/usr/bin/env bash
# Hostile inputs, third round (docs/security.md "Security"): no link in any
# path component below a directory skinbench was given; a scratch reaper
# that removes only what it provably made; exports (CSV, report.md, OBJ)
# that carry no formula, markup or statement from the data; bounded
# memory for pictures; and the low items, each a one-line message with the
# exit code docs/commands.md gives.  Run against the code before these
# rules (e933045), every check fails but those marked "(also before)".
. "$(dirname "$0")/lib/preamble.sh"
fx=tests/fixtures/run-a
to=60   # seconds: a hang guard, not a speed target
root=0; [ "$(id -u)" = 0 ] && root=1

mkrun() { rm -rf "$1"; mkdir -p "$(dirname "$1")"; cp -r "$fx" "$1"; }
. tests/lib/jedit.sh   # jedit FILE CODE: edit a results file in place
one_line() { [ "$(wc -l < "$1")" -eq 1 ]; }
# a pid that is certainly dead
sh -c 'exit 0' & dead=$!; wait $dead
# PNG files: png OUT KIND [ARG..]: "ok" a real 2x2 PNG (ARG: text hidden in
# it); "sparse" the signature, then zeros to arg MiB (no disk used);
# "ihdr W H" an IHDR declaring W x H RGBA, then zeros to 3.5 MiB
png() {
  python3 - "$@" <<'PY'
import struct, sys, zlib
out, kind = sys.argv[1], sys.argv[2]
sig = b"\x89PNG\r\n\x1a\n"
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
def ihdr(w, h):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
with open(out, "wb") as f:
    if kind == "ok":
        raw = b"".join(b"\0" + b"\xff\0\0\xff" * 2 for _ in range(2))
        text = sys.argv[3].encode() if len(sys.argv) > 3 else b"plain"
        f.write(sig + ihdr(2, 2) + chunk(b"tEXt", b"Comment\0" + text) + chunk(b"IDAT", zlib.compress(raw))
                + chunk(b"IEND", b""))
    elif kind == "sparse":
        f.write(sig); f.truncate(int(sys.argv[3]) << 20)
    else:
        f.write(sig + ihdr(int(sys.argv[3]), int(sys.argv[4]))); f.truncate(7 << 19)
PY
}
# 1 when FILE (report.html) embeds a picture holding TEXT
embeds() {
  python3 - "$1" "$2" <<'PY'
import base64, re, sys
html = open(sys.argv[1]).read()
sys.exit(0 if any(sys.argv[2].encode() in base64.b64decode(m.group(1))
                  for m in re.finditer(r'data:image/png;base64,([A-Za-z0-9+/=]*)', html)) else 1)
PY
}

# ---- 1. the scratch reaper removes only what it provably made ----
# a link by a dead pid's scratch name, to a folder this user can write
d=$tmp/r1; mkdir -p "$d/t" "$d/victim/run"; echo keep > "$d/victim/a"; echo keep > "$d/victim/run/b"; echo keep > "$d/victim/cg.out"
ln -s ../victim "$d/t/skb-callgrind-$dead-abcdef"; ln -s ../victim "$d/t/skb-icount-$dead-abcdef"
mkdir -m 755 "$d/t/skb-icount-$dead-nomark"; echo keep > "$d/t/skb-icount-$dead-nomark/x"
TMPDIR="$d/t" timeout 300 "$exe" run flops --methods linear --quiet --out "$d/f" > "$d/out" 2>&1; rc=$?
[ -f "$d/victim/cg.out" ] && [ -L "$d/t/skb-callgrind-$dead-abcdef" ] \
  && ok "run flops: a planted skb-callgrind-<dead pid>-* link is left alone, its target's cg.out kept (exit $rc)" \
  || bad "run flops removed victim/cg.out through a planted link (exit $rc)"
if [ -n "${SKB_ASAN:-}" ] || ! command -v valgrind > /dev/null; then
  echo "SKIP run icount's reaper: valgrind missing or ASan build (icount does not run, nor reap, under ASan)"
else
  TMPDIR="$d/t" timeout 300 "$exe" run icount --quick --quiet --out "$d/i" > "$d/out" 2>&1; rc=$?
  [ "$(ls "$d/victim" | wc -l)" -eq 3 ] && [ -f "$d/victim/run/b" ] && [ -f "$d/t/skb-icount-$dead-nomark/x" ] \
    && [ $rc -eq 0 ] && ok "run icount: a planted link and an unmarked folder by a dead pid's name are left alone" \
    || { bad "run icount emptied a folder it did not make (exit $rc): victim $(ls "$d/victim" | tr '\n' ' ')"; tail -2 "$d/out"; }
fi

# ---- 2. no link in any component below a results directory ----
d=$tmp/l2; mkdir -p "$d/secret"; png "$d/secret/x.png" ok SECRET-PICTURE; png "$d/secret/curtain.png" ok SECRET-SAD
mkrun "$d/run"; rm -rf "$d/run/images"; ln -s ../secret "$d/run/images"
timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2> "$d/err"; rc=$?
! embeds "$d/run/report.html" SECRET && ! grep -q 'x.png' "$d/run/report.md" \
  && ok "a linked images/ embeds and lists nothing from its target (exit $rc)" || bad "a linked images/ pulled a PNG into the report"
mkrun "$d/run"; mkdir -p "$d/run/images"; ln -s ../../secret "$d/run/images/sad"
jedit "$d/run/sad.json" 'd["animations"]["curtain"]["picture"] = {"file": "images/sad/curtain.png", "keyframe": 3, "p": 100, "max_error_pct": 1, "rms_error_pct": 0.5, "scale_max_pct": 1, "model_size": 2}'
timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2> "$d/err"; rc=$?
! embeds "$d/run/report.html" SECRET-SAD && ok "a linked images/sad/ embeds nothing from its target (exit $rc)" \
  || bad "a linked images/sad/ pulled a PNG into report.html"
rm "$d/run/images/sad"; mkdir "$d/run/images/sad"; cp "$d/secret/curtain.png" "$d/run/images/sad/"
timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2> "$d/err"; rc=$?
embeds "$d/run/report.html" SECRET-SAD && ok "a real images/sad/curtain.png is still embedded (also before)" \
  || bad "a real SAD picture is no longer embedded (exit $rc)"
# a results file that is a link (to a good copy; dangling): present, refused, exit 1
for kind in good dangling; do
  mkrun "$d/run"; mv "$d/run/cpu.json" "$d/cpu-target.json"
  [ $kind = good ] && ln -s ../cpu-target.json "$d/run/cpu.json" || ln -s /nonexistent-skb-target "$d/run/cpu.json"
  timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2> "$d/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "run/cpu.json: is a symbolic link, not a regular file" "$d/err" \
    && ok "RUN/cpu.json as a $kind link: refused, named, exit 1" || { bad "RUN/cpu.json as a $kind link: exit $rc"; head -2 "$d/err"; }
done
# a run directory inside a directory of runs that is a link: named, exit 1
mkdir -p "$d/many"; mkrun "$d/many/m1"; mkrun "$d/elsewhere"; ln -s ../elsewhere "$d/many/m2"
timeout $to "$exe" report --results "$d/many" --no-plots > /dev/null 2> "$d/err"; rc=$?
[ $rc -eq 1 ] && one_line "$d/err" && grep -q 'many/m2: is a symbolic link; a run directory inside' "$d/err" \
  && ok "a linked run directory in a directory of runs: named in one line, exit 1" || { bad "linked run directory (exit $rc)"; head -2 "$d/err"; }

# ---- 3. CSV: OWASP's rule, end to end from a model's file name ----
M=/usr/share/assimp/models/FBX/huesitos.fbx
if [ -r "$M" ]; then
  d=$tmp/c3; mkdir -p "$d"; cp "$M" "$d/-2+3+cmd|' -C calc'!A0.fbx"
  (cd "$d" && timeout 300 "$exe" run cpu --quick --quiet --dataset "-2+3+cmd|' -C calc'!A0.fbx" --out run) > "$d/out" 2>&1
  timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2>&1
  python3 - "$d/run/tables" <<'PY' && ok "tables/*.csv: a model named -2+3+cmd|... is one apostrophe-led cell" || bad "tables/*.csv: a formula from a model's file name reached a cell raw"
import csv, os, sys
cells = [c for f in os.listdir(sys.argv[1]) if f.endswith(".csv")
         for row in csv.reader(open(os.path.join(sys.argv[1], f), newline="")) for c in row]
hits = [c for c in cells if "cmd|" in c and c.lstrip("'")[:1] in ("=", "+", "-", "@")]
sys.exit(0 if hits and all(c.startswith("'") for c in hits) else 1)
PY
else
  echo "SKIP CSV from a model's file name: assimp-testmodels not installed"
fi
d=$tmp/c3b; mkrun "$d/run"
jedit "$d/run/properties.json" 'd["compiler"] = "+1+HYPERLINK(\"http://x\",\"y\")"; d["machine"]["cpu"] = "-2+3+cmd|'"'"' -C calc'"'"'!A0"'
timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2>&1
python3 - "$d/run/tables" <<'PY' && ok "tables/*.csv: +1+HYPERLINK(...) and -2+3+cmd|... get the apostrophe; numbers such as -0.25 do not" || bad "tables/*.csv: a formula cell without its apostrophe"
import csv, os, re, sys
cells = [c for f in os.listdir(sys.argv[1]) if f.endswith(".csv")
         for row in csv.reader(open(os.path.join(sys.argv[1], f), newline="")) for c in row]
# a cell that starts like a formula and is not one number, without the apostrophe
bad = [c for c in cells if c and c[0] in "=+-@\t\r" and not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)", c)]
hits = [c for c in cells if c.startswith(("'+1+HYPERLINK", "'-2+3+cmd|"))]
bad and print("\n".join(bad[:5]))
sys.exit(0 if not bad and len(hits) >= 2 else 1)
PY

# ---- 4. report.md: no raw HTML or live link from a results file or an input ----
d=$tmp/m4; mkrun "$d/run"
jedit "$d/run/flops.json" 'd["convention"] = "<script>alert(1)</script> <form action=https://evil.example/f>"; d["counting_rules"] = {"flops": {"operations": "<img src=x onerror=alert(2)>", "counted": "[x](javascript:alert(3)) ![](https://evil.example/p.png)"}}'
for f in "$d"/run/*.json; do sed -i 's#"key": "fixture-host/2-core"#"key": "[m](javascript:alert(4)) www.evil.example https://evil.example/k"#' "$f"; done
mkdir -p "$d/logs"; printf '#1 INITED\nDone 5 runs in 1 second(s)\n' > "$d/logs/<img src=x onerror=alert(5)>.log"
timeout $to "$exe" report --results "$d/run" --no-plots --fuzz-log "$d/logs/<img src=x onerror=alert(5)>.log" > /dev/null 2> "$d/err"; rc=$?
python3 - "$d/run/report.md" <<'PY' && ok "report.md: flops.json convention/counting rules, names and the fuzz-log path carry no HTML, link or image (exit $rc)" || bad "report.md carries markup from the results (above)"
import re, sys
md = open(sys.argv[1]).read()
bad = [p for p in ("<script", "<img", "<form", "![](", "https://evil", "www.evil") if p in md]
# every link left is one the renderer wrote: a section anchor or a plots/ path
links = [h for h in re.findall(r"(?<!\\)\]\(([^)]*)\)", md) if not re.match(r"#|plots/", h)]
present = "alert(1)" in md and "alert(5)" in md and "evil" in md   # the text itself stays, as text
(bad or links) and print("\n".join(bad + links))
sys.exit(0 if not bad and not links and present else 1)
PY

# ---- 5. pictures: IHDR, per-file and whole-page caps; memory bounded ----
d=$tmp/p5; mkrun "$d/run"
for i in 1 2 3 4 5 6 7 8; do png "$d/run/images/sparse$i.png" sparse 16; done
png "$d/run/images/bomb.png" ihdr 50000 50000
for i in $(seq 10 33); do png "$d/run/images/big$i.png" ihdr 1024 1024; done
python3 - "$exe" "$d/run" > "$d/mem" 2> "$d/err" <<'PY'
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "report", "--results", sys.argv[2], "--no-plots"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=300)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
PY
read -r rc rss < "$d/mem"; size=$(( $(stat -c %s "$d/run/report.html") >> 20 ))
n_sp=$(grep -o 'sparse[0-9].png: [0-9]* bytes, larger than the limit' "$d/run/report.html" | wc -l)
[ "$size" -le 66 ] && [ "$n_sp" -eq 8 ] && grep -q 'bomb.png: its IHDR declares' "$d/run/report.html" \
  && grep -q 'the page already holds its limit of pictures' "$d/run/report.html" \
  && ok "pictures: 16 MiB sparse files and an IHDR bomb not embedded, report.html $size MiB under the 64 MiB page cap" \
  || bad "pictures unbounded: report.html $size MiB, $n_sp of 8 sparse files refused (exit $rc)"
if [ -n "${SKB_ASAN:-}" ]; then echo "SKIP report's memory bound: ASan build (its quarantine holds freed memory)"
else [ "$rss" -le 400 ] && ok "report with 8 x 16 MiB and 24 x 3.5 MiB pictures: $rss MiB resident" || bad "report used $rss MiB"; fi

# ---- 6. no OBJ statement from a model's file name ----
d=$tmp/o6; mkdir -p "$d"; printf 'TOPSECRET-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ' > "$d/inside.bin"
name=$'a\nv 1 2 3\nv 4 5 6\nb.gltf'
python3 tests/fixtures/hostile/make_leak_gltf.py "$d/$name" inside.bin
timeout $to "$exe" skin --method linear --model "$d/$name" --out "$d/o.obj" --quiet 2> "$d/err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^v ' "$d/o.obj")" -eq 3 ] && [ "$(grep -c '^#' "$d/o.obj")" -eq 1 ] \
  && ok "skin --out: a newline in the model's file name stays in its comment (3 vertices, 1 comment)" \
  || bad "skin --out: $(grep -c '^v ' "$d/o.obj" 2>/dev/null) v lines for a 3-vertex model (exit $rc)"

# ---- 7. the low items: one line, the documented exit code ----
d=$tmp/w7; mkrun "$d/run"
timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2>&1
timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2> "$d/err"; rc=$?
[ $rc -eq 0 ] && ! grep -q 'report.json: unknown results file' "$d/err" \
  && ok "a report re-run into its folder: its own report.json is no unknown results file" || { bad "re-run report (exit $rc)"; head -2 "$d/err"; }
echo half > "$d/run/report.json.tmpAbC123"; echo half > "$d/run/report.html.tmpXyZ789"; echo keep > "$d/run/cpu.json.tmpQwE456"
timeout $to "$exe" report --results "$d/run" --no-plots > /dev/null 2>&1
[ ! -e "$d/run/report.json.tmpAbC123" ] && [ ! -e "$d/run/report.html.tmpXyZ789" ] && [ -e "$d/run/cpu.json.tmpQwE456" ] \
  && ok "a killed report's report.*.tmpXXXXXX are reclaimed, nothing else" || bad "report scratch left: $(ls "$d/run" | grep tmp | tr '\n' ' ')"
usage() {  # label pattern cmd...: exit 2, one line matching pattern, nothing else said
  local label=$1 pat=$2; shift 2
  timeout $to "$@" > /dev/null 2> "$d/u.err"; local rc=$?
  [ $rc -eq 2 ] && one_line "$d/u.err" && grep -q -- "$pat" "$d/u.err" && ok "$label: exit 2, '$(cat "$d/u.err")'" \
    || { bad "$label: exit $rc"; head -2 "$d/u.err"; }
}
usage "report --out ''" "report: --out: empty value" "$exe" report --results "$d/run" --out '' --no-plots
usage "report --out /proc" "/proc: it is on the kernel's proc file system" "$exe" report --results "$d/run" --out /proc --no-plots
usage "run --methods ''" "run: --methods: empty value" "$exe" run bounds --quick --methods '' --out "$d/b"
[ ! -e "$d/b" ] && ok "run --methods '' ran nothing" || bad "run --methods '' ran every method"
if [ $root -eq 1 ] && mknod "$d/fakedev-probe" c 1 3 2> /dev/null; then
  # a private device node (never the real /dev): a folder holding one is /dev-like
  rm -f "$d/fakedev-probe"; mkdir -p "$d/fakedev"; mknod "$d/fakedev/null" c 1 3
  usage "report --out a folder of device nodes" "holds device nodes (null)" "$exe" report --results "$d/run" --out "$d/fakedev" --no-plots
  usage "run --out below a folder of device nodes" "its parent .*fakedev holds device nodes" "$exe" run bounds --quick --out "$d/fakedev/new"
  [ "$(ls "$d/fakedev")" = null ] && ok "nothing written beside the device node" || bad "written among device nodes: $(ls "$d/fakedev")"
else
  echo "SKIP --out among device nodes: not root or mknod refused"
fi
M1='[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]'
echo "{\"transforms\": [$M1, $M1], \"weights\": [1.7976931348623157e308, -1.7976931348623157e308]}" > "$d/w.json"
timeout $to "$exe" blend --method linear --renormalize --input "$d/w.json" > /dev/null 2> "$d/err"; rc=$?
[ $rc -eq 1 ] && one_line "$d/err" && grep -q 'field "weights"\[1\]: -1.79769e+308 is negative' "$d/err" \
  && ok "blend --renormalize with ±DBL_MAX: the negative weight named, exit 1" || { bad "blend ±DBL_MAX (exit $rc)"; head -2 "$d/err"; }
echo "{\"transforms\": [$M1, $M1], \"weights\": [1.7976931348623157e308, 1.7976931348623157e308]}" > "$d/w.json"
timeout $to "$exe" blend --method linear --renormalize --input "$d/w.json" > "$d/b.out" 2> "$d/err"; rc=$?
[ $rc -eq 0 ] && grep -q '"matrix"' "$d/b.out" && ok "blend --renormalize with 2 x DBL_MAX: renormalised, no overflow" \
  || { bad "blend 2 x DBL_MAX (exit $rc)"; head -2 "$d/err"; }
# a rig of 100 joints weighting next to nothing (DirectX .x: assimp keeps such weights)
python3 - "$d/rig.x" <<'PY'
import sys
I = "1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;;"
n = 100
out = ["xof 0303txt 0032", "Frame Root {", " FrameTransformMatrix { %s }" % I]
out += [" Frame B%d { FrameTransformMatrix { %s } }" % (b, I) for b in range(n + 1)]
out += [" Mesh mesh {", "  4;", "  0.0;0.0;0.0;,", "  1.0;0.0;0.0;,", "  0.0;1.0;0.0;,", "  1.0;1.0;0.0;;",
        "  2;", "  3;0,1,2;,", "  3;1,3,2;;", "  XSkinMeshHeader { 4; 4; %d; }" % (n + 1),
        '  SkinWeights { "B0"; 4; 0,1,2,3; 1.0,1.0,1.0,1.0; %s }' % I]
out += ['  SkinWeights { "B%d"; 1; 0; 1e-30; %s }' % (b, I) for b in range(1, n + 1)]
open(sys.argv[1], "w").write("\n".join(out + [" }", "}"]) + "\n")
PY
timeout 120 "$exe" skin --method linear --model "$d/rig.x" --out "$d/rig.obj" > /dev/null 2> "$d/err"; rc=$?
[ $rc -eq 0 ] && grep -q '101 joints.*(1 had more than 4 influences)' "$d/err" \
  && ok "100 joints weighting 1e-30 on one vertex: loaded, the vertex counted as truncated" || { bad "100 negligible weights (exit $rc)"; head -2 "$d/err"; }
# the fuzz claim never comes from the current directory's build/fuzz/fuzz.log
mkdir -p "$d/cwd/build/fuzz" "$d/bin"; cp "$exe" "$d/bin/skinbench"
printf 'Done 987654 runs in 600 second(s)\n' > "$d/cwd/build/fuzz/fuzz.log"
mkrun "$d/run"
(cd "$d/cwd" && SKB_REFERENCE="$OLDPWD/reports/reference.json" timeout $to "$d/bin/skinbench" report --results "$d/run" --no-plots \
   --reference "$OLDPWD/reports/reference.json") > /dev/null 2>&1
! grep -q 987654 "$d/run/report.md" && ok "no fuzz claim from the current directory's build/fuzz/fuzz.log" \
  || bad "report.md claims the current directory's fuzz log"
# nightly.sh: the baseline and its binary enter the store in one transaction
# (a kill -9 at each step: tests/store.sh); a store that cannot be written —
# here a FIFO at its path, never replaced — is said, nothing claimed, exit 2
cat > "$d/fake" <<SH
#!/usr/bin/env bash
# run: a complete synthetic run (tests/lib/mkrun.py); anything else: the real skinbench
if [ "\$1" = run ]; then
  while [ \$# -gt 0 ]; do [ "\$1" = --out ] && exec python3 "$PWD/tests/lib/mkrun.py" "\$2" --binary "$exe"; shift; done
  exit 2
fi
exec "$exe" "\$@"
SH
chmod +x "$d/fake"; mkfifo "$d/store.fifo"
timeout 300 bash scripts/nightly.sh --exe "$d/fake" --store "$d/store.fifo" --validation "$d/none.json" --no-bisect \
  --out "$d/n1" --update-baseline > "$d/n.log" 2>&1; rc=$?
[ $rc -eq 2 ] && [ -p "$d/store.fifo" ] && grep -q 'not stored' "$d/n.log" && grep -q 'store.fifo' "$d/n.log" \
  && ! grep -q 'now this machine.s baseline' "$d/n.log" \
  && ok "nightly: a store path that is a FIFO is named, left a FIFO, no baseline claimed, exit 2" \
  || { bad "nightly with a FIFO store (exit $rc)"; tail -4 "$d/n.log"; }
# the run's compare.json (the night's verdict on its page): truncated, a
# link and a FIFO are each named on the page, never followed or read, and
# the report still renders (exit 0)
for kind in truncated link fifo; do
  r="$d/verdict-$kind"; rm -rf "$r"; cp -r tests/fixtures/run-a "$r"
  case $kind in
    truncated) printf '{"verdict": "pass", ' > "$r/compare.json" ;;
    link) ln -s /etc/passwd "$r/compare.json" ;;
    fifo) mkfifo "$r/compare.json" ;;
  esac
  timeout 60 "$exe" report --results "$r" --no-plots > /dev/null 2>&1; rc=$?
  [ $rc -eq 0 ] && grep -q 'compare.json here is unreadable' "$r/report.md" && ! grep -q 'root:' "$r/report.md" \
    && ok "report: a $kind compare.json is named unreadable on the page, exit 0" \
    || { bad "report with a $kind compare.json (exit $rc)"; grep -m1 'gate on this run' "$r/report.md"; }
done

exit $fail
