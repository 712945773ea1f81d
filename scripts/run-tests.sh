#!/usr/bin/env bash
# Run every test binary in BUILD/tests, then tests/*.sh end-to-end scripts;
# print one summary line "check: N passed, N failed".
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
pass=0; fail=0; failed=()
export SKB_BUILD="$build"
for t in "$build"/tests/test_*; do
  [ -x "$t" ] && [ ! -d "$t" ] || continue
  case "$t" in *.o) continue ;; esac
  name=$(basename "$t")
  echo "== $name"
  if timeout 600 "$t"; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("$name"); fi
done
for s in tests/*.sh; do
  [ -f "$s" ] || continue
  name=$(basename "$s")
  echo "== $name"
  if timeout 1200 bash "$s" "$build/skinbench"; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("$name"); fi
done
echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
