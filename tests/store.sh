#!/usr/bin/env bash
# The results store and the gate that fails closed (docs/report-and-regression.md
# "The results store"), attacked as issue 36 found them on e933045, each case
# planted: no exit 0, no baseline lost or replaced by another machine's, each
# message naming the cause.
#  1 a time unit "NS" in cpu-gbench.json beside a +50 % slow-down
#  2 a partial run (one experiment) as the baseline; a run whose experiment failed
#  3 another machine's timing file in a run folder
#  4 kill -9 at every step of a baseline update (strace injects SIGKILL at
#    the N-th call of each syscall that writes, opens, closes or locks)
#  5 machine keys lab.7/x and lab_7/x
#  6 a store path near SQLite's limit (512 bytes absolute); a run folder path over 1,023
#  7 compare --ab when the current build no longer times a method
#  8 20,000 benchmark names; 150,000 repetitions of one (scaling by ratio)
#  9 a reused --out folder holding two runs (two seeds)
# Runs are made by tests/lib/mkrun.py (fixture files with a manifest), or by
# `skinbench run` where the case is about what run writes.
. "$(dirname "$0")/lib/preamble.sh"
mk() { python3 tests/lib/mkrun.py "$@"; }
S=$tmp/s.sqlite
printf 'a stand-in for the binary of the baseline run\n' > "$tmp/bin1"
printf 'a stand-in for the binary of the new run\n' > "$tmp/bin2"
baseline_of() {   # baseline_of MACHINE [STORE]: the row of its baseline run, or "none"
  "$exe" store baseline --store "${2:-$S}" 2> /dev/null \
    | awk -v k="baseline of '$1': run " 'index($0, k) == 1 { split(substr($0, length(k) + 1), w, " "); print w[1]; f = 1 }
                                        END { if (!f) print "none" }'
}
mk "$tmp/b1" --machine m1 --reps 10 --binary "$tmp/bin1" --rng 1
mk "$tmp/b2" --machine m2 --reps 10 --rng 2
"$exe" store add "$tmp/b1" --store "$S" --baseline --binary "$tmp/bin1" > /dev/null \
  && "$exe" store add "$tmp/b2" --store "$S" --baseline > /dev/null \
  && [ "$(baseline_of m1)" = 1 ] && [ "$(baseline_of m2)" = 2 ] \
  && ok "store: two machines' runs added as their baselines (runs 1, 2)" || bad "store setup"

# ---- 1. a time unit the reader does not know ----
mk "$tmp/ns" --machine m1 --reps 10 --time dlb=1.5 --unit NS --rng 3
"$exe" compare --store "$S" "$tmp/ns" > "$tmp/c1.out" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q 'INCONCLUSIVE: cpu-gbench.json (the current.s file cannot be read: "benchmarks"\[0\] (double/linear/cloth): "time_unit" NS is not ns, us, ms or s)' "$tmp/c1.out" \
  && ! grep -q 'out of memory' "$tmp/c1.out" && ok "1: time unit NS: exit 3, the reader's own reason named" \
  || { bad "1: NS compare exit $rc"; grep -i 'time_unit\|memory\|compare:' "$tmp/c1.out"; }
"$exe" compare --store "$S" "$tmp/ns" --update-baseline > "$tmp/c1u.out" 2>&1; rc=$?
"$exe" store add "$tmp/ns" --store "$S" --baseline > /dev/null 2> "$tmp/c1a.err"; rc2=$?
[ $rc -ne 0 ] && [ $rc2 -eq 2 ] && grep -q 'time_unit' "$tmp/c1a.err" && [ "$(baseline_of m1)" = 1 ] \
  && ok "1: that run is never installed (compare --update-baseline exit $rc, store add --baseline exit 2)" \
  || { bad "1: NS run installed? ($rc, $rc2, baseline $(baseline_of m1))"; cat "$tmp/c1a.err"; }
mk "$tmp/real" --machine m1 --reps 10 --icount dlb=1.10 --rng 4
"$exe" compare --store "$S" "$tmp/real" > "$tmp/c1r.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^REGRESSION icount.json: double/dlb/cloth executes +10.00 %' "$tmp/c1r.out" \
  && ok "1: a later real regression is still caught (exit 1)" || { bad "1: later regression exit $rc"; tail -3 "$tmp/c1r.out"; }

