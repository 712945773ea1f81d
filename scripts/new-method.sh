#!/usr/bin/env bash
# new-method.sh NAME [TITLE] — the first step of ARCHITECTURE.md "Adding a method":
# writes methods/NAME.c from scripts/templates/method.c.in (only the required
# hooks, each with a TODO saying where to read) and registers it in
# methods/registry.c (its extern and one table line).  The scaffold builds
# and runs in every experiment as it is: until edited it blends as LBS.
# `make new-method NAME=...` runs it.  Usage errors exit 2.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-}
title=${2:-$name}
usage() { echo "new-method: $1 (usage: make new-method NAME=name [TITLE='Display name'])" >&2; exit 2; }
[ -n "$name" ] || usage "NAME is required"
# a C identifier part and a registry key: lower case, digits, underscores
[[ "$name" =~ ^[a-z][a-z0-9_]{0,30}$ ]] || usage "NAME '$name' must match [a-z][a-z0-9_]* (at most 31 characters)"
[[ "$title" =~ ^[A-Za-z0-9\ _.+\'-]{1,40}$ ]] || usage "TITLE '$title' may hold letters, digits, spaces and _.+'- only (at most 40)"
reg=methods/registry.c
dest=methods/$name.c
[ ! -e "$dest" ] && [ ! -L "$dest" ] || usage "$dest exists already"
grep -q "^extern const struct skb_method skb_method_$name;" "$reg" && usage "'$name' is registered already in $reg"
if ./skinbench list methods 2>/dev/null | grep -q "^  $name "; then usage "a method named '$name' exists already"; fi

# the title goes into a C string and a sed replacement: escape \ & / and "
esc_title=$(printf '%s' "$title" | sed -e 's/[\\&/]/\\&/g' -e 's/"/\\\\"/g')
tmpf=$(mktemp "methods/.$name.c.XXXXXX")
trap 'rm -f "$tmpf"' EXIT
sed -e "s/@NAME@/$name/g" -e "s/@TITLE@/$esc_title/g" scripts/templates/method.c.in > "$tmpf"
mv "$tmpf" "$dest"
trap - EXIT
# its extern above the first one, its line before the table's NULL
sed -i "0,/^extern const struct skb_method skb_method_/s//extern const struct skb_method skb_method_$name;\n&/" "$reg"
sed -i "/^const struct skb_method \*const skb_methods\[\] = {/,/^};/s/^    NULL\$/    \&skb_method_$name,\n    NULL/" "$reg"
[ "$(grep -c "skb_method_$name\b" "$reg")" -eq 2 ] || { echo "new-method: could not register $name in $reg" >&2; exit 1; }
echo "new-method: wrote $dest and registered it in $reg; next: make, then skinbench run all --quick"
echo "new-method: the scaffold blends as LBS until you replace the TODOs (ARCHITECTURE.md \"Adding a method\")"
