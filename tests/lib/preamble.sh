# preamble.sh — sourced first by every end-to-end script (tests/*.sh): strict
# variables; $exe, the skinbench under test (argument 1, default ./skinbench),
# made absolute; the source tree's root as working directory; a temporary
# $tmp removed on exit (kept, and named, with SKB_KEEP=1); ok and bad.
# A script counts its cases one of two ways, both read by scripts/run-tests.sh:
#   by line (the default): ok prints "ok   ...", bad prints "FAIL ..." and
#     sets fail=1, the script's exit status;
#   by summary (skb_summary=1 before sourcing): ok and bad count in $pass and
#     $fail, bad also prints "FAIL: ..."; `summary NAME`, the script's last
#     command, prints "NAME: N passed, N failed" and returns its status.
set -u
exe=$(realpath "${1:-./skinbench}")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap '[ -n "${SKB_KEEP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"' EXIT
pass=0
fail=0
if [ -n "${skb_summary:-}" ]; then
  ok() { pass=$((pass+1)); }
  bad() { fail=$((fail+1)); echo "FAIL: $*"; }
else
  ok() { echo "ok   $*"; }
  bad() { echo "FAIL $*"; fail=1; }
fi
summary() { echo "$1: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
