#!/usr/bin/env bash
# The nightly gates (docs/report-and-regression.md "Nightly regression"): `run cpu --repetitions/--datasets`, the
# instruction-count gate (run icount, compare on icount.json), the paired
# A/B timing gate (compare --ab on synthetic and on real sittings), the
# compare.py-style table, and their bad-input exits.  Speed is never
# asserted: the synthetic sittings carry known ratios.
. "$(dirname "$0")/lib/preamble.sh"

# ---- run cpu --repetitions / --datasets ----
"$exe" run cpu --quick --quiet --datasets cloth --repetitions 3 --out "$tmp/r3" 2> "$tmp/r3.err"
python3 - "$tmp/r3/cpu-gbench.json" <<'EOF' && ok "run cpu --repetitions 3 --datasets cloth: 3 repetitions of cloth kernels only" || bad "--repetitions/--datasets not honoured"
import json, sys, collections
d = json.load(open(sys.argv[1]))
c = collections.Counter(b["run_name"] for b in d["benchmarks"] if b.get("run_type") == "iteration")
assert c and all(v == 3 for v in c.values()), c
assert all(n.endswith("/cloth") for n in c), [n for n in c if not n.endswith("/cloth")]
EOF
for badarg in "--repetitions 0" "--repetitions x" "--repetitions 1001" "--datasets nosuch"; do
  # shellcheck disable=SC2086
  "$exe" run cpu --quick $badarg --out "$tmp/bad" > /dev/null 2> "$tmp/bad.err"; rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/bad.err")" -eq 1 ] && ok "run cpu $badarg: exit 2, one line" \
    || bad "run cpu $badarg: exit $rc: $(cat "$tmp/bad.err")"
done

# ---- synthetic A/B sittings: ratios known ----
mk_sitting() {   # mk_sitting DIR ROUNDS SLOW_METHOD FACTOR [extra]
  python3 - "$@" <<'EOF'
import json, os, random, sys
d, rounds, slow, factor = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
extra = sys.argv[5] if len(sys.argv) > 5 else ""
rng = random.Random(7)
names = [f"{k}/{m}/{ds}" for m in ("linear", "dlb", "qb") for k in ("double", "f32") for ds in ("cloth", "arm")]
def doc(names, scale):
    rows = []
    for n in names:
        base = 1000.0 * (1 + len(n) % 5)
        f = scale(n)
        for r in range(5):
            t = base * f * (1 + rng.gauss(0, 0.01))
            rows.append({"name": n, "run_name": n, "run_type": "iteration", "repetitions": 5,
                         "repetition_index": r, "iterations": 10, "real_time": t, "cpu_time": t, "time_unit": "ns"})
    return {"context": {}, "benchmarks": rows}
for k in range(1, rounds + 1):
    load = 1 + rng.uniform(-0.3, 0.3)   # the machine's load this round: on both sides
    for side in "ab":
        p = os.path.join(d, f"round-{k}", side)
        os.makedirs(p, exist_ok=True)
        nm = names + (["double/newm/cloth"] if side == "b" and extra == "new" else [])
        sc = (lambda n: load * (factor if side == "b" and n.split("/")[1] == slow else 1))
        json.dump(doc(nm, sc), open(os.path.join(p, "cpu-gbench.json"), "w"))
EOF
}
base=tests/fixtures/run-a
cmp_ab() { "$exe" compare "$base" "$base" --ab "$1" --summary "$tmp/ab.json" > "$tmp/ab.out" 2> "$tmp/ab.err"; }

mk_sitting "$tmp/ab-slow" 12 dlb 1.10
cmp_ab "$tmp/ab-slow"; rc=$?
[ $rc -eq 1 ] && grep -q '^REGRESSION timing A/B: method dlb slower' "$tmp/ab.out" \
  && ! grep -q 'REGRESSION timing A/B: method \(linear\|qb\)' "$tmp/ab.out" \
  && ok "A/B: a 10 % slow-down of dlb under +-30 % shared load: exit 1, dlb named, no other method" \
  || { bad "A/B slow: exit $rc"; cat "$tmp/ab.out" "$tmp/ab.err"; }
