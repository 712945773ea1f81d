#!/usr/bin/env bash
# End-to-end: where no OpenGL context can be made, `skinbench run gpu` and the
# GPU tests report a skip with the reason and succeed; with a context the
# quick run writes gpu.json with the contract's keys and the pictures.
# Contexts are denied two ways: SKB_GPU_DISABLE=1 (honoured by gpu/) and an
# EGL vendor list that names no vendor (libglvnd finds no EGL driver).
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
build=${SKB_BUILD:-build}

json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

for deny in "SKB_GPU_DISABLE=1" "__EGL_VENDOR_LIBRARY_FILENAMES=$tmp/none.json"; do
  out="$tmp/skip"
  rm -rf "$out"
  if env "$deny" "$exe" run gpu --quick --quiet --out "$out" 2>"$tmp/err"; then ok; else bad "$deny: run gpu exit $? ($(cat "$tmp/err"))"; fi
  if [ "$(json "$out/gpu.json" "'skipped' in d and 'ms' not in d")" = True ]; then ok
  else bad "$deny: gpu.json has no skip reason or has timings"; fi
  echo "  $deny: $(json "$out/gpu.json" "d.get('skipped')")"
  if [ -x "$build/tests/test_gpu" ]; then
    if env "$deny" "$build/tests/test_gpu" >"$tmp/t" 2>&1; then ok; else bad "$deny: test_gpu failed"; fi
    grep -q 'SKIPPED' "$tmp/t" && ok || bad "$deny: test_gpu reported no skip"
  fi
done

# with whatever context there is: the output contract (or a recorded skip)
out="$tmp/run"
if "$exe" run gpu --quick --quiet --out "$out" 2>"$tmp/err"; then ok; else bad "run gpu --quick exit $? ($(cat "$tmp/err"))"; fi
if [ "$(json "$out/gpu.json" "'skipped' in d")" = True ]; then
  echo "  no context here: $(json "$out/gpu.json" "d['skipped']")"
else
  for k in renderer version software_renderer max_abs_error instructions ms bytes_per_joint ratio_to_lbs; do
    [ "$(json "$out/gpu.json" "'$k' in d")" = True ] && ok || bad "gpu.json lacks \"$k\""
  done
  [ "$(json "$out/gpu.json" "all(d['verified'].values()) and len(d['verified']) >= 7")" = True ] && ok \
    || bad "not every shader verified: $(json "$out/gpu.json" "d.get('verified')")"
  [ "$(json "$out/gpu.json" "d['bytes_per_joint']['linear'], d['bytes_per_joint']['dlb'], d['bytes_per_joint']['dlb_scale']")" = "(48, 32, 80)" ] \
    && ok || bad "bytes per joint: $(json "$out/gpu.json" "d['bytes_per_joint']")"
  n=$(ls "$out"/images/*.png 2>/dev/null | wc -l)
  [ "$n" -ge 12 ] && ok || bad "expected >= 12 pictures, found $n"
  head -c 8 "$out/images/candy_wrapper_linear.png" | od -An -c | grep -q 'P   N   G' && ok || bad "candy_wrapper_linear.png is not a PNG"
fi
summary gpu_skip.sh
