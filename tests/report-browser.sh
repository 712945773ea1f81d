#!/usr/bin/env bash
# The report's HTML in a real browser: render report.html from the fixture
# results, load it in headless Chromium, and check the DOM (every table id
# present, no "undefined"/"NaN", every image decoded, no script error); keep
# a screenshot at $SKB_BUILD/report-browser.png.  The first screen (a
# 1400x900 window) must show the whole headline table, one row per claim of
# reference.json, each linking to its section; the screenshot of that screen
# is $SKB_BUILD/report-first-screen.png.  At that size nothing is cut off at
# the right (no table wider than its box, every section open) and no cell
# is taller than half the window.  Skips (exit 0, with the reason)
# when chromium is not installed.  SKB_BROWSER_RESULTS=DIR renders DIR's
# results (a full run's) in the fixture's stead.
. "$(dirname "$0")/lib/preamble.sh"
build=${SKB_BUILD:-build}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIP report-browser: chromium not installed (apt-get install --no-install-recommends chromium)"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# SKB_BROWSER_RESULTS: another results directory to render (a full run's), the fixture by default
cp -r "${SKB_BROWSER_RESULTS:-tests/fixtures/run-a}" "$tmp/run"
"$exe" report --results "$tmp/run" > "$tmp/report.out" 2>&1 || { cat "$tmp/report.out"; echo "FAIL report"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --hide-scrollbars)
url="file://$tmp/run/report.html"
timeout 60 "$browser" "${flags[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --window-size=1400,900 --dump-dom "$url" \
  > "$tmp/dom.html" 2> "$tmp/chromium.log" || { tail -5 "$tmp/chromium.log"; echo "FAIL chromium --dump-dom"; exit 1; }
# the same page with every disclosure open but the folded notes (#open-all):
# a table whose content is wider than its box is cut off at the right
timeout 60 "$browser" "${flags[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --window-size=1400,900 --dump-dom "$url#open-all" \
  > "$tmp/dom-open.html" 2>> "$tmp/chromium.log" || { tail -5 "$tmp/chromium.log"; echo "FAIL chromium --dump-dom (open)"; exit 1; }
mkdir -p "$build"
timeout 60 "$browser" "${flags[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --window-size=1400,2400 \
  --screenshot="$(realpath "$build")/report-browser.png" "$url" > /dev/null 2>> "$tmp/chromium.log" \
  || { echo "FAIL chromium --screenshot"; exit 1; }
timeout 60 "$browser" "${flags[@]}" --user-data-dir="$(mktemp -d -p "$tmp")" --window-size=1400,900 \
  --screenshot="$(realpath "$build")/report-first-screen.png" "$url" > /dev/null 2>> "$tmp/chromium.log" \
  || { echo "FAIL chromium --screenshot (first screen)"; exit 1; }
fail=0
for id in t-headline software-gpu toc s-headline s-contents s-table41 s-coverage s-bibliography t-coverage t-bibliography s-plots t-runs t-table41 t-flops t-bounds t-fig18 t-table32 t-fig19 t-gpu t-table52 t-table61 t-spheretree t-table53 t-table62 counts plots; do
  grep -q "id=\"$id\"" "$tmp/dom.html" || { echo "FAIL DOM lacks id $id"; fail=1; }
done
# text content only: words inside base64 image data are not rendering errors
sed -e 's/data:image\/png;base64,[A-Za-z0-9+\/=]*//g' "$tmp/dom.html" > "$tmp/text.html"
if grep -q -w 'undefined\|NaN' "$tmp/text.html"; then echo "FAIL DOM contains undefined/NaN"; fail=1; fi
imgs=$(grep -o 'data-images="[0-9]*/[0-9]*"' "$tmp/dom.html" | head -1 | sed 's/.*="\(.*\)"/\1/')
if [ -z "$imgs" ]; then echo "FAIL the page's load check did not run"; fail=1
elif [ "${imgs%/*}" != "${imgs#*/}" ] || [ "${imgs#*/}" = 0 ]; then echo "FAIL images decoded: $imgs"; fail=1
else echo "ok   images decoded: $imgs"; fi
body=$(grep -o '<body[^>]*>' "$tmp/dom.html" | head -1)
# the headline table's top-bottom (CSS px from the top of the page), the
# window height and its row count, measured by the page itself at load
head=$(printf '%s' "$body" | sed -n 's/.*data-headline="\([0-9]*\)-\([0-9]*\)\/[0-9]*\/\([0-9]*\)".*/\1 \2 \3/p')
claims=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["headline"]["claims"]))' reports/reference.json)
if [ -z "$head" ]; then echo "FAIL the page did not measure its headline table"; fail=1
else
  set -- $head
  if [ "$2" -gt 900 ] || [ "$1" -ge "$2" ]; then echo "FAIL headline table spans y = $1..$2: not within the first 900 px"; fail=1
  else echo "ok   headline table within the first screen (y = $1..$2 of 900)"; fi
  [ "$3" = "$claims" ] && echo "ok   headline rows: $3 (one per reference.json claim)" \
    || { echo "FAIL headline rows $3, reference.json has $claims claims"; fail=1; }
