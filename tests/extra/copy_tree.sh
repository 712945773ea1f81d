# copy_tree.sh — sourced by tests/extra_method.sh and tests/extra_experiment.sh:
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
