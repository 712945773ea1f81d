#!/usr/bin/env bash
# The layering, bottom to top (ARCHITECTURE.md "Layout"):
#   common -> geometry -> methods -> flops -> datasets -> gpu -> harness -> reports -> regress -> cli
# Three checks:
# 1. includes: a file may include headers of its own layer or of a lower one;
#    an include of a higher layer's header (a back edge) fails, naming file,
#    line and include; so does an include of methods/*_internal.h from
#    another folder (a method's state layout is its own).  Headers are found by name (the build uses one -I per
#    directory), so a header name must be unique across the layers.
# 2. calls, from the objects of the build (nm, objdump -r): each symbol that
#    an object's code refers to is resolved to the object that defines it as
#    a function.  A call into a higher
#    layer fails, and so does a circle of calls between the files of one
#    folder (a.c calls b.c calls ... a.c), naming the files and one symbol on
#    each edge.  Only objects whose source is in the tree are read; with no
#    objects at all the call check is skipped (said so) and includes decide.
# 3. one timing engine (docs/report-and-regression.md "Timed verdicts"): no
#    file but common/skb_timing.c reads a clock (clock_gettime, gettimeofday,
#    timespec_get, clock(), rdtsc); time(NULL) stamps are dates, not timings.
# Usage: scripts/check-layers.sh [ROOT]   (default: the source tree)
#        the objects: $SKB_BUILD (default ROOT/build), one BUILD/DIR/NAME.o per DIR/NAME.c(pp)
set -u
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
build=${SKB_BUILD:-build}
layers=(common geometry methods flops datasets gpu harness reports regress cli)
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
      # the method boundary: a method's internals (the layout of its state)
      # stay in methods/; other folders use its public header
      if [ "$to" = methods ] && [ "$d" != methods ] && [[ "$inc" == *_internal.h ]]; then
        echo "check-layers: $f:$line includes \"$inc\": a method's internals stay in methods/ (use its public header)"
        bad=1
      fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f")
  done
done

# ---- calls: "D file.c" per object, then its defined (T) and undefined (U) symbols ----
syms=$(mktemp); trap 'rm -f "$syms"' EXIT
nobj=0
for d in "${layers[@]}"; do
  for f in "$d"/*.c "$d"/*.cpp; do
    [ -f "$f" ] || continue
    o="$build/${f%.*}.o"
    [ -f "$o" ] || continue
    nobj=$((nobj+1))
    echo "F $d ${rank[$d]} $f"
    # defined functions: calls, not references to const tables (a registry lists
    # what sits beside it); weak and vague-linkage C++ inlines excluded (each user has a copy)
    nm -g --defined-only "$o" 2>/dev/null | awk 'NF >= 3 && $2 == "T" { print "T " $3 }'
    # calls: relocations in code; a function stored in a table (a hook, a
    # registry entry) is a reference from data, the way a lower file is handed
    # an upper one's function, and is not an edge
    objdump -r "$o" 2>/dev/null | awk '
      /^RELOCATION RECORDS FOR \[/ { code = ($4 ~ /^\[\.text/) }
      code && NF == 3 && $1 ~ /^[0-9a-f]+$/ { s = $3; sub(/[-+]0x[0-9a-f]+$/, "", s); print "U " s }'
  done
done > "$syms"
calls=0
if [ "$nobj" -eq 0 ]; then
  echo "check-layers: no objects under $build/ (make first): calls not checked"
else
  out=$(awk '
    $1 == "F" { cur = $4; dir[cur] = $2; rk[cur] = $3; nf++; file[nf] = cur; next }
    $1 == "T" { if (!($2 in def)) def[$2] = cur; next }
    $1 == "U" { nu++; ufile[nu] = cur; usym[nu] = $2; next }
    # Tarjan: strongly connected components of the file graph of one folder
    function visit(v,    i, w) {
      idx[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
      for (i = 1; i <= nadj[v]; i++) {
        w = adj[v, i]
        if (!(w in idx)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
        else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
      }
      if (low[v] == idx[v]) {
        ncomp++; csize[ncomp] = 0
        do { w = stack[sp--]; on[w] = 0; comp[w] = ncomp; csize[ncomp]++ } while (w != v)
      }
    }
    # a shortest circle through v inside its component (breadth first)
    function circle(v,    q, h, t, x, i, w, path, seen) {
      h = 1; t = 1; q[1] = v; split("", seen); split("", prev)
      while (h <= t) {
        x = q[h++]
        for (i = 1; i <= nadj[x]; i++) {
          w = adj[x, i]
          if (comp[w] != comp[v]) continue
          if (w == v) {
            path = x " -(" esym[x, w] ")-> " v
            while (x != v) { path = prev[x] " -(" esym[prev[x], x] ")-> " path; x = prev[x] }
            return path
          }
          if (!(w in seen)) { seen[w] = 1; prev[w] = x; q[++t] = w }
        }
      }
      return v
    }
    END {
      for (k = 1; k <= nu; k++) {
        a = ufile[k]; s = usym[k]
        if (!(s in def)) continue
        b = def[s]
        if (a == b) continue
        ncalls++
        if (rk[b] > rk[a]) { print "check-layers: " a " calls " s " (" b "): " dir[a] "/ may not depend on " dir[b] "/ (a higher layer)"; bad = 1; continue }
        if (dir[a] != dir[b] || ((a, b) in esym)) continue
        esym[a, b] = s; adj[a, ++nadj[a]] = b
      }
      for (i = 1; i <= nf; i++) if (!(file[i] in idx)) visit(file[i])
      for (i = 1; i <= nf; i++) {
        v = file[i]; c = comp[v]
        if (csize[c] < 2 || (c in told)) continue
        told[c] = 1; bad = 1; members = ""
        for (j = 1; j <= nf; j++) if (comp[file[j]] == c) members = members " " file[j]
        print "check-layers: circle of calls in " dir[v] "/: " circle(v)
        print "  (" csize[c] " files call each other round:" members ")"
      }
      print "calls " ncalls + 0
      exit bad
    }' "$syms")
  rc=$?
  calls=$(printf '%s\n' "$out" | sed -n 's/^calls //p')
  printf '%s\n' "$out" | grep -v '^calls ' | grep . 
  [ $rc -eq 0 ] || bad=1
fi
clocks=$(for d in "${layers[@]}"; do
  for f in "$d"/*.c "$d"/*.h "$d"/*.cpp "$d"/*.hpp; do
    [ -f "$f" ] && [ "$f" != common/skb_timing.c ] && printf '%s\n' "$f"
  done
done | xargs -r grep -nE '\b(clock_gettime|gettimeofday|timespec_get|__rdtscp?)[[:space:]]*\(|\bclock\(\)' /dev/null)
if [ -n "$clocks" ]; then
  printf '%s\n' "$clocks" | sed 's/^\([^:]*:[0-9]*\):.*/check-layers: \1 reads a clock of its own: time through common\/skb_timing.h (one timing engine)/'
  bad=1
fi
[ $bad -eq 0 ] && echo "check-layers: ok, $edges includes and ${calls:-0} calls between files follow ${layers[*]}, no circle inside a folder, one clock (common/skb_timing.c)"
exit $bad
