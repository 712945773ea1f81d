# copy_tree.sh — sourced by tests/extra_method.sh, tests/extra_experiment.sh
# and tests/new_method.sh after tests/lib/preamble.sh (its $exe, $tmp, ok and
# bad), which apply README's "Adding a method/an experiment" steps to a copy
# of the tree.  The caller sets src (the source tree), then calls extra_setup
# NAME: it gets $bdir and the copy in $tree; after its README edits,
# build_copy WHAT builds the copy's $xsb.

# copy_tree SRC BUILD_DIR DEST copies the source tree SRC (mtimes kept, no
# build or results directories) to DEST and this build's objects to
# DEST/build, so a `make BUILD=build skinbench` in DEST rebuilds only what the
# README steps then touch (seconds, not a full build).
copy_tree() {
  local src=$1 bdir=$2 dest=$3
  mkdir -p "$dest/build"
  (cd "$src" && tar --exclude='./build*' --exclude=./results --exclude=./.git --exclude=./skinbench -cf - .) \
    | (cd "$dest" && tar xf -)
  (cd "$bdir" && tar --exclude=./tests --exclude=./fuzz -cf - .) | (cd "$dest/build" && tar xf -)
}

# extra_setup NAME: skip (exit 0, naming NAME) unless exe sits in a plain
# build directory -- the copy rebuilds with the default flags, and a sanitizer
# build's objects would not link with them -- then make the copy $tree
extra_setup() {
  bdir=$(dirname "$exe")
  if [ -n "${SKB_ASAN:-}" ] || [ ! -f "$bdir/libskb.a" ]; then
    echo "SKIP $1: needs a plain build directory next to skinbench (not under make asan)"; exit 0
  fi
  tree="$tmp/tree"
  copy_tree "$src" "$bdir" "$tree"
}

# build_copy WHAT: the copy's skinbench as $xsb, or FAIL (with make's last
# lines) and stop: nothing later can run without it
build_copy() {
  if make -C "$tree" -j2 BUILD=build skinbench > "$tmp/make.log" 2>&1; then ok "copy builds with $1"; else
    bad "copy does not build"; tail -20 "$tmp/make.log"; exit 1; fi
  xsb="$tree/build/skinbench"
}