# ---- 2. a partial run, a failed experiment ----
"$exe" run bounds --quick --quiet --out "$tmp/partial" 2> /dev/null
"$exe" store add "$tmp/partial" --store "$S" --baseline > /dev/null 2> "$tmp/c2.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'not a complete run: experiment properties: not run' "$tmp/c2.err" \
  && ok "2: a run of bounds only is refused as a baseline, naming what did not run" \
  || { bad "2: partial run exit $rc"; cat "$tmp/c2.err"; }
"$exe" compare --store "$S" "$tmp/partial" --update-baseline > "$tmp/c2c.out" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q 'not a complete run' "$tmp/c2c.out" && ! "$exe" store list --store "$S" | grep -q partial \
  && ok "2: compare --update-baseline of it (its machine's first): exit $rc, nothing stored" \
  || { bad "2: partial first baseline exit $rc"; tail -3 "$tmp/c2c.out"; }
mk "$tmp/forged" --machine m1 --omit properties.json --omit flops.json --rng 5
"$exe" store add "$tmp/forged" --store "$S" > /dev/null 2> "$tmp/c2f.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'not every experiment' "$tmp/c2f.err" \
  && ok "2: a manifest that says complete over missing results is not taken on its word" \
  || { bad "2: forged complete exit $rc"; cat "$tmp/c2f.err"; }
mk "$tmp/failed" --machine m1 --failed gpu --rng 6
"$exe" store add "$tmp/failed" --store "$S" --baseline > /dev/null 2> "$tmp/c2x.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'experiment gpu: failed' "$tmp/c2x.err" && [ "$(baseline_of m1)" = 1 ] \
  && ok "2: a night whose experiment failed never enters, let alone as the baseline" \
  || { bad "2: failed experiment exit $rc"; cat "$tmp/c2x.err"; }

