#!/usr/bin/env bash
# report writes every table of the page as tables/<id>.csv (and the headline
# as tables/headline.csv): the same header, cells, status and note as the
# table in report.md, cell for cell; RFC 4180 quoting; a formula-like cell is
# defused with a leading apostrophe.
source "$(dirname "$0")/lib/preamble.sh"

"$exe" run bounds flops spheres --quick --quiet --out "$tmp/run" || bad "run bounds flops spheres failed"
"$exe" report --results "$tmp/run" --out "$tmp/rep" --no-plots > "$tmp/out" 2>&1 || bad "report failed: $(tail -2 "$tmp/out")"
python3 - "$tmp/rep" <<'EOF' && ok "every CSV equals its table in report.md" || bad "CSV and report.md disagree (above)"
import csv, html, os, re, sys
rep = sys.argv[1]
md = open(os.path.join(rep, "report.md"), encoding="utf-8").read().split("\n")

def md_tables(lines):
    """anchor id -> list of tables (each a list of rows of cells) in that section"""
    out, sec, cur = {}, None, None
    for line in lines:
        m = re.match(r'<a id="s-([^"]+)"></a>', line)
        if m:
            sec = m.group(1); out.setdefault(sec, []); cur = None; continue
        if line.startswith("|") and sec:
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if all(re.fullmatch(r"-{3}", c) for c in cells):
                continue
            # a link the renderer wrote around a cell; then CommonMark's
            # backslash escapes and the entities, as a renderer reads them
            cells = [re.sub(r"^\[(.*)\]\(#[^)]*\)$", r"\1", c) for c in cells]
            cells = [html.unescape(re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", c)) for c in cells]
            if cur is None:
                cur = []; out[sec].append(cur)
            cur.append(cells)
        else:
            cur = None
    return out

tabs, errs, n = md_tables(md), [], 0
files = sorted(f for f in os.listdir(os.path.join(rep, "tables")) if f.endswith(".csv"))
ids = set(k for k, v in tabs.items() if v)
if set(f[:-4] for f in files) != ids:
    errs.append("tables/ %s vs report.md sections %s" % (sorted(f[:-4] for f in files), sorted(ids)))
for f in files:
    rows = list(csv.reader(open(os.path.join(rep, "tables", f), newline="", encoding="utf-8")))
    rows = [[c[1:] if c.startswith("'") and len(c) > 1 and c[1] in "=@+-\t\r" else c for c in r] for r in rows]
    rows = [[re.sub(r"\s+", " ", c).strip() for c in r] for r in rows]
    page = tabs.get(f[:-4], [])
    if not page:
        errs.append("%s: no table in report.md" % f); continue
    want = [[re.sub(r"\s+", " ", c).strip() for c in r] for r in page[-1]]
    n += 1
    if rows != want:
        for i, (a, b) in enumerate(zip(rows, want)):
            if a != b:
                d = [k for k in range(max(len(a), len(b))) if a[k:k+1] != b[k:k+1]]
                errs.append("%s row %d col %s: csv %s vs page %s" % (f, i, d[:1], [a[k] for k in d[:1] if k < len(a)], [b[k] for k in d[:1] if k < len(b)])); break
        else:
            errs.append("%s: %d csv rows vs %d page rows" % (f, len(rows), len(want)))
if n < 5:
    errs.append("only %d tables compared" % n)
for e in errs[:10]:
    print(e)
sys.exit(1 if errs else 0)
EOF
# a cell a spreadsheet would run is defused: a machine named "=HYPERLINK(..." keeps its text behind an apostrophe
python3 - "$tmp/run" <<'EOF'
import json, os, sys
for f in os.listdir(sys.argv[1]):
    if f.endswith(".json"):
        p = os.path.join(sys.argv[1], f); d = json.load(open(p))
        if isinstance(d.get("machine"), dict):
            d["machine"]["cpu"] = '=HYPERLINK("http://x","y"),1'
            json.dump(d, open(p, "w"))
# edited after the run: its manifest no longer vouches for these bytes (report would refuse the folder)
os.remove(os.path.join(sys.argv[1], "manifest.json"))
EOF
"$exe" report --results "$tmp/run" --out "$tmp/rep2" --no-plots > "$tmp/out2" 2>&1
python3 - "$tmp/rep2/tables/runs.csv" <<'EOF' && ok "a formula-like cell is defused" || bad "a formula-like cell reached the CSV as a formula"
import csv, sys
cells = [c for r in csv.reader(open(sys.argv[1], newline="")) for c in r]
hits = [c for c in cells if "HYPERLINK" in c]
sys.exit(0 if hits and all(c.startswith("'=") for c in hits) and not any(c.startswith("=") for c in cells) else 1)
EOF
# a link at OUT/tables is refused with one line, nothing written through it
mkdir -p "$tmp/rep3" "$tmp/victim"; ln -s "$tmp/victim" "$tmp/rep3/tables"
"$exe" report --results "$tmp/run" --out "$tmp/rep3" --no-plots > /dev/null 2> "$tmp/err3"; rc=$?
[ $rc -ne 0 ] && grep -q 'tables: is a symbolic link' "$tmp/err3" && [ -z "$(ls "$tmp/victim")" ] \
  && ok "a link at tables/ is refused, nothing written through it" || bad "tables/ link: exit $rc, $(ls "$tmp/victim" | wc -l) files in its target"
[ "$fail" -eq 0 ]
