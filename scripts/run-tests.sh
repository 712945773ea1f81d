#!/usr/bin/env bash
# Run every test binary in BUILD/tests, then the tests/*.sh end-to-end scripts,
# and count individual test cases, not programs: a binary whose cases all skip
# must not read as passed.  Closing line: "check: N passed, N failed, N skipped".
#   cmocka binaries: the group summaries "[  PASSED  ] N test(s)." /
#     "[  SKIPPED ] N test(s)" / "[  FAILED  ] N test(s)" (cmocka prints them
#     on stderr, so both streams are read);
#   scripts: their own "NAME: N passed, N failed" line when they print one,
#     otherwise one case per "ok ..." / "FAIL..." / "SKIP ..." line.
# A crash or non-zero exit with no failed case counted is one failed case; a
# script that exits 0 and prints no case line is one passed case.
# Quiet by default: a clean program's count and seconds, three to a line; a
# program with a skipped or failed case on a line of its own (passed, failed,
# skipped), a failed one also with its whole output.  V=1 prints every
# program's output as it runs.
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
pass=0; fail=0; skip=0; failed=()
export SKB_BUILD="$build"
log=$(mktemp); trap 'rm -f "$log"' EXIT

# count_cmocka LOG: "P F S" from the group summary lines (0 0 0 if none)
count_cmocka() {
  awk '/^\[  PASSED  \] [0-9]+ test/  { p += $4 }
       /^\[  FAILED  \] [0-9]+ test/  { f += $4 }
       /^\[  SKIPPED \] [0-9]+ test/  { s += $4 }
       END { print p+0, f+0, s+0 }' "$1"
}

# count_script LOG: "P F S" from the last "N passed, N failed" line, else
# from ok/FAIL/SKIP lines
count_script() {
  awk 'match($0, /: [0-9]+ passed, [0-9]+ failed$/) {
         split(substr($0, RSTART + 2), w, " "); sp = w[1]; sf = w[3]; summary = 1; next }
       /^ok /   { p++ }
       /^FAIL/  { f++ }
       /^SKIP / { s++ }
       END { if (summary) print sp+0, sf+0, s+0; else print p+0, f+0, s+0 }' "$1"
}

verbose=${V:-0}

# run_one CMD...: run a test program into $log (shown live with V=1); sets rc
# and started (seconds since the epoch)
run_one() {
  started=$(date +%s)
  if [ "$verbose" = 1 ]; then
    "$@" 2>&1 | tee "$log"; rc=${PIPESTATUS[0]}
  else
    "$@" >"$log" 2>&1; rc=$?
  fi
}

# tally NAME RC P F S: add one program's cases to the totals; one line for it,
# and its whole output when it failed (already shown with V=1)
tally() {
  local name=$1 rc=$2 p=$3 f=$4 s=$5 why=""
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    f=1; why=" (exit $rc with no failed case reported: counted as one failure)"
  fi
  if [ "$f" -gt 0 ]; then
    failed+=("$name")
    [ "$verbose" = 1 ] || { echo "== $name: output"; cat "$log"; }
  elif [ "$s" -gt 0 ] && [ "$verbose" != 1 ]; then
    # a skip says why: its reason lines, at most five
    grep -E '^SKIP |^\[  SKIPPED \] [^0-9]' "$log" | head -5 | sed 's/^/      /'
  fi
  local secs=$(( $(date +%s) - started ))
  if [ "$f" -eq 0 ] && [ "$s" -eq 0 ] && [ "$verbose" != 1 ]; then
    # a clean program: its count in a row of three (make check stays one screen)
    row+=("$(printf '%-24s %4d ok %4ds' "$name" "$p" "$secs")")
    [ ${#row[@]} -lt 3 ] || flush_row
  else
    flush_row
    printf '   %-24s %4d passed, %d failed, %d skipped  %4ds%s\n' "$name:" "$p" "$f" "$s" "$secs" "$why"
  fi
  pass=$((pass+p)); fail=$((fail+f)); skip=$((skip+s))
}

# the clean programs gathered so far, on one line
row=()
flush_row() {
  [ ${#row[@]} -gt 0 ] || return 0
  local line="  " e
  for e in "${row[@]}"; do line+=" $e  "; done
  echo "${line%  }"
  row=()
}

for t in "$build"/tests/test_*; do
  [ -x "$t" ] && [ ! -d "$t" ] || continue
  case "$t" in *.o) continue ;; esac
  name=$(basename "$t")
  run_one timeout 600 "$t"
  read -r p f s < <(count_cmocka "$log")
  tally "$name" "$rc" "$p" "$f" "$s"
done
# SKB_TEST_SCRIPTS: the scripts to run instead (tests/runner.sh uses it)
for s in ${SKB_TEST_SCRIPTS:-tests/*.sh}; do
  [ -f "$s" ] || continue
  name=$(basename "$s")
  run_one timeout 1200 bash "$s" "$build/skinbench"
  read -r p f k < <(count_script "$log")
  [ "$rc" -eq 0 ] && [ $((p + f + k)) -eq 0 ] && p=1
  tally "$name" "$rc" "$p" "$f" "$k"
done
flush_row
echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "check: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
