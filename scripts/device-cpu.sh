#!/bin/sh
# device-cpu.sh DIR — the fast kernels on another CPU in about 3 minutes
# (docs/report-and-regression.md "Fast kernels: the offset sweep"): DIR holds the skinbench binary
# and its shared libraries (scripts/device-pack.sh).  Runs, writing
# everything under $OUT (default: a new temporary directory):
#   1. the offset sweep of the split LBS kernel's streams (run cpu --offset-sweep)
#   2. five separate processes of the roofline-only timing of LBS and DLB
#      (run cpu --datasets roofline --methods linear,dlb --repetitions 3),
#      each with its kernels' ratio to the in-process memcpy control (the
#      medians, and pair by pair: memcpy, and the 4-slot kernel), the
#      planner's choices and the scaling curve (1, 2, 4, ... threads)
# and prints a compact summary (also $OUT/summary.txt), with the spread of
# each kernel's ratio to the control across the five processes.
# Needs only a POSIX shell, awk and the binary: no python, no packages.
set -u
DIR=${1:?usage: device-cpu.sh DIR (holding skinbench and its shared libraries)}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/skb-device-cpu.XXXXXX")}
RUNS=${SKB_DEVICE_RUNS:-5}
case "$DIR" in /*) ;; *) DIR=$(cd "$DIR" && pwd) ;; esac
SKB="$DIR/skinbench"
[ -x "$SKB" ] || { echo "device-cpu.sh: $SKB: not an executable" >&2; exit 2; }
export LD_LIBRARY_PATH="$DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$OUT" || exit 1
SUM="$OUT/summary.txt"
# a hung run ends, where coreutils' timeout exists
limit() { if command -v timeout >/dev/null 2>&1; then timeout "$@"; else shift; "$@"; fi; }
: > "$SUM"
say() { printf '%s\n' "$*" | tee -a "$SUM"; }

say "device-cpu.sh: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), results in $OUT"
say "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'); $(nproc 2>/dev/null || echo '?') CPUs;" \
    "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo '?')"
say "skinbench: $("$SKB" --version 2>&1 | head -1)"

# 1. the offset sweep
t0=$(date +%s)
limit 240 "$SKB" run cpu --offset-sweep --out "$OUT/sweep" 2> "$OUT/sweep.log"
say "sweep (exit $?, $(( $(date +%s) - t0 )) s):"
grep -E '\[cpu\] offset sweep:' "$OUT/sweep.log" | sed 's/^\[cpu\] /  /' | tee -a "$SUM"
for k in nohugepage_touched nohugepage_fresh hugepage_touched hugepage_fresh default_touched default_fresh; do
    awk -v k="$k" '
        $0 ~ "\"" k "\":" { on = 1; next }
        on && /"linear_over_memcpy"/ { gsub(/[",]/, ""); r = $2 }
        on && /"linear_over_slot4"/ { gsub(/[",]/, ""); s = $2 }
        on && /^\t\t}/ { printf "  pages %-19s linear/memcpy %.3f  linear/slot4 %.3f\n", k, r, s; exit }
    ' "$OUT/sweep/cpu-offsets.json" 2>/dev/null | tee -a "$SUM"
done

# 2. separate processes of the roofline-only timing
i=1
while [ "$i" -le "$RUNS" ]; do
    t0=$(date +%s)
    limit 300 "$SKB" run cpu --datasets roofline --methods linear,dlb --repetitions 3 \
        --out "$OUT/roofline-$i" 2> "$OUT/roofline-$i.log"
    rc=$?
    say "process $i (exit $rc, $(( $(date +%s) - t0 )) s):"
    grep -E '\[cpu\] (control on|paired control on|paired targets on|.*@plan planned|body/sub4: linear f32)' "$OUT/roofline-$i.log" \
        | sed 's/^\[cpu\] /  /' | tee -a "$SUM"
    i=$((i + 1))
done
say "scaling (process 1; wall time, split kernels renormalised):"
grep -E '\[cpu\] scaling ' "$OUT/roofline-1.log" | sed 's/^\[cpu\] /  /' | tee -a "$SUM"

# the spread of each kernel's ratio to a control across the processes: the
# medians Google Benchmark timed apart ("control on"), and the paired
# control (kernel and control back to back, harness/cpu_paired.c)
spread() {
    awk '
        { for (f = 1; f <= NF; f++) { if ($f !~ /=/) continue
              split($f, kv, "="); k = kv[1]; v = kv[2] + 0
              if (!(k in n)) { order[++nk] = k; lo[k] = v; hi[k] = v }
              n[k]++; s[k] += v; if (v < lo[k]) lo[k] = v; if (v > hi[k]) hi[k] = v } }
        END { for (i = 1; i <= nk; i++) { k = order[i]
                  printf "  %-44s n=%d  ratio min %.4f max %.4f mean %.4f  spread (max-min)/min %.1f %%\n",
                         k, n[k], lo[k], hi[k], s[k] / n[k], (lo[k] > 0 ? 100 * (hi[k] - lo[k]) / lo[k] : -1) } }'
}
say "spread across $RUNS processes of each kernel's median CPU time / the same process's median memcpy (target <= 10 %):"
cat "$OUT"/roofline-*.log 2>/dev/null | grep '^\[cpu\] control on' | spread | tee -a "$SUM"
say "spread across $RUNS processes of the paired control (kernel / control, pair by pair; target <= 10 %):"
cat "$OUT"/roofline-*.log 2>/dev/null | grep '^\[cpu\] paired control on' | spread | tee -a "$SUM"
say "done: $SUM"
