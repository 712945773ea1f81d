#!/usr/bin/env bash
# Output paths: an output is written through a
# temporary file and renamed, and is never allowed to replace a device, FIFO,
# socket or symbolic link (as root, rename(2) would turn /dev/null into a
# regular file).  Writes to stdout are checked: a full device gives a non-zero
# exit with one message.  Device nodes are private ones made with mknod in a
# temporary directory (root only; skipped otherwise) -- never the real /dev.
skb_summary=1
. "$(dirname "$0")/lib/preamble.sh"
here=$PWD/tests
skipped=0

# kind PATH: what the node is, so "still the same node" can be checked
kind() { stat -c '%F %t:%T' "$1" 2>/dev/null || echo missing; }

# refuses NAME PATH CMD...: non-zero exit, one "refusing" line, node unchanged
refuses() {
  local name=$1 path=$2; shift 2
  local before; before=$(kind "$path")
  "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  [ $rc -ne 0 ] || bad "$name: exit 0"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$name: expected one error line, got: $(cat "$tmp/err")"
  grep -q "refusing to replace" "$tmp/err" || bad "$name: no 'refusing to replace' in: $(cat "$tmp/err")"
  [ "$(kind "$path")" = "$before" ] || bad "$name: $path changed from '$before' to '$(kind "$path")'"
  ls "$(dirname "$path")" | grep -q '\.tmp' && bad "$name: temporary file left behind"
  ok
}

skin() { "$exe" skin --method dlb --model arm "$@"; }

# a node of each kind
mkdir "$tmp/n"
mkfifo "$tmp/n/fifo"
echo "keep" > "$tmp/target"
ln -s "$tmp/target" "$tmp/n/link"
ln -s "$tmp/nowhere" "$tmp/n/dangling"
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$tmp/n/sock" 2>/dev/null
nodes="fifo link dangling"
[ -S "$tmp/n/sock" ] && nodes="$nodes sock"
if [ "$(id -u)" = 0 ] && mknod "$tmp/n/null" c 1 3 2>/dev/null && mknod "$tmp/n/full" c 1 7 2>/dev/null; then
  nodes="$nodes null full"
else
  echo "skip: device nodes (needs root and mknod)"; skipped=1
fi

for n in $nodes; do
  refuses "skin --out $n" "$tmp/n/$n" skin --out "$tmp/n/$n"
  refuses "compare --summary $n" "$tmp/n/$n" "$exe" compare "$here/fixtures/run-a" "$here/fixtures/run-a" --summary "$tmp/n/$n"
done
[ "$(cat "$tmp/target")" = keep ] || bad "symlink target was written"

# a regular file is replaced atomically, and the result is complete
echo old > "$tmp/mesh.obj"
if skin --out "$tmp/mesh.obj" 2>"$tmp/err"; then
  grep -q '^f ' "$tmp/mesh.obj" && ok || bad "skin --out: no faces in the OBJ"
else bad "skin --out regular file: $(cat "$tmp/err")"; fi
skin > "$tmp/stdout.obj" && cmp -s "$tmp/stdout.obj" "$tmp/mesh.obj" && ok || bad "skin to stdout differs from --out"

# a results file of an experiment (gpu images, written through libpng) is
# never written through a symlink planted in --out
mkdir -p "$tmp/g/images"
ln -s "$tmp/target" "$tmp/g/images/bent_elbow_dlb.png"
"$exe" run gpu --quick --out "$tmp/g" >"$tmp/gpu.log" 2>&1
if ls "$tmp/g/images" | grep -q 'bent_elbow_linear.png'; then
  [ -L "$tmp/g/images/bent_elbow_dlb.png" ] && [ "$(cat "$tmp/target")" = keep ] && ok \
    || bad "run gpu replaced or wrote through a symlink in images/"
  grep -qs "bent_elbow_dlb.png: refusing to replace a symbolic link" "$tmp/g/gpu.json" "$tmp/gpu.log" && ok \
    || bad "run gpu: the refused image is not reported"
else
  echo "skip: gpu images (gpu experiment rendered nothing here)"
fi

# stdout on a full device: non-zero exit and one message
if [ -c "$tmp/n/full" ]; then
  for cmd in "list" "--help" "list methods" "skin --method dlb --model arm" "blend --help"; do
    # shellcheck disable=SC2086
    "$exe" $cmd >"$tmp/n/full" 2>"$tmp/err"; rc=$?
    [ $rc -ne 0 ] || bad "'$cmd > full': exit 0"
    grep -q "write error on standard output" "$tmp/err" || bad "'$cmd > full': no message: $(cat "$tmp/err")"
    ok
  done
  [ "$(kind "$tmp/n/full")" = "character special file 1:7" ] || bad "full node changed"
fi
# a closed pipe reader must not hide the loss either: stdout to a read-only fd
"$exe" list 1<&- 2>"$tmp/err"; [ $? -ne 0 ] && ok || bad "list with stdout closed: exit 0"

echo "safe_output: $pass passed, $fail failed$([ $skipped = 1 ] && echo ', device nodes skipped')"
[ "$fail" -eq 0 ]
