#!/usr/bin/env bash
# scripts/check-layers.sh: the tree passes, an injected back edge (a lower
# layer including a higher layer's header) fails naming the file and include,
# and a planted circle of calls between two files of one folder, or a call
# into a higher layer, fails naming the files and symbols; a clock read
# outside common/skb_timing.c (one timing engine) fails naming the file.  The call check
# reads the build's objects: $SKB_BUILD (default build; make first).
set -u
cd "$(dirname "$0")/.."
build=${SKB_BUILD:-build}
dirs=(common geometry methods flops datasets gpu harness reports regress cli)
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }

if [ -z "$(ls "$build"/reports/*.o 2>/dev/null)" ]; then bad "no objects under $build/ (make first): the call check would not run"; fi
SKB_BUILD=$build bash scripts/check-layers.sh > "$tmp/out" 2>&1 && ok || bad "the tree has a back edge or a circle: $(cat "$tmp/out")"

# copy FILE-DIRS, add LINE to FILE, expect a failure naming FILE and HEADER
inject() {
  local file=$1 header=$2
  rm -rf "$tmp/t"; mkdir -p "$tmp/t"
  cp -r "${dirs[@]}" "$tmp/t/"
  printf '#include "%s"\n' "$header" >> "$tmp/t/$file"
  if SKB_BUILD=$tmp/none bash scripts/check-layers.sh "$tmp/t" > "$tmp/out" 2>&1; then bad "$file -> $header: not caught"; return; fi
  grep -q "$file:[0-9]* includes \"$header\"" "$tmp/out" && ok || bad "$file -> $header: message '$(cat "$tmp/out")'"
}
inject methods/linear.c skb_dataset.h    # methods -> datasets
inject harness/skb_props.c skb_report.h  # harness -> reports
inject reports/report.c skb_cli.h        # reports -> cli
inject common/skb_json.c skb_method.h    # common -> methods
inject geometry/miniball.c skb_method.h  # geometry -> methods
inject reports/report.c skb_regress.h    # reports -> regress
# a same-layer or downward include is fine
rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -r "${dirs[@]}" "$tmp/t/"
printf '#include "skb_json.h"\n#include "skb_method.h"\n' >> "$tmp/t/cli/main.c"
SKB_BUILD=$tmp/none bash scripts/check-layers.sh "$tmp/t" > "$tmp/out" 2>&1 && ok || bad "downward include refused: $(cat "$tmp/out")"

# one timing engine: a private clock outside common/skb_timing.c is refused
rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -r "${dirs[@]}" "$tmp/t/"
printf 'static double zz_now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec; }\n' >> "$tmp/t/harness/cpu_paired.c"
if SKB_BUILD=$tmp/none bash scripts/check-layers.sh "$tmp/t" > "$tmp/out" 2>&1; then bad "a private clock in harness/cpu_paired.c: not caught"
else grep -q 'harness/cpu_paired.c:[0-9]* reads a clock of its own' "$tmp/out" && ok || bad "private clock: message '$(cat "$tmp/out")'"; fi

# calls: a scratch copy of the tree whose objects are the build's (linked),
# plus two planted files compiled there.  plant NAME DIR1/A.c 'CODE' DIR2/B.c
# 'CODE' PATTERN: expect a failure whose message matches PATTERN (PLANT_EXPECT=ok:
# a pass).
plant() {
  local name=$1 fa=$2 ca=$3 fb=$4 cb=$5 want=$6
  rm -rf "$tmp/t" "$tmp/b"; mkdir -p "$tmp/t" "$tmp/b"
  cp -r "${dirs[@]}" "$tmp/t/"
  for d in "${dirs[@]}"; do
    [ -d "$build/$d" ] && mkdir -p "$tmp/b/$d" && for o in "$build/$d"/*.o; do
      [ -f "$o" ] && ln -s "$(cd "$(dirname "$o")" && pwd)/$(basename "$o")" "$tmp/b/$d/"
    done
  done
  printf '%s\n' "$ca" > "$tmp/t/$fa"; printf '%s\n' "$cb" > "$tmp/t/$fb"
  for f in "$fa" "$fb"; do
    ${CC:-cc} -std=c11 -c -o "$tmp/b/${f%.c}.o" "$tmp/t/$f" || { bad "$name: cannot compile $f"; return; }
  done
  if SKB_BUILD=$tmp/b bash scripts/check-layers.sh "$tmp/t" > "$tmp/out" 2>&1; then
    [ "${PLANT_EXPECT:-fail}" = ok ] || { bad "$name: not caught"; return; }
  elif [ "${PLANT_EXPECT:-fail}" = ok ]; then
    bad "$name: refused: $(cat "$tmp/out")"; return
  fi
  grep -q -- "$want" "$tmp/out" && ok || bad "$name: message '$(cat "$tmp/out")'"
}
plant "circle in reports/" \
  reports/zz_circle_a.c 'int skb__zz_b(int); int skb__zz_a(int x) { return x > 0 ? skb__zz_b(x - 1) : 0; }' \
  reports/zz_circle_b.c 'int skb__zz_a(int); int skb__zz_b(int x) { return x > 0 ? skb__zz_a(x - 1) : 1; }' \
  'circle of calls in reports/: reports/zz_circle_[ab].c -(skb__zz_[ab])-> reports/zz_circle_[ab].c -(skb__zz_[ab])-> reports/zz_circle_[ab].c'
plant "call into a higher layer" \
  geometry/zz_up.c 'int skb__zz_top(void); int skb__zz_low(void) { return skb__zz_top(); }' \
  regress/zz_top.c 'int skb__zz_top(void) { return 1; }' \
  'geometry/zz_up.c calls skb__zz_top (regress/zz_top.c): geometry/ may not depend on regress/'
# a function handed down in a table (a hook, a registry entry) is a
# reference from data, not a call: b.c lists a.c's function, a.c calls b.c
PLANT_EXPECT=ok plant "a hook is not a call" \
  reports/zz_hook_a.c 'int skb__zz_run(int x); int skb__zz_use(void) { return skb__zz_run(1); }' \
  reports/zz_hook_b.c 'int skb__zz_use(void); int (*const skb__zz_tab[])(void) = { skb__zz_use }; int skb__zz_run(int x) { return 2 * x; }' \
  'check-layers: ok'
echo "layers.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