# the table: grouped by method, slowest group first, CI column, speed-ups shown
awk '/^timing, paired A\/B/{t=1;next} t&&/\(method\)/{print $1; n++} n==3{exit}' "$tmp/ab.out" | head -1 \
  | grep -qx dlb && ok "A/B table: the slowed method's group comes first (sorted by effect)" \
  || { bad "A/B table order"; sed -n '/^timing, paired/,/^timing A\/B:/p' "$tmp/ab.out"; }
grep -q '^ *double/dlb/cloth .*\[+' "$tmp/ab.out" && ok "A/B table: per-benchmark rows with a CI" \
  || bad "A/B table lacks benchmark rows with CI"

mk_sitting "$tmp/ab-fast" 12 qb 0.85
cmp_ab "$tmp/ab-fast"; rc=$?
grep -q '^  qb (method) .*faster' "$tmp/ab.out" && [ $rc -ne 1 ] && ok "A/B: a 15 % speed-up is shown as faster, not a regression" \
  || { bad "A/B speed-up: exit $rc"; cat "$tmp/ab.out"; }

mk_sitting "$tmp/ab-same" 12 none 1
cmp_ab "$tmp/ab-same"; rc=$?
[ $rc -eq 0 ] && grep -q '^compare: pass' "$tmp/ab.out" && ok "A/B: unchanged builds pass (exit 0)" \
  || { bad "A/B unchanged: exit $rc"; cat "$tmp/ab.out"; }

mk_sitting "$tmp/ab-few" 3 dlb 1.10
cmp_ab "$tmp/ab-few"; rc=$?
[ $rc -eq 3 ] && grep -q 'INCONCLUSIVE' "$tmp/ab.out" && ok "A/B: 3 rounds cannot decide: inconclusive (exit 3), never pass" \
  || { bad "A/B 3 rounds: exit $rc"; cat "$tmp/ab.out"; }

mk_sitting "$tmp/ab-new" 12 none 1 new
cmp_ab "$tmp/ab-new"; rc=$?
grep -q '^INCONCLUSIVE: double/newm/cloth (ab: benchmark timed by the current build only (new))' "$tmp/ab.out" \
  && grep -q '^  newm (method) .* new$' "$tmp/ab.out" && grep -q '^INCONCLUSIVE: newm (ab: timed by the current build only (new method))' "$tmp/ab.out" \
  && [ $rc -eq 3 ] && ok "A/B: a new method is listed as new, and one side only is never a pass (exit 3)" || { bad "A/B new method: exit $rc"; cat "$tmp/ab.out"; }

# broken sittings: exit 2 naming the file
mk_sitting "$tmp/ab-trunc" 12 none 1
head -c 200 "$tmp/ab-trunc/round-5/b/cpu-gbench.json" > "$tmp/t" && mv "$tmp/t" "$tmp/ab-trunc/round-5/b/cpu-gbench.json"
cmp_ab "$tmp/ab-trunc"; rc=$?
[ $rc -eq 2 ] && grep -q 'round-5/b/cpu-gbench.json' "$tmp/ab.err" && ok "A/B: truncated round file: exit 2 naming it" \
  || { bad "A/B truncated: exit $rc"; cat "$tmp/ab.err"; }
mk_sitting "$tmp/ab-hole" 12 none 1
rm -r "$tmp/ab-hole/round-4/a"
cmp_ab "$tmp/ab-hole"; rc=$?
[ $rc -eq 2 ] && grep -q 'round-4/a/cpu-gbench.json' "$tmp/ab.err" && ok "A/B: a missing round side: exit 2 naming it" \
  || { bad "A/B hole: exit $rc"; cat "$tmp/ab.err"; }
