#!/usr/bin/env bash
# A replayable DIB input that stops at the default 20-iteration cap (a
# finding): one of the 19 of 5000 random blends (seed 20070601, run bounds'
# dib_iterations, sample 1271, n = 4).  The iteration is not stuck: it
# converges linearly (|x| shrinks ~0.8x per pass) and stops at 41; at its
# limit one input lies 4.13 rad (> pi) from the blend -- the sign fixed
# against the pivot (Algorithm 2) makes the principal log take it the long
# way round.  The capped estimate differs from the converged blend by ~1e-2.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
here=$PWD/tests
fx="$here/fixtures/dib_cap_example.json"
iters() { "$exe" blend --method dib --input "$fx" --max-iter "$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["iterations"])'; }
mat() { "$exe" blend --method dib --input "$fx" --max-iter "$1" | python3 -c 'import json,sys; print(" ".join("%.9f" % v for v in json.load(sys.stdin)["matrix"]))'; }
[ "$(iters 20)" = 20 ] && ok || bad "cap 20: expected to stop at the cap, got $(iters 20)"
[ "$(iters 1000)" = 41 ] && ok || bad "cap 1000: expected convergence after 41 iterations, got $(iters 1000)"
[ "$(mat 41)" = "$(mat 1000)" ] && ok || bad "41 iterations is not the converged blend"
[ "$(mat 20)" != "$(mat 1000)" ] && ok || bad "the capped estimate equals the converged blend"
summary dib_cap
