#!/usr/bin/env bash
# libFuzzer run (fixed seed) over the JSON inputs skinbench reads: results
# files + report, a results directory with one file mutated read by report
# and by `skinbench compare` (both directions, exit codes checked), a
# results file replaced by a link, FIFO, oversized file or directory, a link
# planted in the middle of a path the report reads (images/, images/sad/, a
# run of a directory of runs), and `skinbench blend` input.  Corpus: the fixtures in tests/fixtures.  20 s in
# `make check`; `make fuzz` runs FUZZ_SECONDS (default 600) and prints runs,
# crashes and sanitizer reports.  The log ($SKB_BUILD/fuzz/fuzz.log) is what
# `skinbench report` summarises as "bad inputs tried / crashes".  Skips with
# the reason when clang-14 or its libFuzzer runtime is missing.
. "$(dirname "$0")/lib/preamble.sh"
build=${SKB_BUILD:-build}
secs=${SKB_FUZZ_SECONDS:-${FUZZ_SECONDS:-20}}
cc=$(command -v clang-14 || true)
if [ -z "$cc" ]; then echo "SKIP fuzz: clang-14 not installed (apt-get install clang-14 libclang-rt-14-dev)"; exit 0; fi
if [ -n "${SKB_ASAN:-}" ]; then echo "SKIP fuzz: already run by make check (it is an ASan build itself)"; exit 0; fi
out="$build/fuzz"; mkdir -p "$out"; : > "$out/build.log"
probe="$out/probe.c"
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}' > "$probe"
if ! "$cc" -fsanitize=fuzzer,address -o "$out/probe" "$probe" 2> /dev/null; then
  echo "SKIP fuzz: clang-14 cannot link -fsanitize=fuzzer (apt-get install libclang-rt-14-dev)"; exit 0
fi
# methods/ddm.c's CHOLMOD has no pkg-config file on Debian 12 (as in the Makefile)
# methods/fast_f32*.c use GCC vector builtins clang lacks: gcc compiles them
# (uninstrumented; the fuzzed parsers never reach them), clang the rest
gccsrc=(methods/fast_f32*.c)
# reports/ names the run halves (tests/fuzz/fuzz_runs.c), the refit keys (harness/sphere_cd.c) and the results files' tables (harness/exp_*_schema.c)
srcs=(tests/fuzz/fuzz_inputs.c tests/fuzz/fuzz_runs.c harness/sphere_cd.c harness/exp_*_schema.c common/*.c geometry/*.c reports/*.c regress/*.c cli/cli_util.c cli/cli_opts.c cli/cmd_blend.c cli/cmd_report.c cli/cmd_compare.c)
for f in methods/*.c; do case " ${gccsrc[*]} " in *" $f "*) ;; *) srcs+=("$f") ;; esac; done
objs=()
for f in "${gccsrc[@]}"; do
  [ -f "$f" ] || continue
  o="$out/$(basename "$f" .c).gcc.o"
  gcc -std=c11 -O2 -D_GNU_SOURCE -Icommon -Igeometry -Imethods -c -o "$o" "$f" 2>> "$out/build.log" || { tail -5 "$out/build.log"; echo "FAIL fuzz: gcc $f"; exit 1; }
  objs+=("$o")
done
# shellcheck disable=SC2046
if ! "$cc" -std=c11 -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
     -Icommon -Igeometry -Imethods -Iharness -Ireports -Iregress -Idatasets -Icli $(pkg-config --cflags gsl libcjson sqlite3 libcrypto) \
     -I/usr/include/suitesparse -o "$out/fuzz_inputs" "${srcs[@]}" \
     "${objs[@]}" $(pkg-config --libs gsl libcjson sqlite3 libcrypto) -lcholmod -lm 2>> "$out/build.log"; then
  tail -20 "$out/build.log"; echo "FAIL fuzz: build"; exit 1
fi
corpus="$out/corpus"; rm -rf "$corpus"; mkdir -p "$corpus"
i=0
for f in properties flops bounds cpu cpu-gbench gpu spheres cd; do
  for run in tests/fixtures/run-a tests/fixtures/run-regressed; do
    [ -f "$run/$f.json" ] && { printf "\\x$(printf %02x $i)"; cat "$run/$f.json"; } > "$corpus/$f-$(basename "$run")"
  done
  i=$((i+1))
done
# results-directory mode: 16+i = file i of the current run, 24+i = of the baseline
i=0
for f in properties flops bounds cpu cpu-gbench gpu spheres cd; do
  [ -f "tests/fixtures/run-regressed/$f.json" ] || { i=$((i+1)); continue; }
  { printf "\\x$(printf %02x $((16 + i)))"; cat "tests/fixtures/run-regressed/$f.json"; } > "$corpus/dir-cur-$f"
  { printf "\\x$(printf %02x $((24 + i)))"; cat "tests/fixtures/run-regressed/$f.json"; } > "$corpus/dir-base-$f"
  i=$((i+1))
done
# node mode: 48+i = file i replaced by a link, FIFO, oversized file or directory,
# or a link in the middle of a path (second byte: 0-5, 6-8)
for k in 0 1 2 3 4 5 6 7 8; do
  { printf "\\x$(printf %02x $((48 + 3)))\\x0$k"; cat tests/fixtures/run-a/cpu.json; } > "$corpus/node-cpu-$k"
done
printf '\x08\x00{"transforms": [[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1], [0,-1,0,1, 1,0,0,0, 0,0,1,0, 0,0,0,1]], "weights": [0.5, 0.5], "center": [0,0,0]}' > "$corpus/blend-1"
printf '\x08\x01[{"transforms": [[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]], "weights": [1]}]' > "$corpus/blend-2"
echo "fuzz: ${secs}s, seed 1, corpus $(ls "$corpus" | wc -l) files"
SKB_REFERENCE=reports/reference.json timeout $((secs + 60)) "$out/fuzz_inputs" -seed=1 -max_total_time="$secs" \
  -max_len=8192 -timeout=10 -rss_limit_mb=1024 -close_fd_mask=3 -artifact_prefix="$out/" "$corpus" > "$out/fuzz.log" 2>&1
rc=$?
runs=$(grep -a -o 'Done [0-9]* runs' "$out/fuzz.log" | grep -o '[0-9]*' | tail -1)
if [ $rc -ne 0 ]; then
  grep -a -m3 'ERROR\|SUMMARY\|runtime error' "$out/fuzz.log"
  echo "FAIL fuzz: crash after ${runs:-?} inputs; artifact in $out/ (log $out/fuzz.log)"; exit 1
fi
san=$(grep -a -c 'runtime error\|ERROR: AddressSanitizer\|ERROR: LeakSanitizer' "$out/fuzz.log")
if [ "$san" -ne 0 ]; then
  grep -a -m3 'runtime error\|ERROR:' "$out/fuzz.log"; echo "FAIL fuzz: $san sanitizer reports (log $out/fuzz.log)"; exit 1
fi
echo "ok   fuzz: ${secs}s, ${runs:-0} bad inputs tried / 0 crashes / 0 sanitizer reports, corpus $(ls "$corpus" | wc -l) files (log $out/fuzz.log)"
