#!/usr/bin/env bash
# Fault injection (docs/outputs.md "Outputs": every results file is written whole or not at all):
#  1. kill -9 `skinbench run ... --quick` at >= 20 random moments into a
#     directory that holds a previous complete run: after every kill each
#     results file present parses as JSON and every file of the complete run
#     is still there and valid (the old version or a complete new one);
#  2. a later complete run into the same directory succeeds and leaves no
#     temporary files of Google Benchmark's;
#  3. two concurrent `run cpu` into one --out: both succeed, one waits for the
#     other's lock, cpu-gbench.json parses;
#  4. read-only --out: one clear line naming the directory before Google
#     Benchmark starts, and the later experiments still run (each reports
#     its own error); the directory is unchanged;
#  5. ENOSPC on a small tmpfs: the run fails with a message, the previous
#     cpu.json / cpu-gbench.json are byte-identical afterwards.
# 4 and 5 use private mounts (unshare -m, root only) and are skipped cleanly
# without them (4 falls back to chmod 555 when not root).
# SKB_FAULT_SEED fixes the random kill moments; SKB_FAULT_KILLS their number.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
EXPS="properties flops bounds cpu spheres"
seed=${SKB_FAULT_SEED:-$$}
RANDOM=$seed
echo "faults: random seed $seed (SKB_FAULT_SEED=$seed reproduces the kill moments)"

# check DIR REFLIST: every *.json under DIR parses; every file in REFLIST
# exists, parses and is still the same experiment's results
check() {
  python3 - "$1" "$2" <<'EOF'
import json, os, sys
d, ref = sys.argv[1], sys.argv[2]
bad = []
for root, _, files in os.walk(d):
    for f in files:
        if f.endswith(".json"):
            p = os.path.join(root, f)
            try:
                json.load(open(p))
            except Exception as e:
                bad.append("%s: %s" % (os.path.relpath(p, d), e))
# a manifest (written last by a run that finished) vouches for exactly the files there; a
# killed run leaves none (it removes the earlier run's when it starts)
mp = os.path.join(d, "manifest.json")
if os.path.exists(mp):
    import hashlib
    for f, e in json.load(open(mp))["files"].items():
        p = os.path.join(d, f)
        if not os.path.exists(p) or hashlib.sha256(open(p, "rb").read()).hexdigest() != e["sha256"]:
            bad.append("manifest.json lists %s with other bytes: a manifest that is not of these files" % f)
for line in open(ref):
    rel, exp = line.split()
    p = os.path.join(d, rel)
    if not os.path.exists(p):
        bad.append("%s: gone" % rel)
        continue
    try:
        doc = json.load(open(p))
    except Exception:
        continue   # reported above
    if exp != "-" and doc.get("experiment") != exp:
        bad.append("%s: experiment %r, expected %r" % (rel, doc.get("experiment"), exp))
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
}

reflist() {
  python3 - "$1" > "$2" <<'EOF'
import json, os, sys
d = sys.argv[1]
for root, _, files in os.walk(d):
    for f in sorted(files):
        if f.endswith(".json") and f != "manifest.json":   # a killed run removes it (check)
            p = os.path.join(root, f)
            doc = json.load(open(p))
            exp = doc.get("experiment", "-") if isinstance(doc, dict) else "-"
            print(os.path.relpath(p, d), exp if isinstance(exp, str) and exp else "-")
EOF
}

# ---- 1. kill -9 at random moments ----
out="$tmp/out"
t0=$(date +%s%N)
# shellcheck disable=SC2086
"$exe" run $EXPS --quick --out "$out" >"$tmp/ref.log" 2>&1 || { bad "reference run failed: $(tail -2 "$tmp/ref.log")"; }
t1=$(date +%s%N)
dur_ms=$(( (t1 - t0) / 1000000 ))
reflist "$out" "$tmp/ref.list"
[ "$(wc -l < "$tmp/ref.list")" -ge 5 ] && ok || bad "reference run wrote $(wc -l < "$tmp/ref.list") JSON files"
want=${SKB_FAULT_KILLS:-20}; kills=0; tries=0
while [ $kills -lt "$want" ] && [ $tries -lt $((want * 3)) ]; do
  tries=$((tries + 1))
  at_ms=$(( RANDOM * dur_ms / 32768 ))
  # shellcheck disable=SC2086
  "$exe" run $EXPS --quick --out "$out" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((at_ms / 1000)) $((at_ms % 1000)))"
  if kill -9 "$pid" 2>/dev/null; then kills=$((kills + 1)); fi
  wait "$pid" 2>/dev/null
  if ! msg=$(check "$out" "$tmp/ref.list"); then
    bad "after kill -9 at ${at_ms} ms: $msg"
  fi
done
[ $kills -ge "$want" ] && ok || bad "only $kills of $want kills hit a running process"
echo "faults: $kills kill -9 at random moments of a ${dur_ms} ms run; results checked after each"