mk_sitting "$tmp/ab-inj" 12 none 1
echo '{"injected_slowdown": {"method": "dlb", "percent": 10}}' > "$tmp/ab-inj/round-2/a/cpu.json"
cmp_ab "$tmp/ab-inj"; rc=$?
[ $rc -eq 2 ] && grep -q 'round-2/a/cpu.json.*injected_slowdown' "$tmp/ab.err" \
  && ok "A/B: an injected baseline side is refused (exit 2)" || { bad "A/B injected a: exit $rc"; cat "$tmp/ab.err"; }

# ---- the gate's own measured figures reach compare.json ----
"$exe" compare "$base" "$base" --validation validation/gate-validation.json --summary "$tmp/v.json" > "$tmp/v.out" 2>&1; rc=$?
python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["gate_validation"]; assert v["kinds"]["inject:10"]["trials"] >= 20' "$tmp/v.json" \
  && grep -q '^  inject:10 .*injected method named' "$tmp/v.out" && [ $rc -eq 0 ] \
  && ok "compare --validation: the measured detection and false-alarm figures in compare.json and on stdout" \
  || { bad "compare --validation (exit $rc)"; cat "$tmp/v.out"; }
"$exe" compare "$base" "$base" --validation "$tmp/nosuch.json" > /dev/null 2> "$tmp/v.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'nosuch.json' "$tmp/v.err" && ok "compare --validation of a missing file: exit 2 naming it" \
  || bad "compare --validation missing file: exit $rc"

# ---- verified turning false names the failing kernel ----
cp -r "$base" "$tmp/unver"
python3 - "$tmp/unver/cpu.json" <<'EOF'
import json, sys
p = sys.argv[1]; d = json.load(open(p))
d["verified"] = False; d["failures"] = {"double/dlb/cloth": "pose 3: skin differs from the blend form"}
json.dump(d, open(p, "w"))
EOF
"$exe" compare "$base" "$tmp/unver" --summary "$tmp/u.json" > "$tmp/u.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'REGRESSION cpu.json: "verified" is no longer true: kernel double/dlb/cloth failed its check' "$tmp/u.out" \
  && ok "verified false: exit 1 naming the failing kernel" || { bad "verified false: exit $rc"; cat "$tmp/u.out"; }

# ---- the instruction-count table on edited fixtures: new, removed, faster, slower ----
cp -r "$base" "$tmp/icx"
python3 - "$tmp/icx/icount.json" <<'EOF2'
import json, sys
p = sys.argv[1]; d = json.load(open(p)); k = d["kernels"]
k["double/newm/cloth"] = 5000            # a new method
del k["f32/dlb/cloth"]                   # a removed kernel
k["double/linear/cloth"] *= 0.8          # 20 % fewer instructions
k["double/dlb/cloth"] *= 1.004           # within the 0.5 % tolerance
json.dump(d, open(p, "w"))
EOF2
"$exe" compare "$base" "$tmp/icx" --summary "$tmp/icx.json" > "$tmp/icx.out" 2>&1; rc=$?
grep -q '^INCONCLUSIVE: double/newm/cloth (new kernel: no instruction count in the baseline)' "$tmp/icx.out" \
  && grep -q '^INCONCLUSIVE: f32/dlb/cloth (instruction count missing in the current run)' "$tmp/icx.out" \
  && grep -q '^  double/linear/cloth .* -20.0 % .*faster' "$tmp/icx.out" \
  && ! grep -q '^REGRESSION icount' "$tmp/icx.out" && [ $rc -eq 3 ] \
  && ok "icount table: a new and a removed kernel inconclusive (exit 3: never a pass), -20 % shown as faster, +0.4 % within tolerance" \
  || { bad "icount table (exit $rc)"; cat "$tmp/icx.out"; }

