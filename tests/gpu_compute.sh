#!/usr/bin/env bash
# End-to-end: `run gpu --quick --methods qlb0` writes gpu.json "compute" (README
# "GPU experiment") with every kernel verified, a sweep, the copy roofline, the
# layouts and the vertex path's pipeline_bound; the same run on a copy of the
# shaders with one planted error in qlb0.glsl (SKB_SHADER_DIR) turns
# compute.verified.qlb0 false, leaves LBS verified, and fails the run.
# Skips (passes) where no GL context can be made.
. "$(dirname "$0")/lib/preamble.sh"
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

out="$tmp/good"
if "$exe" run gpu --quick --quiet --methods qlb0 --out "$out" 2>"$tmp/err"; then ok "run gpu --methods qlb0"
else bad "run gpu exit $? ($(cat "$tmp/err"))"; fi
if [ "$(json "$out/gpu.json" "'skipped' in d")" = True ]; then
  echo "skipped: $(json "$out/gpu.json" "d['skipped']")"; exit 0
fi
c="d['compute']"
[ "$(json "$out/gpu.json" "$c['verified'] == {'linear': True, 'qlb0': True}")" = True ] && ok "both kernels verified" \
  || bad "verified: $(json "$out/gpu.json" "$c.get('verified')")"
[ "$(json "$out/gpu.json" "len($c['sweep']) >= 2 and all(e['ms']['qlb0'] > 0 for e in $c['sweep'])")" = True ] \
  && ok "sweep" || bad "sweep: $(json "$out/gpu.json" "$c.get('sweep')")"
[ "$(json "$out/gpu.json" "$c['copy_bandwidth_GBps'] > 0 and 0 < $c['fraction_of_copy']['linear'] and $c['bytes_per_vertex']['linear'] == 96")" = True ] \
  && ok "roofline" || bad "roofline keys"
# both copies measured; the roofline is the faster, named
[ "$(json "$out/gpu.json" "$c['buffer_copy_GBps'] > 0 and $c['shader_copy_GBps'] > 0 and $c['copy_bandwidth_GBps'] == max($c['buffer_copy_GBps'], $c['shader_copy_GBps']) and $c['copy_bandwidth_source'] in ('glCopyBufferSubData', 'shader copy')")" = True ] \
  && ok "buffer and shader copies, the faster the roofline" || bad "copies: $(json "$out/gpu.json" "[$c.get(k) for k in ('buffer_copy_GBps','shader_copy_GBps','copy_bandwidth_GBps','copy_bandwidth_source')]")"
[ "$(json "$out/gpu.json" "all($c['layouts'][k]['verified']['linear'] for k in ('float3','w_unorm8','idx_u8','compact'))")" = True ] \
  && ok "layouts" || bad "layouts: $(json "$out/gpu.json" "$c.get('layouts')")"
[ "$(json "$out/gpu.json" "set(d['vertex_path']['pipeline_bound']) == set(d['ms'])")" = True ] \
  && ok "pipeline_bound per dataset" || bad "vertex_path: $(json "$out/gpu.json" "d.get('vertex_path')")"

mkdir -p "$tmp/shaders"
cp gpu/shaders/* "$tmp/shaders/"
sed -i 's/t += a_weight\[i\] \* u_joint\[j + 1\].xyz;/t += u_joint[j + 1].xyz;/' "$tmp/shaders/qlb0.glsl"
if cmp -s gpu/shaders/qlb0.glsl "$tmp/shaders/qlb0.glsl"; then bad "the planted error no longer applies: update this test"; fi
out="$tmp/bad"
if SKB_SHADER_DIR="$tmp/shaders" "$exe" run gpu --quick --quiet --methods qlb0 --out "$out" 2>"$tmp/err"; then
  bad "run gpu succeeded with a broken qlb0 kernel"
else ok "run gpu fails ($(tail -1 "$tmp/err" | cut -c1-120))"; fi
[ "$(json "$out/gpu.json" "$c['verified'] == {'linear': True, 'qlb0': False}")" = True ] && ok "qlb0 verified false" \
  || bad "verified: $(json "$out/gpu.json" "$c.get('verified')")"
exit $fail
