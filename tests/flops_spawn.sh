#!/usr/bin/env bash
# `run flops` starts skinbench-flops and valgrind with argv vectors, never a
# shell: an install path containing ' or $(...) works and
# runs nothing; callgrind's temporary directory lives in $TMPDIR, carries the
# owner's pid, dies with it (PR_SET_PDEATHSIG), and what a kill -9 leaves is
# reclaimed by the next run.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
[ -x "$(dirname "$exe")/skinbench-flops" ] || { echo "skip: no skinbench-flops next to $exe"; exit 0; }

# 1. a hostile install path
inst="$tmp/it's \$(touch $tmp/PWNED) \`touch $tmp/PWNED2\`"
mkdir -p "$inst" "$tmp/t"
cp "$exe" "$(dirname "$exe")/skinbench-flops" "$inst/"
( cd "$tmp" && TMPDIR="$tmp/t" "$inst/skinbench" run flops --methods linear,sclerp --out "$inst/out" ) >"$tmp/log" 2>&1 \
  && ok || bad "run flops from '$inst': $(tail -2 "$tmp/log")"
ls "$tmp"/PWNED* 2>/dev/null | grep -q . && bad "a command in the install path ran" || ok
python3 - "$inst/out/flops.json" <<'EOF' && ok || bad "flops.json from the quoted path lacks counts"
import json, os, shutil, sys
d = json.load(open(sys.argv[1]))
assert d["methods"]["linear"], "no FLOP counts"
cg = d["callgrind"]
if shutil.which("valgrind") and not os.environ.get("SKB_ASAN"):   # valgrind cannot run ASan binaries
    assert cg["available"] and cg["per_method"]["linear"]["n2"] > 0, cg
    # the count at the largest n that ran: n = 8 for linear, n = 2 for
    # sclerp (two transforms at most), never left out
    lin, sc = cg["per_method"]["linear"], cg["per_method"]["sclerp"]
    assert lin["per_blend"] == lin["n8"] and lin["per_blend_n"] == 8, lin
    assert sc["per_blend"] == sc["n2"] > 0 and sc["per_blend_n"] == 2 and "n8" not in sc, sc
EOF
ls "$tmp/t" | grep -q skb-callgrind && bad "callgrind directory left after a clean run" || ok

# 2. kill -9 while callgrind runs, then a second run reclaims the leftovers
if command -v valgrind >/dev/null; then
  TMPDIR="$tmp/t" "$exe" run flops --methods linear --out "$tmp/o2" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do ls "$tmp/t" | grep -q "skb-callgrind-$pid-" && break; sleep 0.05; done
  if ls "$tmp/t" | grep -q "skb-callgrind-$pid-"; then
    kill -9 "$pid"; wait "$pid" 2>/dev/null
    sleep 0.5
    ok
    TMPDIR="$tmp/t" "$exe" run flops --methods linear --out "$tmp/o3" >/dev/null 2>&1 || bad "second run failed"
    left=$(ls "$tmp/t")
    [ -z "$left" ] && ok || bad "left in TMPDIR after kill -9 and a later run: $left"
  else
    bad "no skb-callgrind-$pid-* directory appeared in \$TMPDIR"
    kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  fi
else
  echo "skip: kill -9 during callgrind (valgrind not installed)"
fi

summary flops_spawn