# ---- the instruction-count gate (needs valgrind; not under ASan) ----
if [ -n "${SKB_ASAN:-}" ] || ! command -v valgrind > /dev/null; then
  echo "skip icount gate (valgrind missing or ASan build)"
else
  # a scratch directory of a killed run (pid 999999 does not exist), as a run
  # makes it (mode 0700, its marker naming it: common/skb_scratch.h), is reclaimed
  sd="$tmp/td/skb-icount-999999-abcdef"
  mkdir -p "$sd/run" && chmod 700 "$sd" && touch "$sd/cg.out.3"
  echo "skinbench scratch skb-icount-999999-abcdef uid $(id -u)" > "$sd/.skb-scratch"
  TMPDIR="$tmp/td" "$exe" run icount --quick --quiet --out "$tmp/ia" && "$exe" run icount --quick --quiet --out "$tmp/ib" \
    && SKB_INJECT_SLOWDOWN=dlb:10 "$exe" run icount --quick --quiet --out "$tmp/ii"
  python3 - "$tmp/ia/icount.json" "$tmp/ib/icount.json" "$tmp/ii/icount.json" <<'EOF' && ok "icount: two counts identical; dlb:10 adds 9.9-11 % to dlb's kernels only (< 0.5 % elsewhere)" || bad "icount determinism/injection"
import json, sys
a, b, i = (json.load(open(p)) for p in sys.argv[1:])
ka, kb, ki = a["kernels"], b["kernels"], i["kernels"]
assert len(ka) >= 10 and ka == kb, "A/A counts differ"
assert a["injected_slowdown"] is None, a["injected_slowdown"]
assert {k: i["injected_slowdown"][k] for k in ("method", "percent")} == {"method": "dlb", "percent": 10}, i["injected_slowdown"]
for k in ka:
    r = ki[k] / ka[k] - 1
    # the method is the label up to a variant ("+nrm_...", "@slot4", "@2t")
    own = k.split("/")[0] in ("double", "f32") and k.split("/")[1].split("+")[0].split("@")[0] == "dlb"
    assert (0.099 <= r <= 0.11) if own else abs(r) < 0.005, (k, r)
EOF
  [ -z "$(ls -A "$tmp/td")" ] && ok "icount: a killed run's scratch directory is reclaimed, its own removed" \
    || { bad "icount scratch left: $(ls -A "$tmp/td")"; }
  mkdir -p "$tmp/ca" "$tmp/cb" "$tmp/ci"
  cp "$tmp/ia/icount.json" "$tmp/ca/"; cp "$tmp/ib/icount.json" "$tmp/cb/"; cp "$tmp/ii/icount.json" "$tmp/ci/"
  "$exe" compare "$tmp/ca" "$tmp/cb" --only icount --summary "$tmp/c1.json" > "$tmp/c1.out" 2>&1; rc=$?
  [ $rc -eq 0 ] && grep -q '^instructions: .* 0 more (regressions), 0 fewer' "$tmp/c1.out" \
    && ok "icount gate: unchanged build passes (exit 0)" || { bad "icount A/A exit $rc"; cat "$tmp/c1.out"; }
  "$exe" compare "$tmp/ca" "$tmp/ci" --only icount --summary "$tmp/c2.json" > "$tmp/c2.out" 2>&1; rc=$?
  [ $rc -eq 1 ] && grep -q '^REGRESSION icount.json: double/dlb/cloth executes +10.0' "$tmp/c2.out" \
    && ! grep -q '^REGRESSION icount.json: .*/\(linear\|qb\|sb\)' "$tmp/c2.out" \
    && ok "icount gate: dlb:10 fails (exit 1) naming dlb's kernels only" || { bad "icount inject exit $rc"; cat "$tmp/c2.out"; }
  "$exe" compare "$tmp/ci" "$tmp/cb" --only icount > "$tmp/c3.out" 2> "$tmp/c3.err"; rc=$?
  [ $rc -eq 2 ] && grep -q 'icount.json.*injected_slowdown' "$tmp/c3.err" \
    && ok "icount gate: an injected count is refused as a baseline (exit 2)" || { bad "icount injected baseline exit $rc"; cat "$tmp/c3.err"; }
  head -c 300 "$tmp/cb/icount.json" > "$tmp/t" && mv "$tmp/t" "$tmp/cb/icount.json"
  "$exe" compare "$tmp/ca" "$tmp/cb" --only icount > "$tmp/c4.out" 2> "$tmp/c4.err"; rc=$?
  [ $rc -eq 2 ] && grep -q 'cb/icount.json' "$tmp/c4.err" && ok "icount gate: truncated current icount.json: exit 2 naming it" \
    || { bad "icount truncated exit $rc"; cat "$tmp/c4.err"; }
