#!/usr/bin/env bash
# skinbench bisect end to end on a scratch git repository: this tree's
# sources as commit 0, then 32 commits of which one (the 19th) makes dlb do
# 10 % more work per deformation (SKB_INJECT_SLOWDOWN's own mechanism, set
# as the default in the source: +10.0 % instructions on cloth, measured in
# tests/nightly_gate.sh).  `bisect C0 C32 --kernel double/dlb/cloth` must
# name that commit in at most 6 builds (GOOD, then 5 halvings of 32), every
# step's count exact.  The first build starts from this build's objects
# (--seed-build, --seed-rev: commit 0 holds exactly the sources they were
# built from), so each step recompiles only what its checkout changed.
# Then a range whose count never moved, a slow-down bisected by time
# (paired A/B sittings, --timing), and the usage errors.
. "$(dirname "$0")/lib/preamble.sh"
build=${SKB_BUILD:-build}
if [ -n "${SKB_ASAN:-}" ] || ! command -v valgrind > /dev/null || ! command -v git > /dev/null; then
  echo "SKIP bisect end to end (needs git and valgrind, and the plain build: callgrind cannot run an ASan binary)"
  exit 0
fi
repo=$tmp/repo
mkdir -p "$repo"
# commit 0: the sources as they are now (tracked and untracked, not ignored): what $build was built from
git ls-files -z -co --exclude-standard | tar --null --ignore-failed-read -T - -cf - 2> /dev/null | tar -xf - -C "$repo"
cd "$repo" || exit 1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
git init -q -b main . && git add -A && git commit -q -m "c0: the tree under test"
c0=$(git rev-parse HEAD)
planted=
for i in $(seq 1 32); do
  echo "night $i" >> docs/bisect-scratch.txt
  if [ "$i" -eq 19 ]; then
    sed -i 's|const char \*v = getenv("SKB_INJECT_SLOWDOWN");|const char *v = getenv("SKB_INJECT_SLOWDOWN") ? getenv("SKB_INJECT_SLOWDOWN") : "dlb:10";|' \
      harness/cpu_inject.c
    grep -q '"dlb:10"' harness/cpu_inject.c || { bad "could not plant the change in harness/cpu_inject.c"; exit 1; }
  fi
  git add -A && git commit -q -m "c$i"
  [ "$i" -eq 19 ] && planted=$(git rev-parse HEAD)
  [ "$i" -eq 16 ] && c16=$(git rev-parse HEAD)
  [ "$i" -eq 20 ] && c20=$(git rev-parse HEAD)
done
c32=$(git rev-parse HEAD)
cd - > /dev/null || exit 1

t0=$(date +%s)
"$exe" bisect "$c0" "$c32" --kernel double/dlb/cloth --repo "$repo" --seed-build "$build" --seed-rev "$c0" \
  --quick --work "$tmp/w" --summary "$tmp/b.json" > "$tmp/b.out" 2> "$tmp/b.err"; rc=$?
secs=$(( $(date +%s) - t0 ))
python3 - "$tmp/b.json" "$planted" <<'EOF' && [ $rc -eq 0 ] \
  && ok "bisect: the planted commit (19 of 32) named in $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["builds"])' "$tmp/b.json") builds, ${secs} s" \
  || { bad "bisect did not name the planted commit (exit $rc)"; cat "$tmp/b.out" "$tmp/b.err"; tail -20 "$tmp/w/bisect.log"; }
import json, sys
r = json.load(open(sys.argv[1]))[0]
print("bisect:", {k: r[k] for k in ("first_bad_commit", "builds", "commits", "good", "first_bad_value")})
assert r["decided"] and r["first_bad_commit"] == sys.argv[2], r
assert r["commits"] == 32 and 1 <= r["builds"] <= 6, r
moved = r["first_bad_value"] / r["good"] - 1
assert 0.095 <= moved <= 0.105, moved          # the +10 % the injection plants
for s in r["steps"]:                           # each step's count is exact: GOOD's or the moved one
    v = s["instructions"]
    assert v == r["good"] or v == r["first_bad_value"], s
EOF
grep -q "first moved at ${planted:0:12}" "$tmp/b.out" && ok "bisect: one line names the commit and its subject" \
  || bad "bisect's line: $(cat "$tmp/b.out")"
[ ! -e "$tmp/w/tree" ] && ! git -C "$repo" worktree list | grep -q "$tmp/w/tree" \
  && ok "bisect: the scratch worktree is removed" || bad "bisect left its worktree"

# what the nightly runs on a regression: compare of two nights' runs (made by the builds of c0
# and c32), then bisect BASELINE_RUN NIGHT_RUN --from-compare compare.json: the ends' revisions
# from their manifests and their counts from their icount.json (not built again), the
# regressing method found in compare.json
git -C "$repo" worktree add -q --detach "$tmp/nights" "$c0"
cp -r "$build" "$tmp/nights/build"
for c in c0 c32; do
  git -C "$tmp/nights" checkout -q --detach "${!c}" && make -C "$tmp/nights" --no-print-directory -j2 SAY=: skinbench > /dev/null 2>&1 \
    && "$tmp/nights/skinbench" run icount --quick --quiet --methods dlb --datasets cloth --out "$tmp/night-$c" \
    || bad "building and counting $c"