fi
noid=$(grep -o '<h2[^>]*>' "$tmp/dom.html" | grep -vc 'id=')
[ "$noid" -eq 0 ] && echo "ok   every h2 has an id" || { echo "FAIL $noid h2 heading(s) without an id"; fail=1; }
links=$(sed -n '/<table id="t-headline"/,/<\/table>/p' "$tmp/dom.html" | grep -o '<a href="#s-[a-z0-9]*"' | sort -u | sed 's/.*#//;s/"//')
[ -n "$links" ] || { echo "FAIL headline rows link to no section"; fail=1; }
for l in $links; do
  grep -q "id=\"$l\"" "$tmp/dom.html" || { echo "FAIL headline link #$l has no target"; fail=1; }
done
# the page is never wider than the 1400 px window: wide tables scroll in their own box
width=$(printf '%s' "$body" | sed -n 's/.*data-width="\([0-9]*\)\/\([0-9]*\)".*/\1 \2/p')
if [ -z "$width" ]; then echo "FAIL the page did not measure its width"; fail=1
else
  set -- $width
  [ "$1" -le "$2" ] && echo "ok   page width $1 px within the window's $2 px" \
    || { echo "FAIL the page is $1 px wide in a $2 px window: it scrolls sideways"; fail=1; }
fi
# nothing cut off at the right: no table wider than its box, every section open
clipped=$(grep -o '<body[^>]*>' "$tmp/dom-open.html" | head -1 | sed -n 's/.*data-clipped="\([0-9]*\)\/\([^"]*\)".*/\1 \2/p')
if [ -z "$clipped" ]; then echo "FAIL the page did not measure its tables' widths"; fail=1
else
  set -- $clipped
  [ "$1" -eq 0 ] && echo "ok   no table cut off at the right of a 1400 px window (every section open)" \
    || { echo "FAIL $1 table(s) wider than their box at 1400 px, the first: ${2:-?}"; fail=1; }
fi
# no cell taller than half the window: a long note shows one line, the rest one click away
tallest=$(printf '%s' "$body" | sed -n 's/.*data-tallest="\([0-9]*\)\/\([0-9]*\)\/\([^"]*\)".*/\1 \2 \3/p')
if [ -z "$tallest" ]; then echo "FAIL the page did not measure its cells"; fail=1
else
  set -- $tallest
  [ $(( 2 * $1 )) -le "$2" ] && echo "ok   tallest cell $1 px, within half the $2 px window" \
    || { echo "FAIL a cell of table ${3:-?} is $1 px tall, more than half the $2 px window"; fail=1; }
fi
# the GPU images are a grid of thumbnails (full size on click), not a column of 512 px pictures
thumbs=$(printf '%s' "$body" | sed -n 's/.*data-thumbs="\([0-9]*\)\/\([0-9]*\)".*/\1 \2/p')
if [ -z "$thumbs" ]; then echo "FAIL the page did not measure its image thumbnails"; fail=1
else
  set -- $thumbs
  [ "$1" -gt 0 ] && [ "$2" -le 240 ] && echo "ok   $1 GPU images as thumbnails (widest $2 px)" \
    || { echo "FAIL GPU images: $1 shown, widest $2 px (thumbnails are at most 240 px)"; fail=1; }
fi
# a grid cell shows its status by a mark too, not by colour alone
grep -q '<table class="grid"' "$tmp/dom.html" && ! sed -n '/<table class="grid"/,/<\/table>/p' "$tmp/dom.html" | grep -q '✓\|✗' \
  && { echo "FAIL grid cells carry no status mark"; fail=1; }
case "$body" in *data-js-error*) echo "FAIL script error: $body"; fail=1 ;; esac
[ -s "$build/report-browser.png" ] && echo "ok   screenshot $build/report-browser.png" || { echo "FAIL no screenshot"; fail=1; }
[ -s "$build/report-first-screen.png" ] && echo "ok   first screen $build/report-first-screen.png" || { echo "FAIL no first-screen screenshot"; fail=1; }
[ $fail -eq 0 ] && echo "ok   report.html renders in $($browser --version 2>/dev/null | head -1)"
exit $fail
