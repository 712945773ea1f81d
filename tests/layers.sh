#!/usr/bin/env bash
# scripts/check-layers.sh: the tree passes, and an injected back edge (a lower
# layer including a higher layer's header) fails naming the file and include.
set -u
cd "$(dirname "$0")/.."
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }

bash scripts/check-layers.sh > "$tmp/out" 2>&1 && ok || bad "the tree has a back edge: $(cat "$tmp/out")"

# copy FILE-DIRS, add LINE to FILE, expect a failure naming FILE and HEADER
inject() {
  local file=$1 header=$2
  rm -rf "$tmp/t"; mkdir -p "$tmp/t"
  cp -r common methods datasets gpu harness reports cli "$tmp/t/"
  printf '#include "%s"\n' "$header" >> "$tmp/t/$file"
  if bash scripts/check-layers.sh "$tmp/t" > "$tmp/out" 2>&1; then bad "$file -> $header: not caught"; return; fi
  grep -q "$file:[0-9]* includes \"$header\"" "$tmp/out" && ok || bad "$file -> $header: message '$(cat "$tmp/out")'"
}
inject methods/linear.c skb_dataset.h    # methods -> datasets
inject harness/skb_props.c skb_report.h  # harness -> reports
inject reports/report.c skb_cli.h        # reports -> cli
inject common/skb_json.c skb_method.h    # common -> methods
# a same-layer or downward include is fine
rm -rf "$tmp/t"; mkdir -p "$tmp/t"; cp -r common methods datasets gpu harness reports cli "$tmp/t/"
printf '#include "skb_json.h"\n#include "skb_method.h"\n' >> "$tmp/t/cli/main.c"
bash scripts/check-layers.sh "$tmp/t" > "$tmp/out" 2>&1 && ok || bad "downward include refused: $(cat "$tmp/out")"

echo "layers.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
