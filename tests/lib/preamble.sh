# preamble.sh — sourced first by the end-to-end scripts (tests/*.sh): strict
# variables; $exe, the skinbench under test (argument 1, default ./skinbench),
# made absolute; the source tree's root as working directory; a temporary
# $tmp removed on exit; ok/bad, where any bad sets fail=1 for the script's
# exit status.
set -u
exe=$(realpath "${1:-./skinbench}")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
