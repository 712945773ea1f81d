#!/usr/bin/env bash
# The results files' tables (harness/exp_*_schema.c): docs/schemas.md is exactly
# what `skinbench schema --markdown` prints; the real outputs of
# `run all --quick` (or the run directory $SKB_SCHEMA_RUN) all pass the
# reader (`schema --check`, which loads them as `report` does); and a planted
# wrong type, missing required field and out-of-range value are each
# rejected by `schema --check` and by `report` with one line naming the file
# and the field.
. "$(dirname "$0")/lib/preamble.sh"

# 1. the generated docs are up to date
if "$exe" schema --markdown > "$tmp/schemas.md" && diff -u docs/schemas.md "$tmp/schemas.md" > "$tmp/docs.diff"; then
  ok "docs/schemas.md matches skinbench schema --markdown"
else
  bad "docs/schemas.md differs from skinbench schema --markdown (regenerate it):"; head -20 "$tmp/docs.diff"
fi
"$exe" schema cpu.json | grep -q '^  datasets/\*/ms/\* *measured' && ok "schema cpu.json prints its table" \
  || bad "schema cpu.json"
"$exe" schema nosuch.json > /dev/null 2> "$tmp/nosuch.err"; rc=$?
[ $rc -eq 2 ] && grep -q "no results file 'nosuch.json'" "$tmp/nosuch.err" && ok "unknown file: usage error" \
  || bad "schema nosuch.json (exit $rc)"

# 2. every real output passes the reader
run=${SKB_SCHEMA_RUN:-}
if [ -z "$run" ]; then
  run="$tmp/run"
  # under make asan Mesa's llvmpipe JIT (gpu experiment) leaks bytes LSan
  # cannot name: leak checking off for this step only, as in tests/e2e.sh
  runenv=()
  [ -n "${SKB_ASAN:-}" ] && runenv=(env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
  "${runenv[@]}" "$exe" run all --quick --out "$run" > /dev/null 2> "$tmp/run.log" || true
fi
n=$(ls "$run"/*.json 2> /dev/null | grep -vc '/manifest\.json$')
"$exe" schema --check "$run" > "$tmp/check.out" 2> "$tmp/check.err"; rc=$?
[ "$n" -ge 8 ] && [ $rc -eq 0 ] && grep -q "$n of $n results files match their schemas" "$tmp/check.out" \
  && ok "the $n results files of the run pass their tables" || { bad "real outputs (exit $rc, $n files)"; cat "$tmp/check.err"; }

# 3. planted faults: each named with file and field, by schema --check and by report
plant() {  # name, python edit of d (the document of FILE), FILE, expected pattern
  rm -rf "$tmp/p"; cp -r "$run" "$tmp/p"
  python3 - "$tmp/p/$3" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
PY
  rm -f "$tmp/p/manifest.json"   # edited after the run: its manifest would name the edit first
  "$exe" schema --check "$tmp/p" > /dev/null 2> "$tmp/p.err"; rc=$?
  [ $rc -eq 1 ] && [ "$(wc -l < "$tmp/p.err")" -eq 1 ] && grep -q "$4" "$tmp/p.err" && ok "$1: schema --check names it" \
    || { bad "$1: schema --check (exit $rc)"; cat "$tmp/p.err"; }
  "$exe" report --results "$tmp/p" --no-plots > "$tmp/p.out" 2>&1; rc=$?
  [ $rc -eq 1 ] && grep -q "$4" "$tmp/p.out" && ok "$1: report names it" || { bad "$1: report (exit $rc)"; grep -i "$3" "$tmp/p.out" | head -2; }
}
plant "wrong type" 'ds = next(iter(d["datasets"].values())); ds["ms"][next(iter(ds["ms"]))] = "fast"' cpu.json \
  'cpu.json: field "datasets"\.".*"\."ms"\.".*": expected'
plant "missing required field" 'del d["fits"]' flops.json 'flops.json: missing field "fits"'
plant "missing required field in a row" 'del d["scaling"][0]["bottom_up_ms"]' cd.json \
  'cd.json: missing field "scaling"\[0\]\."bottom_up_ms"'
plant "out of range" 'd["scaling"][0]["level"] = 31' cd.json 'cd.json: field "scaling"\[0\]\."level": expected an integer 0\.\.30'
plant "not a measured value" 'ds = next(iter(d["datasets"].values())); ds["ms"][next(iter(ds["ms"]))] = -1' cpu.json \
  'cpu.json: field "datasets"\.".*"\."ms"\.".*": -1 is not a measured value'
plant "not in the enum" 'm = next(iter(d["verdicts"].values())); m[next(iter(m))] = "maybe"' properties.json \
  'properties.json: field "verdicts"\.".*"\.".*": expected "+" or "-"'

exit $fail