# ---- 3. another machine's timing file ----
mk "$tmp/a3" --machine m1 --reps 10 --rng 7
cp "$tmp/b2/cpu-gbench.json" "$tmp/a3/"
"$exe" compare --store "$S" "$tmp/a3" > "$tmp/c3.out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "cpu-gbench.json" "$tmp/c3.out" \
  && grep -Eq "files of more than one run \(run id|cpu-gbench.json is not the file the run's manifest.json lists" "$tmp/c3.out" \
  && ok "3: m2's cpu-gbench.json in m1's run: exit 2, the file named" || { bad "3: exit $rc"; cat "$tmp/c3.out"; }
rm "$tmp/a3/manifest.json"
"$exe" compare --store "$S" "$tmp/a3" > "$tmp/c3b.out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'files of more than one run (run id' "$tmp/c3b.out" \
  && ok "3: without a manifest too: the run ids disagree, exit 2" || { bad "3b: exit $rc"; cat "$tmp/c3b.out"; }

# ---- 5. machine keys that one directory name would have merged ----
S5=$tmp/s5.sqlite
mk "$tmp/k1" --machine "lab.7/x" --rng 8; mk "$tmp/k2" --machine "lab_7/x" --rng 9
mk "$tmp/k3" --machine "lab.7/x" --rng 10 --stamp 2026-01-02T03:00:00Z
"$exe" store add "$tmp/k1" "$tmp/k2" --store "$S5" --baseline > /dev/null
"$exe" store add "$tmp/k3" --store "$S5" --baseline > "$tmp/c5.out" 2>&1
[ "$(baseline_of 'lab.7/x' "$S5")" = 3 ] && [ "$(baseline_of 'lab_7/x' "$S5")" = 2 ] \
  && ok "5: lab.7/x and lab_7/x keep a baseline each; replacing one leaves the other" \
  || { bad "5: baselines $(baseline_of 'lab.7/x' "$S5") $(baseline_of 'lab_7/x' "$S5")"; "$exe" store baseline --store "$S5"; }

# ---- 6. long paths ----
long=$tmp; while [ ${#long} -lt 440 ]; do long=$long/dddddddddddddddddddddddddddddddddddddddddddddddddd; done
long=${long:0:445}
mkdir -p "$long" && S6=$long/a-store-near-the-limit.sqlite
"$exe" store add "$tmp/b1" "$tmp/b2" --store "$S6" --baseline > /dev/null 2>&1
mk "$tmp/n6" --machine m1 --rng 11 --stamp 2026-01-02T03:00:00Z
"$exe" store add "$tmp/n6" --store "$S6" --baseline > /dev/null 2> "$tmp/c6.err"; rc=$?
[ $rc -eq 0 ] && [ ${#S6} -gt 470 ] && [ "$(baseline_of m1 "$S6")" = 3 ] && [ "$(baseline_of m2 "$S6")" = 2 ] \
  && ok "6: a store path of ${#S6} bytes: m1's baseline replaced, m2's kept" \
  || { bad "6: long store path (exit $rc, m1 $(baseline_of m1 "$S6"), m2 $(baseline_of m2 "$S6"))"; cat "$tmp/c6.err"; }
"$exe" store add "$tmp/n6" --store "$long/$(printf 'x%.0s' $(seq 1 100)).sqlite" > /dev/null 2> "$tmp/c6b.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'a store path of 5[0-9][0-9] bytes (absolute); SQLite takes at most 500' "$tmp/c6b.err" \
  && ok "6: a store path over SQLite's limit: refused in one line, never cut" || { bad "6: too long store path exit $rc"; cat "$tmp/c6b.err"; }
deep=$long; while [ ${#deep} -lt 1030 ]; do deep=$deep/eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee; done; deep=$deep/run
mk "$deep" --machine m1 --rng 12
"$exe" store add "$deep" --store "$S" --baseline > /dev/null 2> "$tmp/c6c.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'a results folder path of' "$tmp/c6c.err" && [ "$(baseline_of m1)" = 1 ] \
  && ok "6: a run folder path over 1,023 bytes: refused, never cut" || { bad "6: deep run folder exit $rc"; cat "$tmp/c6c.err"; }

# ---- 7. the current build no longer times a method ----
python3 - "$tmp/ab7" <<'EOF'
import json, os, random, sys
rng = random.Random(7)
names = [f"{k}/{m}/cloth" for m in ("linear", "dlb", "qb") for k in ("double", "f32")]
for r in range(1, 13):
    for side in "ab":
        d = os.path.join(sys.argv[1], f"round-{r}", side); os.makedirs(d)
        rows = [{"name": n, "run_name": n, "run_type": "iteration", "real_time": 1e5 * (1 + rng.gauss(0, .01)),
                 "cpu_time": 1e5 * (1 + rng.gauss(0, .01)), "time_unit": "ns"}
                for n in names if not (side == "b" and "/qb/" in n) for _ in range(5)]
        json.dump({"context": {}, "benchmarks": rows}, open(os.path.join(d, "cpu-gbench.json"), "w"))
EOF
"$exe" compare tests/fixtures/run-a tests/fixtures/run-a --ab "$tmp/ab7" --summary "$tmp/c7.json" > "$tmp/c7.out" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q '^INCONCLUSIVE: qb (ab: timed by the baseline.s build only (removed method))' "$tmp/c7.out" \
  && ok "7: compare --ab with a method the current build no longer times: exit 3, named removed" \
  || { bad "7: removed method exit $rc"; grep -i 'qb\|compare:' "$tmp/c7.out"; }

# ---- 8. the largest files the reader accepts: scaling measured by ratio ----
python3 - "$tmp/big" <<'EOF'
import json, os, sys
def run(d, names, reps):
    os.makedirs(d, exist_ok=True)
    rows = [{"name": n, "run_name": n, "run_type": "iteration", "real_time": 1000.0 + (i % 97) + r,
             "cpu_time": 1000.0 + (i % 97) + r, "time_unit": "ns"} for i, n in enumerate(names) for r in range(reps)]
    json.dump({"context": {}, "benchmarks": rows}, open(os.path.join(d, "cpu-gbench.json"), "w"))
b = sys.argv[1]
for n in (2000, 20000):
    run(f"{b}/names{n}", [f"double/dlb@v{i}/cloth" for i in range(n)], 2)
for reps in (15000, 150000):
    run(f"{b}/reps{reps}", ["double/dlb/cloth"], reps)
EOF
t() { local s e; s=$(date +%s%N); "$exe" compare "$1" "$1" --only cpu > /dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
n1=$(t "$tmp/big/names2000"); n2=$(t "$tmp/big/names20000"); r1=$(t "$tmp/big/reps15000"); r2=$(t "$tmp/big/reps150000")
mb=$(( $(stat -c %s "$tmp/big/reps150000/cpu-gbench.json") / 1000000 ))
echo "    8: compare of 2,000 / 20,000 names: $n1 / $n2 ms; 15,000 / 150,000 repetitions ($mb MB): $r1 / $r2 ms"
python3 -c 'import sys; a=[max(1, int(x)) for x in sys.argv[1:]]; sys.exit(not (a[1] / a[0] < 40 and a[3] / a[2] < 40))' \
  "$n1" "$n2" "$r1" "$r2" && ok "8: ten times the names or repetitions costs under 40 times the time (quadratic: 100)" \
  || bad "8: compare does not scale as n log n ($n1 -> $n2 ms, $r1 -> $r2 ms)"

# ---- 9. a reused --out folder holding two runs ----
"$exe" run bounds --quick --quiet --seed 1 --out "$tmp/reused" 2> /dev/null
"$exe" run properties --quick --quiet --seed 2 --out "$tmp/reused" 2> /dev/null
"$exe" report --results "$tmp/reused" --no-plots > "$tmp/c9.out" 2>&1; rc=$?
"$exe" compare "$tmp/reused" "$tmp/reused" > "$tmp/c9c.out" 2>&1; rc2=$?
"$exe" store add "$tmp/reused" --store "$S" > /dev/null 2> "$tmp/c9s.err"; rc3=$?
[ $rc -eq 1 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && grep -q 'files of more than one run (seed' "$tmp/c9.out" \
  && grep -q 'files of more than one run' "$tmp/c9c.out" && [ ! -e "$tmp/reused/report.md" ] \
  && ok "9: two seeds in one folder: report exit 1, compare 2, store 2, each naming the seeds" \
  || { bad "9: reused folder ($rc, $rc2, $rc3)"; cat "$tmp/c9.out" "$tmp/c9c.out" "$tmp/c9s.err"; }

# ---- the store itself ----
"$exe" store add "$tmp/b1" --store "$S" > "$tmp/d.out" 2>&1 && grep -q 'is already run 1' "$tmp/d.out" \
  && ok "store add of a stored run: not stored twice" || bad "store add twice: $(cat "$tmp/d.out")"
mk "$tmp/inj" --machine m1 --injected dlb:10 --rng 13
"$exe" store add "$tmp/inj" --store "$S" --baseline > /dev/null 2> "$tmp/i.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'injection marker (dlb:10)' "$tmp/i.err" && [ "$(baseline_of m1)" = 1 ] \
  && ! "$exe" store list --store "$S" | grep -q injected \
  && ok "an injected run is never a baseline (exit 2; nothing stored: one transaction)" || { bad "injected baseline ($rc)"; cat "$tmp/i.err"; }
mk "$tmp/unv" --machine m1 --unverified --rng 14
"$exe" store add "$tmp/unv" --store "$S" --baseline > /dev/null 2> "$tmp/u.err"; rc=$?
[ $rc -eq 2 ] && grep -q '"verified" is not true' "$tmp/u.err" && [ "$(baseline_of m1)" = 1 ] \
  && ok "an unverified run is never a baseline" || { bad "unverified baseline ($rc)"; cat "$tmp/u.err"; }
"$exe" store baseline --store "$S" --machine m1 --export "$tmp/exp" --export-binary "$tmp/exp-bin" > /dev/null \
  && cmp -s "$tmp/b1/cpu.json" "$tmp/exp/cpu.json" && cmp -s "$tmp/b1/manifest.json" "$tmp/exp/manifest.json" \
  && cmp -s "$tmp/bin1" "$tmp/exp-bin" && [ -x "$tmp/exp-bin" ] \
  && ok "store baseline --export / --export-binary: the run's own bytes, its manifest, its binary" || bad "export"
"$exe" store export 1 --store "$S" --out "$tmp/exp" > /dev/null 2> "$tmp/e.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'exists: an export writes a new folder' "$tmp/e.err" && ok "export never writes into an existing folder" \
  || { bad "export over a folder ($rc)"; cat "$tmp/e.err"; }
"$exe" compare "$tmp/b1" "$tmp/real" --update-baseline > /dev/null 2> "$tmp/x.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'writes the results store: add --store FILE' "$tmp/x.err" \
  && ok "compare --update-baseline without --store: exit 2, names the store" || { bad "dir update-baseline ($rc)"; cat "$tmp/x.err"; }
ln -s "$S" "$tmp/link.sqlite"; mkfifo "$tmp/fifo.sqlite"
for p in link fifo; do
  timeout 10 "$exe" store add "$tmp/n6" --store "$tmp/$p.sqlite" > /dev/null 2> "$tmp/p.err"; rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/p.err")" -eq 1 ] && ok "a store path that is a $p: refused in one line, never opened" \
    || { bad "store at a $p ($rc)"; cat "$tmp/p.err"; }
done
[ "$(baseline_of m1)" = 1 ] && [ -p "$tmp/fifo.sqlite" ] && [ -L "$tmp/link.sqlite" ] && ok "the link and the FIFO untouched" || bad "link/FIFO touched"

# ---- old folders, once ----
mkdir -p "$tmp/old/history" "$tmp/old/baseline/bin"
mk "$tmp/old/history/2026-01-01T0300Z" --machine m9 --legacy --rng 20
mk "$tmp/old/history/2026-01-02T0300Z" --machine m9 --legacy --rng 21 --icount dlb=1.2
cp -r "$tmp/old/history/2026-01-01T0300Z/." "$tmp/old/baseline/"   # the old nightly copied a night
cp "$tmp/bin1" "$tmp/old/baseline/bin/skinbench"; chmod +x "$tmp/old/baseline/bin/skinbench"
S7=$tmp/s7.sqlite
"$exe" store import --store "$S7" --baseline "$tmp/old/baseline" --history "$tmp/old/history" > "$tmp/im.out" 2>&1; rc=$?
"$exe" store import --store "$S7" --baseline "$tmp/old/baseline" --history "$tmp/old/history" > "$tmp/im2.out" 2>&1
[ $rc -eq 0 ] && [ "$("$exe" store list --store "$S7" | grep -c m9)" -eq 2 ] && [ "$(baseline_of m9 "$S7")" = 1 ] \
  && grep -q 'is now its machine.s baseline' "$tmp/im.out" && ! grep -q ' as run ' "$tmp/im2.out" \
  && ok "store import: two old nights (the baseline is night 1's bytes: one run), its baseline and binary; again: nothing new" \
  || { bad "store import ($rc)"; cat "$tmp/im.out" "$tmp/im2.out"; "$exe" store list --store "$S7"; }

# ---- 4. kill -9 at every step of a baseline update ----
if ! command -v strace > /dev/null || ! strace -o /dev/null -e trace=openat true 2> /dev/null; then
  echo "SKIP kill -9 at every step (strace missing or not permitted here)"
else
  K=$tmp/k.sqlite
  mk "$tmp/kb1" --machine m1 --binary "$tmp/bin1" --rng 30
  mk "$tmp/kb2" --machine m2 --rng 31
  mk "$tmp/kn" --machine m1 --binary "$tmp/bin2" --rng 32 --stamp 2026-01-02T03:00:00Z
  "$exe" store add "$tmp/kb1" --store "$K" --baseline --binary "$tmp/bin1" > /dev/null
  "$exe" store add "$tmp/kb2" --store "$K" --baseline > /dev/null
  cp "$K" "$K.clean"
  kills=0 broken=0 kinds=""
  for sc in openat close write pwrite64 fdatasync fsync ftruncate unlink rename fcntl; do
    n=1
    while [ $n -lt 2000 ]; do
      rm -f "$K" "$K-wal" "$K-shm" "$K-journal"; cp "$K.clean" "$K"
      { strace -o /dev/null -e "trace=$sc" -e "inject=$sc:signal=SIGKILL:when=$n" \
          "$exe" store add "$tmp/kn" --store "$K" --baseline --binary "$tmp/bin2" > /dev/null 2>&1; } 2> /dev/null; rc=$?
      bl=$("$exe" store baseline --store "$K" 2>&1)
      m1=$(echo "$bl" | awk -v k="baseline of 'm1': run " 'index($0, k) == 1 { split(substr($0, length(k) + 1), w, " "); print w[1] }')
      m2=$(echo "$bl" | awk -v k="baseline of 'm2': run " 'index($0, k) == 1 { split(substr($0, length(k) + 1), w, " "); print w[1] }')
      "$exe" compare --store "$K" "$tmp/kn" --only icount > /dev/null 2>&1; crc=$?
      left=$(ls -A "$tmp" | grep '^k\.sqlite' | grep -v -x -e k.sqlite -e k.sqlite-wal -e k.sqlite-shm -e k.sqlite.clean)
      if { [ "$m1" != 1 ] && [ "$m1" != 3 ]; } || [ "$m2" != 2 ] || [ $crc -ne 0 ] || [ -n "$left" ] \
         || { [ $rc -eq 0 ] && [ "$m1" != 3 ]; }; then
        broken=$((broken + 1)); echo "    killed at $sc #$n (exit $rc): m1 baseline $m1, m2 $m2, next compare $crc, left: $left"
      fi
      [ $rc -eq 137 ] && kills=$((kills + 1))
      [ $rc -eq 0 ] && break
      n=$((n + 1))
    done
    kinds="$kinds $sc:$((n - 1))"
  done
  echo "    4: SIGKILL at each call of:$kinds ($kills kills)"
  [ $broken -eq 0 ] && [ $kills -gt 50 ] \
    && ok "4: kill -9 at each of $kills steps of a baseline update: m1's baseline old or new, m2's untouched, the next compare reads it" \
    || bad "4: $broken of $kills kills broke the store"
fi
exit $fail
