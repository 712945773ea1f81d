#!/usr/bin/env bash
# scripts/run-tests.sh counts test cases, not programs: fake cmocka binaries
# (all skipped, mixed, crashing) and fake scripts in a temporary build
# directory must give the exact closing line.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"

mkdir -p "$tmp/b/tests" "$tmp/s"
# fake BIN BODY: an executable test_BIN printing BODY (cmocka puts the summary on stderr)
fake() { printf '#!/bin/sh\n%s\n' "$2" > "$tmp/b/tests/test_$1"; chmod +x "$tmp/b/tests/test_$1"; }
fake allskip 'echo "[==========] Running 3 test(s)." ; echo "[  PASSED  ] 0 test(s)." >&2
echo "[  SKIPPED ] 3 test(s), listed below:" >&2; echo "[  SKIPPED ] t1" >&2; exit 0'
fake mixed 'echo "[  PASSED  ] 4 test(s)." >&2; echo "[  SKIPPED ] 1 test(s), listed below:" >&2
echo "[  SKIPPED ] s1" >&2; echo "[  FAILED  ] 2 test(s), listed below:" >&2; echo "[  FAILED  ] f1" >&2
echo "[  PASSED  ] 5 test(s)." >&2; exit 2'
fake crash 'echo "[ RUN      ] t1"; kill -SEGV $$'
printf 'echo "a: 7 passed, 1 failed"; exit 1\n' > "$tmp/s/summary.sh"
printf 'echo "ok   one"; echo "ok   two"; echo "FAIL three"; echo "SKIP four: no tool"; exit 1\n' > "$tmp/s/lines.sh"
printf 'echo "quiet: ok"\n' > "$tmp/s/quiet.sh"

SKB_TEST_SCRIPTS="$tmp/s/*.sh" bash scripts/run-tests.sh "$tmp/b" > "$tmp/out" 2>&1; rc=$?
# passed 0+9+0 + 7+2+1, failed 0+2+1 + 1+1+0, skipped 3+1+0 + 0+1+0
last=$(tail -1 "$tmp/out")
[ "$last" = "check: 19 passed, 5 failed, 5 skipped" ] && ok || bad "closing line '$last'"
[ $rc -ne 0 ] && ok || bad "exit 0 with failures"
grep -q '^failed: .*test_crash' "$tmp/out" && ok || bad "the crashing binary is not named"
grep -q 'test_allskip' "$tmp/out" && ! grep -q '^failed: .*test_allskip' "$tmp/out" && ok || bad "all-skipped binary"
# quiet by default: a failing program's output is shown, a passing one's is not;
# a skip shows its reason
grep -q '^FAIL three' "$tmp/out" && ok || bad "a failing script's output is not shown"
! grep -q '^quiet: ok' "$tmp/out" && ok || bad "a passing script's output is shown without V=1"
grep -q 'SKIP four: no tool' "$tmp/out" && ok || bad "a skip's reason is not shown"
V=1 SKB_TEST_SCRIPTS="$tmp/s/*.sh" bash scripts/run-tests.sh "$tmp/b" > "$tmp/outv" 2>&1
grep -q '^quiet: ok' "$tmp/outv" && ok || bad "V=1 does not show a passing script's output"

# only skips and passes: exit 0
rm "$tmp/b/tests/test_mixed" "$tmp/b/tests/test_crash" "$tmp/s/summary.sh" "$tmp/s/lines.sh"
SKB_TEST_SCRIPTS="$tmp/s/*.sh" bash scripts/run-tests.sh "$tmp/b" > "$tmp/out" 2>&1; rc=$?
last=$(tail -1 "$tmp/out")
[ "$last" = "check: 1 passed, 0 failed, 3 skipped" ] && [ $rc -eq 0 ] && ok || bad "clean run: '$last' exit $rc"

summary runner.sh