done
"$exe" compare "$tmp/night-c0" "$tmp/night-c32" --only icount --summary "$tmp/nc.json" > "$tmp/nc.out" 2>&1; rc=$?
"$exe" bisect "$tmp/night-c0" "$tmp/night-c32" --from-compare "$tmp/nc.json" --repo "$repo" --seed-build "$build" \
  --seed-rev "$c0" --work "$tmp/wn" --summary "$tmp/bn.json" > "$tmp/bn.out" 2> "$tmp/bn.err"; rc2=$?
python3 - "$tmp/bn.json" "$planted" <<'EOF' && [ $rc -eq 1 ] && [ $rc2 -eq 0 ] \
  && ok "the nightly's bisect: compare exit 1, --from-compare names commit 19 in $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["builds"])' "$tmp/bn.json") builds (the ends from the runs)" \
  || { bad "the nightly's bisect (compare $rc, bisect $rc2)"; tail -3 "$tmp/nc.out"; cat "$tmp/bn.out" "$tmp/bn.err"; }
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1 and r[0]["kernel"].split("/")[1].startswith("dlb") and r[0]["first_bad_commit"] == sys.argv[2], r
assert r[0]["builds"] <= 5, r   # log2(32) midpoints: GOOD and BAD were not built
EOF
git -C "$repo" worktree remove --force "$tmp/nights"

# a kernel whose count never moved (GOOD and BAD as run folders: their counts, nothing built): said, exit 2
python3 tests/lib/mkrun.py "$tmp/g" --rev "$c0" --rng 1 && python3 tests/lib/mkrun.py "$tmp/b" --rev "$c32" --rng 2
"$exe" bisect "$tmp/g" "$tmp/b" --kernel double/linear/cloth --repo "$repo" --work "$tmp/w2" > "$tmp/n.out" 2> "$tmp/n.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'did not move' "$tmp/n.err" && [ ! -e "$tmp/w2/tree" ] \
  && ok "bisect: a kernel that never moved (GOOD and BAD run folders): exit 2, said so, nothing built" \
  || { bad "bisect of an unmoved kernel: exit $rc"; cat "$tmp/n.out" "$tmp/n.err"; }

# the same slow-down bisected by time alone (--timing) over c16..c20: each step a paired sitting
# of the midpoint's build against GOOD's binary.  Never a wrong commit: the planted one at
# >= 95 %, or (a step's CI too wide on a loaded machine) undecided, exit 3, with a range that
# still holds it
"$exe" bisect "$c16" "$c20" --timing --method dlb --rounds 10 --repo "$repo" --seed-build "$build" --seed-rev "$c0" \
  --work "$tmp/wt" --summary "$tmp/t.json" > "$tmp/t.out" 2> "$tmp/t.err"; rc=$?
python3 - "$tmp/t.json" "$planted" "$rc" "$repo" <<'EOF' && ok "bisect --timing: $(grep -m1 '^bisect: dlb' "$tmp/t.out" | cut -c1-150)" \
  || { bad "bisect --timing (exit $rc)"; cat "$tmp/t.out" "$tmp/t.err"; }
import json, subprocess, sys
r = json.load(open(sys.argv[1]))[0]; planted, rc, repo = sys.argv[2], int(sys.argv[3]), sys.argv[4]
print("bisect --timing:", {k: r.get(k) for k in ("first_bad_commit", "first_bad_at_or_before", "builds", "confidence")})
if rc == 0:
    assert r["decided"] and r["first_bad_commit"] == planted and r["confidence"] >= 0.95, r
else:
    assert rc == 3 and not r["decided"], r
    hi = r["first_bad_at_or_before"]
    ok = subprocess.run(["git", "-C", repo, "merge-base", "--is-ancestor", planted, hi]).returncode == 0
    ok = ok and subprocess.run(["git", "-C", repo, "merge-base", "--is-ancestor", r["last_good"], planted]).returncode == 0
    assert ok and r["last_good"] != planted, r
EOF

# usage: one line, exit 2, nothing built
for args in "" "$c0" "$c0 $c32" "$c0 $c32 --timing" "nosuchrev $c32 --kernel double/dlb/cloth"; do
  # shellcheck disable=SC2086
  "$exe" bisect $args --repo "$repo" --work "$tmp/w3" > /dev/null 2> "$tmp/u.err"; rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/u.err")" -eq 1 ] && ok "bisect ${args:-(no arguments)}: exit 2, one line" \
    || { bad "bisect $args: exit $rc"; cat "$tmp/u.err"; }
done
"$exe" bisect "$c32" "$c0" --kernel double/dlb/cloth --repo "$repo" --work "$tmp/w4" > /dev/null 2> "$tmp/r.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'not an ancestor' "$tmp/r.err" && ok "bisect BAD GOOD reversed: exit 2, said so" \
  || { bad "reversed range: exit $rc"; cat "$tmp/r.err"; }
"$exe" bisect --help | grep -q -- '--kernel NAME' && ok "bisect --help from its option table" || bad "bisect --help"
exit $fail