# ---- 2. a complete run after the kills ----
# shellcheck disable=SC2086
"$exe" run $EXPS --quick --out "$out" >"$tmp/after.log" 2>&1 && ok || bad "run after the kills failed: $(tail -2 "$tmp/after.log")"
check "$out" "$tmp/ref.list" >/dev/null && ok || bad "results invalid after a complete run"
ls "$out" | grep -q 'cpu-gbench.json.tmp' && bad "Google Benchmark temporaries left: $(ls "$out")" || ok

# ---- 3. concurrent run cpu into one directory ----
for trial in 1 2; do
  c="$tmp/conc$trial"; mkdir -p "$c"
  "$exe" run cpu --quick --out "$c" >"$tmp/c1.log" 2>&1 & p1=$!
  "$exe" run cpu --quick --out "$c" >"$tmp/c2.log" 2>&1 & p2=$!
  wait $p1; r1=$?; wait $p2; r2=$?
  [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && ok || bad "concurrent run cpu: exits $r1 $r2: $(tail -1 "$tmp/c1.log") / $(tail -1 "$tmp/c2.log")"
  python3 -m json.tool "$c/cpu-gbench.json" >/dev/null 2>&1 && python3 -m json.tool "$c/cpu.json" >/dev/null 2>&1 \
    && ok || bad "concurrent run cpu (trial $trial): corrupt results"
  cat "$tmp/c1.log" "$tmp/c2.log" | grep -q "waiting for another run cpu" && ok || bad "concurrent run cpu (trial $trial): neither run waited for the lock"
done

# ---- 4. read-only --out ----
ro="$tmp/ro"; mkdir -p "$ro"; cp "$out/cpu.json" "$ro/"
ro_run() {
  if [ "$(id -u)" = 0 ]; then
    unshare -m bash -c 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"' \
      _ "$ro" "$exe" run cpu spheres bounds --quick --out "$ro"
  else
    chmod 555 "$ro"; "$exe" run cpu spheres bounds --quick --out "$ro"; local rc=$?; chmod 755 "$ro"; return $rc
  fi
}
if [ "$(id -u)" = 0 ] && ! unshare -m true 2>/dev/null; then
  echo "skip: read-only --out (no unshare -m here)"
else
  ro_run >"$tmp/ro.log" 2>&1; rc=$?
  [ $rc -ne 0 ] && ok || bad "read-only --out: exit 0"
  grep -q "run cpu: cpu: results directory $ro is not writable" "$tmp/ro.log" && ok || bad "read-only --out: no message naming $ro: $(grep skinbench: "$tmp/ro.log")"
  grep -q "invalid file name" "$tmp/ro.log" && bad "Google Benchmark was started on a read-only --out" || ok
  grep -q "3 experiment(s), 3 failed" "$tmp/ro.log" && ok || bad "read-only --out: later experiments did not run: $(tail -1 "$tmp/ro.log")"
  [ "$(ls -A "$ro")" = cpu.json ] && cmp -s "$ro/cpu.json" "$out/cpu.json" && ok || bad "read-only dir changed: $(ls -A "$ro")"
fi

# ---- 5. ENOSPC on a small tmpfs ----
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  full="$tmp/full"; mkdir -p "$full"
  used_k=$(( ( $(stat -c %s "$out/cpu.json") + $(stat -c %s "$out/cpu-gbench.json") ) / 1024 + 16 ))
  size_k=$(( used_k + $(stat -c %s "$out/cpu-gbench.json") / 2048 ))   # room for half a new cpu-gbench.json
  unshare -m bash -c 'mount -t tmpfs -o size="$1"k tmpfs "$2" && cp "$3/cpu.json" "$3/cpu-gbench.json" "$2/" && "$4" run cpu spheres --quick --out "$2"; rc=$?;
    cmp -s "$2/cpu.json" "$3/cpu.json" && cmp -s "$2/cpu-gbench.json" "$3/cpu-gbench.json" && echo KEPT;
    for f in "$2"/*.json; do python3 -m json.tool "$f" >/dev/null || echo "BROKEN $f"; done; ls "$2" | grep -q "\.tmp" && echo TEMPLEFT; exit $rc' \
    _ "$size_k" "$full" "$out" "$exe" >"$tmp/full.log" 2>&1; rc=$?
  [ $rc -ne 0 ] && ok || bad "ENOSPC: exit 0"
  grep -q "^KEPT" "$tmp/full.log" && ok || bad "ENOSPC: previous cpu results not kept: $(grep skinbench: "$tmp/full.log")"
  grep -qE "^(BROKEN|TEMPLEFT)" "$tmp/full.log" && bad "ENOSPC: $(grep -E '^(BROKEN|TEMPLEFT)' "$tmp/full.log")" || ok
  grep -qE "run cpu: .*(disk full|No space left)" "$tmp/full.log" && ok || bad "ENOSPC: no clear message: $(grep skinbench: "$tmp/full.log")"
else
  echo "skip: ENOSPC (needs root and unshare -m for a private tmpfs)"
fi

summary faults
