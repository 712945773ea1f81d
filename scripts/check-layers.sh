#!/usr/bin/env bash
# The layering, bottom to top (README "Layout"):
#   common -> methods -> datasets -> gpu -> harness -> reports -> cli
# A file may include headers of its own layer or of a lower one; an include of
# a higher layer's header (a back edge) fails, naming file, line and include.
# Headers are found by name (the build uses one -I per directory), so a
# header name must be unique across the layers.
# Usage: scripts/check-layers.sh [ROOT]   (default: the source tree)
set -u
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
layers=(common methods datasets gpu harness reports cli)
declare -A rank where
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done
bad=0
for d in "${layers[@]}"; do
  [ -d "$d" ] || { echo "check-layers: no directory $d/"; exit 2; }
  for h in "$d"/*.h "$d"/*.hpp; do
    [ -f "$h" ] || continue
    n=$(basename "$h")
    if [ -n "${where[$n]:-}" ]; then
      echo "check-layers: header $n is in both ${where[$n]}/ and $d/"; bad=1
    fi
    where[$n]=$d
  done
done
edges=0
for d in "${layers[@]}"; do
  for f in "$d"/*.c "$d"/*.h "$d"/*.cpp "$d"/*.hpp "$d"/*.cxx; do
    [ -f "$f" ] || continue
    while IFS=: read -r line inc; do
      inc=${inc#*\"}; inc=${inc%%\"*}
      to=${where[$(basename "$inc")]:-}
      [ -n "$to" ] || continue        # not a skinbench header
      edges=$((edges+1))
      if [ "${rank[$to]}" -gt "${rank[$d]}" ]; then
        echo "check-layers: $f:$line includes \"$inc\": $d/ may not depend on $to/ (a higher layer)"
        bad=1
      fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f")
  done
done
[ $bad -eq 0 ] && echo "check-layers: ok, $edges includes follow ${layers[*]}"
exit $bad