fi

# ---- a real (short) sitting: 2 rounds cannot decide, so never a pass ----
bash scripts/nightly-ab.sh --a "$exe" --b "$exe" --out "$tmp/real" --rounds 2 --reps 2 > /dev/null 2>&1
"$exe" compare "$tmp/real/round-1/a" "$tmp/real/round-1/b" --ab "$tmp/real" --summary "$tmp/real.json" > "$tmp/real.out" 2>&1; rc=$?
[ $rc -eq 3 ] && [ -d "$tmp/real/round-2/b" ] && ok "nightly-ab.sh: a 2-round sitting is judged inconclusive (exit 3)" \
  || { bad "real sitting exit $rc"; tail -5 "$tmp/real.out"; }

# gate-summary.sh: the trials' summary (README's figures) counts the
# sitting's rounds from the trial directories; a missing or malformed
# trials.tsv is one line and exit 2; a symlink or FIFO destination is never
# replaced or written through
g=$tmp/gs
mkdir -p "$g/aa-1/round-1" "$g/aa-1/round-2"
printf 'kind\tpercent\tmethod\ttrial\texit\tdetected\ttiming_detected\ticount_detected\tany_regression\tflagged\tseconds\n' > "$g/trials.tsv"
printf 'aa\t0\t-\t1\t0\t0\t0\t0\t0\t-\t12\n' >> "$g/trials.tsv"
bash scripts/gate-summary.sh "$g" > /dev/null 2>&1 \
  && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["rounds"] == 2 and d["kinds"]["aa"]["pass"] == 1))' "$g/gate-validation.json" \
  && ok "gate-summary.sh: 1 A/A trial of 2 rounds summarised" || bad "gate-summary.sh on a 1-trial directory"
msg=$(bash scripts/gate-summary.sh "$tmp/nothing" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] && case $msg in *"$tmp/nothing/trials.tsv"*) true ;; *) false ;; esac \
  && ok "gate-summary.sh: missing trials.tsv: exit 2, one line naming it" || bad "gate-summary.sh missing input: rc $rc: $msg"
printf 'not\ta\ttrials file\n' > "$tmp/bad.tsv"; mkdir -p "$tmp/badd"; cp "$tmp/bad.tsv" "$tmp/badd/trials.tsv"
bash scripts/gate-summary.sh "$tmp/badd" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/badd/gate-validation.json" ] && ok "gate-summary.sh: malformed trials.tsv: exit 2, nothing written" \
  || bad "gate-summary.sh malformed input: rc $rc"
ln -s "$tmp/link-target" "$tmp/gs-link"; mkfifo "$tmp/gs-fifo"
for d in "$tmp/gs-link" "$tmp/gs-fifo"; do
  bash scripts/gate-summary.sh "$g" "$d" > /dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] && [ ! -e "$tmp/link-target" ] && { [ -L "$d" ] || [ -p "$d" ]; } \
    && ok "gate-summary.sh: destination $(basename "$d") refused, untouched" || bad "gate-summary.sh wrote over $d (rc $rc)"
done

exit $fail
